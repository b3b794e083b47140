import { randomUUID } from "node:crypto";
import type { AncillaryLine } from "@skyward/contracts/ancillaries";
import type { Language } from "@skyward/contracts/ids";
import type { Flight } from "@skyward/contracts/offers";
import {
  type ReceiptDataResponse,
  SALES_EXPORT_ROW_LIMIT,
  SaleId,
  type SaleLine,
  SalesExportQuery,
  type SalesListResponse,
  SalesQuery,
  type SalesTotal,
  TicketDownloadQuery,
  type TicketFilter,
  ticketFileName,
} from "@skyward/contracts/sales";
import type { Ticket } from "@skyward/contracts/supplier";
import { type Receipt, renderReceipt } from "@skyward/infra/documents/ticket-pdf";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { DomainError, NotFound } from "@skyward/infra/http/errors";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { JobQueue } from "@skyward/infra/jobs/runtime";
import {
  agencyTimeZone,
  dateRange,
  Params,
  SALE_LINE_SELECT,
  SALE_ORDER,
  type SalesViewer,
  saleLineSelect,
  salesScope,
  salesWhere,
  streamSaleLines,
  textCondition,
} from "@skyward/infra/sales/lines";
import { salesJobs } from "@skyward/infra/sales/report-job";
import { selectivePart, trigramSample } from "@skyward/infra/sales/text-search";
import {
  estimatedWorkbookBytes,
  salesReportFileName,
  writeSalesWorkbook,
} from "@skyward/infra/sales/workbook";
import { type Router as ExpressRouter, Router } from "express";
import { z } from "zod";
import type { QueryDeps } from "../deps.ts";
import { agentLinesScope, totalsSource } from "./aggregates.ts";
import { analyticsRoutes } from "./analytics.ts";
import { viewerOf } from "./viewer.ts";

const TOTAL_COLUMNS = "base_fare, taxes, agency_markup, company_markup, transaction_fee, penalty, total";
const sums = TOTAL_COLUMNS.split(", ")
  .map((c) => `sum(s.${c})::float8 AS ${c}`)
  .join(", ");

/**
 * Lines and totals per currency a filter matches. Without text, whole days select whole aggregates, so the totals
 * read the coarsest rollup of the viewer's scope (whole months and days) instead of every line.
 */
async function totalsOf(
  pool: QueryDeps["pool"],
  filter: TicketFilter,
  viewer: SalesViewer,
): Promise<SalesTotal[]> {
  const p = new Params();
  let sql: string;
  if (filter.text)
    sql = `SELECT s.currency, count(*)::int AS lines, ${sums} FROM read.sales s
        WHERE ${salesWhere(filter, viewer, p, await indexPart(pool, filter))} GROUP BY s.currency ORDER BY s.currency`;
  else {
    const { table, where } = totalsSource(viewer, filter, p);
    sql = `SELECT s.currency, sum(s.lines)::int AS lines, ${sums} FROM ${table} s WHERE ${where}
        GROUP BY s.currency ORDER BY s.currency`;
  }
  const { rows } = await pool.query<SalesTotal>(sql, p.values);
  return rows;
}

/** The rare part of a text filter the trigram index is asked for (infra/src/sales/text-search.ts), if any. */
async function indexPart(pool: QueryDeps["pool"], filter: TicketFilter): Promise<string | null> {
  return filter.text ? selectivePart(filter.text.toUpperCase(), await trigramSample(pool)) : null;
}

/** The list's condition: `salesWhere`, with an agent's scope resolved against their companies' sharing first. */
async function listWhere(
  pool: QueryDeps["pool"],
  filter: TicketFilter,
  viewer: SalesViewer,
  p: Params,
): Promise<string> {
  const part = await indexPart(pool, filter);
  if (viewer.demo || viewer.userType !== "Agent") return salesWhere(filter, viewer, p, part);
  const { rows } = await pool.query<{ id: string }>(
    "SELECT id FROM read.companies WHERE id = ANY($1) AND shared_bookings",
    [viewer.companyIds],
  );
  const scope = agentLinesScope(
    viewer,
    rows.map((r) => r.id),
    p,
  );
  const text = filter.text ? textCondition(filter.text, p, part) : "true";
  return `${scope} AND ${dateRange(filter, p)} AND ${text}`;
}

