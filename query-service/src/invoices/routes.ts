import { Language } from "@skyward/contracts/ids";
import {
  documentNumberText,
  type InvoiceDocument,
  type InvoiceKind,
  InvoiceListQuery,
  Month,
  StatementQuery,
} from "@skyward/contracts/invoices";
import { Where } from "@skyward/infra/db";
import { monthBounds, statementOf } from "@skyward/infra/documents/statement-data";
import {
  renderInvoicePdf,
  renderStatementPdf,
  renderStatementXlsx,
  statementFileName,
} from "@skyward/infra/documents/statements";
import { requirePrincipal } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { IllegalState, NotFound } from "@skyward/infra/http/errors";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import { z } from "zod";
import type { QueryDeps } from "../deps.ts";
import { companyScope } from "../scope.ts";

/**
 * Invoices, credit notes and monthly statements (issue 24, item 4), to whoever may see the company's balance: its
 * agents, its agency's supervisors, administrators and auditors. Months are calendar months in UTC.
 */

interface InvoiceRow {
  invoice_id: string;
  number: number;
  kind: InvoiceKind;
  agency_id: string;
  company_id: string;
  sale_id: string;
  sale_kind: string;
  locator: string;
  document_number: string;
  passenger_name: string;
  route: string;
  amount: string;
  currency: string;
  sold_at: Date;
  issued_at: Date;
  company_name: string;
  agency_name: string | null;
}

const INVOICE_SELECT = `SELECT i.invoice_id, i.number, i.kind, i.agency_id, i.company_id, i.sale_id, i.sale_kind,
    i.locator, i.document_number, i.passenger_name, i.route, i.amount, i.currency, i.sold_at, i.issued_at,
    c.name AS company_name, (SELECT a.name FROM read.agencies a WHERE a.id = i.agency_id) AS agency_name
  FROM read.invoices i JOIN read.companies c ON c.id = i.company_id`;

const asDocument = (r: InvoiceRow): InvoiceDocument => ({
  invoice_id: r.invoice_id,
  number: r.number,
  number_text: documentNumberText(r.kind, r.number),
  kind: r.kind,
  company_id: r.company_id,
  sale_id: r.sale_id,
  sale_kind: r.sale_kind,
  locator: r.locator,
  document_number: r.document_number,
  passenger_name: r.passenger_name,
  route: r.route,
  amount: Number(r.amount),
  currency: r.currency,
  sold_at: r.sold_at.toISOString(),
  issued_at: r.issued_at.toISOString(),
});

/** The month's first instant and the next month's, refusing a month that has not begun. */
function monthRange(month: string, now: Date): { start: Date; end: Date } {
  const bounds = monthBounds(month);
  if (bounds.start > now) throw new IllegalState(`The month ${month} has not begun`, "month_in_future");
  return bounds;
}

async function languageOf(deps: QueryDeps, p: Principal, asked: Language | undefined): Promise<Language> {
  if (asked) return asked;
  const { rows } = await deps.pool.query<{ language: string }>(
    "SELECT language FROM read.users WHERE id = $1",
    [p.userId],
  );
  return Language.catch("en").parse(rows[0]?.language);
}

const DocumentId = z.string().uuid();
const CompanyId = z.string().min(1).max(200);

export function invoiceRoutes(deps: QueryDeps): Router {
  const { pool, readModels } = deps;
  const router = Router();
  const fresh = freshReadModels(readModels, ["invoices", "balances", "directory"]);

  router.get("/invoices", fresh, async (req, res) => {
    const p = requirePrincipal(req);
    const query = parseInput(InvoiceListQuery, req.query, "query");
    const { start, end } = monthRange(query.month, new Date());
    const where = new Where()
      .and((from, to) => `i.sold_at >= ${from} AND i.sold_at < ${to}`, start, end)
      .when(query.company_id, (n) => `i.company_id = ${n}`)
      .scope((offset) => companyScope(p, offset));
    const { rows } = await pool.query<InvoiceRow>(
      `${INVOICE_SELECT} WHERE ${where.sql} ORDER BY i.agency_id, i.number`,
      where.params,
    );
    res.json({ data: rows.map(asDocument) });
  });

  router.get("/invoices/:id", fresh, async (req, res) => {
    const p = requirePrincipal(req);
    const id = DocumentId.safeParse(req.params.id);
    if (!id.success) throw new NotFound("No such invoice or credit note", "invoice_not_found");
    const query = parseInput(StatementQuery, req.query, "query");
    const scope = companyScope(p, 1);
    const { rows } = await pool.query<InvoiceRow>(
      `${INVOICE_SELECT} WHERE i.invoice_id = $1 AND ${scope.sql}`,
      [id.data, ...scope.params],
    );
    const row = rows[0];
    if (!row) throw new NotFound("No such invoice or credit note", "invoice_not_found");
    const document = asDocument(row);
    if (query.format !== "pdf") {
      res.json({ data: document });
      return;
    }
    const language = await languageOf(deps, p, query.lang);
    const pdf = await renderInvoicePdf(document, row.agency_name ?? "Skyward", row.company_name, language);
    res.setHeader("Content-Type", "application/pdf");
    res.setHeader("Content-Disposition", `attachment; filename="${document.number_text}.pdf"`);
    res.send(pdf);
  });

  router.get("/companies/:id/statements/:month", fresh, async (req, res) => {
    const p = requirePrincipal(req);
    const companyId = CompanyId.safeParse(req.params.id);
    if (!companyId.success) throw new NotFound("No such company", "company_not_found");
    const month = parseInput(z.object({ month: Month }), { month: req.params.month }, "params").month;
    const query = parseInput(StatementQuery, req.query, "query");
    const scope = companyScope(p, 1);
    const company = (
      await pool.query<{ id: string; name: string; currency: string; agency_name: string | null }>(
        `SELECT c.id, c.name, c.currency, (SELECT a.name FROM read.agencies a WHERE a.id = c.agency_id) AS agency_name
           FROM read.companies c WHERE c.id = $1 AND ${scope.sql}`,
        [companyId.data, ...scope.params],
      )
    ).rows[0];
    if (!company) throw new NotFound("No such company", "company_not_found");
    const { start, end } = monthRange(month, new Date());
    const statement = await statementOf(pool, company, month, start, end);
    if (query.format === "json") {
      res.json({ data: statement });
      return;
    }
    const language = await languageOf(deps, p, query.lang);
    const agency = company.agency_name ?? "Skyward";
    const file =
      query.format === "pdf"
        ? await renderStatementPdf(statement, agency, language)
        : await renderStatementXlsx(statement, language);
    res.setHeader(
      "Content-Type",
      query.format === "pdf"
        ? "application/pdf"
        : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    res.setHeader(
      "Content-Disposition",
      `attachment; filename="${statementFileName(statement, query.format)}"`,
    );
    res.send(file);
  });

  return router;
}