async function accountOf(pool: QueryDeps["pool"], userId: string) {
  const { rows } = await pool.query<{
    email: string;
    language: Language;
    name: string;
    phone: string | null;
  }>(
    "SELECT email, language, trim(first_name || ' ' || last_name) AS name, phone FROM read.users WHERE id = $1",
    [userId],
  );
  return rows[0] ?? null;
}

const ReportId = z.uuid();

/** The ticket's passenger's loyalty number and SSRs on the booking (read.bookings keeps them per passenger). */
async function passengerServicesOf(
  pool: QueryDeps["pool"],
  locator: string,
  ticketNumber: string,
): Promise<Pick<Receipt, "loyalty" | "ssrs">> {
  const { rows } = await pool.query<{ loyalty: Receipt["loyalty"]; ssrs: string[] | null }>(
    `SELECT p->'loyalty' AS loyalty, p->'ssrs' AS ssrs
       FROM read.bookings b CROSS JOIN LATERAL jsonb_array_elements(b.tickets) t
       CROSS JOIN LATERAL (SELECT b.held->'passengers'->((t->>'passenger_index')::int) AS p) passenger
      WHERE b.locator = $1 AND t->>'ticket_number' = $2`,
    [locator, ticketNumber],
  );
  return { loyalty: rows[0]?.loyalty ?? null, ssrs: rows[0]?.ssrs ?? [] };
}

/** What a receipt reads of the booking as held (read.sales_bookings.held, jsonb): its flights and fare. */
interface HeldFare {
  fare?: { flights?: Flight[]; fare?: Receipt["fare"] };
}

/** What an EMD was bought for: its service and segment, and the passenger's ticket it goes with. */
async function emdOf(
  pool: QueryDeps["pool"],
  locator: string,
  emdNumber: string,
  flights: Flight[],
): Promise<Receipt["emd"]> {
  const { rows } = await pool.query<{ ancillaries: AncillaryLine[]; tickets: Ticket[] }>(
    "SELECT ancillaries, tickets FROM read.bookings WHERE locator = $1",
    [locator],
  );
  const line = rows[0]?.ancillaries.find((a) => a.emd_number === emdNumber);
  if (!line) return null;
  const segment = flights.flatMap((f) => f.segments).find((s) => s.id === line.segment_id) ?? null;
  return {
    service: { type: line.type, weight_kg: line.weight_kg, seat: line.seat },
    ticket_number:
      rows[0]?.tickets.find((t) => t.passenger_index === line.passenger_index)?.ticket_number ?? null,
    segment,
  };
}

export function salesRoutes(deps: QueryDeps): ExpressRouter {
  const { pool, readModels } = deps;
  const router = Router();
  const fresh = freshReadModels(readModels, ["sales"]);
  // An EMD's receipt names its service and ticket from the booking.
  const freshWithBookings = freshReadModels(readModels, ["sales", "bookings"]);
  // The job queue is opened on the first report that needs it (it migrates graphile-worker's schema once).
  let queue: Promise<JobQueue<typeof salesJobs>> | null = null;
  const jobs = () => {
    queue ??= JobQueue.open(pool, salesJobs).catch((error) => {
      queue = null;
      throw error;
    });
    return queue;
  };

  router.get("/sales", fresh, async (req, res) => {
    const viewer = viewerOf(requirePrincipal(req));
    const query = parseInput(SalesQuery, req.query, "query");
    const p = new Params();
    const where = await listWhere(pool, query.ticket, viewer, p);
    const limit = p.add(query.per_page);
    const offset = p.add((query.page - 1) * query.per_page);
    if (query.ticket.text) {
      // A text filter's matches come from the trigram index, whose search is the cost: done once for page and totals.
      const { rows } = await pool.query<{ lines: SaleLine[] | null; totals: SalesTotal[] | null }>(
        `WITH m AS MATERIALIZED (SELECT * FROM read.sales s WHERE ${where}),
              page AS (SELECT * FROM m s ORDER BY ${SALE_ORDER} LIMIT ${limit} OFFSET ${offset})
         SELECT (SELECT json_agg(l) FROM (SELECT ${saleLineSelect("page")} ORDER BY ${SALE_ORDER}) l) AS lines,
                (SELECT json_agg(t ORDER BY t.currency) FROM (SELECT s.currency, count(*)::int AS lines, ${sums}
                   FROM m s GROUP BY s.currency) t) AS totals`,
        p.values,
      );
      const totals = rows[0]?.totals ?? [];
      res.json({
        data: rows[0]?.lines ?? [],
        meta: {
          page: query.page,
          per_page: query.per_page,
          total: totals.reduce((n, t) => n + t.lines, 0),
          totals,
        },
      } satisfies SalesListResponse);
      return;
    }
    const [lines, totals] = await Promise.all([
      // The page is picked from the lines alone, then only its lines get their names.
      pool.query<SaleLine>(
        `SELECT ${saleLineSelect(`(SELECT * FROM read.sales s WHERE ${where} ORDER BY ${SALE_ORDER} LIMIT ${limit} OFFSET ${offset})`)}
          ORDER BY ${SALE_ORDER}`,
        p.values,
      ),
      totalsOf(pool, query.ticket, viewer),
    ]);
    res.json({
      data: lines.rows,
      meta: {
        page: query.page,
        per_page: query.per_page,
        total: totals.reduce((n, t) => n + t.lines, 0),
        totals,
      },
    } satisfies SalesListResponse);
  });

  router.get("/sales/export", fresh, async (req, res) => {
    const principal = requirePrincipal(req);
    const viewer = viewerOf(principal);
    const query = parseInput(SalesExportQuery, req.query, "query");
    const count = (await totalsOf(pool, query.ticket, viewer)).reduce((n, t) => n + t.lines, 0);
    if (count === 0)
      throw new DomainError(
        400,
        "no_tickets",
        "No tickets for selected dates",
        "No sales lines match the filter",
      );
    const account = await accountOf(pool, principal.userId);
    const language = query.lang ?? account?.language ?? "en";
    if (count > SALES_EXPORT_ROW_LIMIT) {
      if (!account) throw new NotFound("No such account", "account_not_found");
      await (await jobs()).send(
        "sales-report",
        {
          report_id: randomUUID(),
          filter: query.ticket,
          requester: {
            user_id: viewer.userId,
            user_type: viewer.userType,
            agency_id: viewer.agencyId,
            company_ids: [...viewer.companyIds],
            demo: viewer.demo,
            email: account.email,
            language,
          },
        },
        { traceId: req.context.traceId },
      );
      throw new DomainError(
        413,
        "report_by_email",
        "The report will be sent to your email soon",
        `${count} lines are more than the ${SALES_EXPORT_ROW_LIMIT} an export answers at once`,
      );
    }
    const name = salesReportFileName(query.ticket.date_from, query.ticket.date_to);
    res.setHeader("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    res.setHeader("Content-Disposition", `attachment; filename="${name}"`);
    // The file streams without a length: its lines and estimated size let the client show the download's progress.
    res.setHeader("X-Sales-Lines", String(count));
    res.setHeader("X-Sales-Estimated-Bytes", String(estimatedWorkbookBytes(count)));
    try {
      await writeSalesWorkbook(
        streamSaleLines(pool, query.ticket, viewer),
        res,
        language,
        await agencyTimeZone(pool, viewer.agencyId),
      );
    } catch (error) {
      // Once the file has started, a failure can only cut the download short (the client sees a broken file).
      if (!res.headersSent) throw error;
      res.destroy(error as Error);
    }
  });

  router.get("/sales/reports/:id", async (req, res) => {
    const p = requirePrincipal(req);
    const id = ReportId.safeParse(req.params.id);
    if (!id.success) throw new NotFound("No such report", "report_not_found");
    const { rows } = await pool.query<{ file_name: string; content: Buffer }>(
      "SELECT file_name, content FROM read.sales_reports WHERE id = $1 AND requested_by = $2 AND expires_at > now()",
      [id.data, p.userId],
    );
    const report = rows[0];
    if (!report) throw new NotFound("No such report", "report_not_found");
    res.setHeader("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    res.setHeader("Content-Disposition", `attachment; filename="${report.file_name}"`);
    res.send(report.content);
  });

  router.use(analyticsRoutes(deps));

  router.get("/sales/:id", freshWithBookings, async (req, res) => {
    const principal = requirePrincipal(req);
    const id = SaleId.safeParse(req.params.id);
    if (!id.success) throw new NotFound("No such sale", "sale_not_found");
    const query = parseInput(TicketDownloadQuery, req.query, "query");
    const p = new Params();
    const scope = salesScope(viewerOf(principal), p);
    const { rows } = await pool.query<SaleLine & { held: HeldFare | null }>(
      `SELECT ${SALE_LINE_SELECT.replace("FROM read.sales s", ", b.held FROM read.sales s LEFT JOIN read.sales_bookings b ON b.locator = s.locator")}
        WHERE s.id = ${p.add(id.data)} AND ${scope}`,
      p.values,
    );
    const line = rows[0];
    if (!line) throw new NotFound("No such sale", "sale_not_found");
    const account = await accountOf(pool, line.agent_id);
    const language = query.lang ?? (await accountOf(pool, principal.userId))?.language ?? "en";
    const currency = line.currency;
    const m = (amount: number) => ({ amount, currency });
    const custom = query.custom_prices;
    const price = custom
      ? {
          fare: m(custom.fare),
          taxes: m(custom.taxes),
          fees: m(custom.fees),
          total: m(custom.fare + custom.taxes + custom.fees),
          custom: true,
        }
      : {
          fare: m(line.base_fare),
          taxes: m(line.taxes),
          fees: m(line.agency_markup + line.company_markup + line.transaction_fee),
          total: m(line.total),
          custom: false,
        };
    const held = line.held ?? {};
    const services =
      line.kind === "emd"
        ? { loyalty: null, ssrs: [] }
        : await passengerServicesOf(pool, line.locator, line.document_number);
    const receipt: Receipt = {
      kind: line.kind === "emd" ? "emd" : "ticket",
      passenger: line.passenger_name,
      ...services,
      ticket_number: line.document_number,
      locator: line.locator,
      status: line.status,
      issued_at: line.sold_at,
      time_zone: await agencyTimeZone(pool, line.agency_id),
      emd:
        line.kind === "emd"
          ? await emdOf(pool, line.locator, line.document_number, held.fare?.flights ?? [])
          : null,
      carrier: line.carrier,
      route: line.route,
      flights: held.fare?.flights ?? [],
      fare: held.fare?.fare ?? null,
      price,
      paid_by: line.paid_by,
      agency: {
        name: line.agency_name,
        company: line.company_name,
        agent: line.agent_name,
        email: account?.email ?? null,
        phone: account?.phone ?? null,
      },
    };
    const fileName = ticketFileName(line.passenger_name, line.document_number);
    if (query.format === "data") {
      res.json({ data: { ...receipt, file_name: fileName } } satisfies ReceiptDataResponse);
      return;
    }
    const pdf = await renderReceipt(receipt, language);
    res.setHeader("Content-Type", "application/pdf");
    res.setHeader("Content-Disposition", `attachment; filename="${fileName}"`);
    res.send(pdf);
  });

  return router;
}
