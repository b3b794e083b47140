import { randomUUID } from "node:crypto";
import {
  type InvoiceEvent,
  InvoiceEvent as InvoiceEventSchema,
  type InvoiceIssued,
  invoiceStream,
} from "@skyward/contracts/invoices";
import { decidedAppends, runCommand } from "@skyward/infra/event-store/command";
import type { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import type pg from "pg";

/**
 * Numbers the sale documents (issue 24, item 4): every line of `/sales` gets an invoice (ticket, EMD, exchange) or
 * a credit note (void, refund) on its agency's `invoices-{agency_id}` stream, whose position is the number. Run by
 * the booking sweep, and safe to run anywhere at once: a document is numbered once (by its sale line), and two
 * runs racing for the same number conflict on the stream's version, the loser deciding again on the winner's state.
 */

export interface InvoiceState {
  count: number;
  sales: Set<string>;
}
const noInvoices: InvoiceState = { count: 0, sales: new Set() };

export function evolveInvoices(state: InvoiceState, stored: StoredEvent): InvoiceState {
  const event = InvoiceEventSchema.parse({ type: stored.type, data: stored.data });
  return { count: state.count + 1, sales: new Set([...state.sales, event.data.sale_id]) };
}

export interface SaleToNumber {
  id: string;
  kind: string;
  locator: string;
  document_number: string;
  passenger_name: string;
  route: string;
  agency_id: string;
  company_id: string;
  total: number;
  currency: string;
  sold_at: Date;
}

const CREDITS = new Set(["void", "refund"]);

/** The documents for the sales lines not numbered yet, numbered on from the stream's count, oldest sale first. */
export function decideInvoices(
  lines: readonly SaleToNumber[],
  state: InvoiceState,
  ids: () => string,
  now: Date,
): InvoiceEvent[] {
  const fresh = lines.filter((line) => !state.sales.has(line.id));
  return fresh.map((line, i) => {
    const data: InvoiceIssued = {
      invoice_id: ids(),
      number: state.count + i + 1,
      kind: CREDITS.has(line.kind) ? "credit_note" : "invoice",
      agency_id: line.agency_id,
      company_id: line.company_id,
      sale_id: line.id,
      sale_kind: line.kind,
      locator: line.locator,
      document_number: line.document_number,
      passenger_name: line.passenger_name,
      route: line.route,
      amount: line.total,
      currency: line.currency,
      sold_at: line.sold_at.toISOString(),
      issued_at: now.toISOString(),
    };
    return { type: "InvoiceIssued", data };
  });
}

/** Numbers every sales line still without a document (a demo user's fake sales get none). Returns how many. */
export async function numberSaleDocuments(
  deps: { pool: pg.Pool; store: EventStore; now: () => Date },
  traceId: string,
): Promise<number> {
  const { rows } = await deps.pool.query<SaleToNumber>(
    `SELECT s.id, s.kind, s.locator, s.document_number, s.passenger_name, s.route, s.agency_id, s.company_id,
            s.total::int AS total, s.currency, s.sold_at
       FROM read.sales s
      WHERE NOT s.fake_booking AND NOT EXISTS (SELECT 1 FROM read.invoices i WHERE i.sale_id = s.id)
      ORDER BY s.sold_at, s.id LIMIT 500`,
  );
  const byAgency = new Map<string, SaleToNumber[]>();
  for (const row of rows) byAgency.set(row.agency_id, [...(byAgency.get(row.agency_id) ?? []), row]);
  let numbered = 0;
  for (const [agencyId, lines] of byAgency) {
    const stream = invoiceStream(agencyId);
    const { result } = await runCommand(deps.store, async (cmd) => {
      const { state, version } = await cmd.load(stream, evolveInvoices, noInvoices, { trusted: true });
      const events = decideInvoices(lines, state, randomUUID, deps.now());
      const metadata = { ...systemMetadata(traceId), scope: { agency_id: agencyId, company_id: null } };
      return {
        appends: decidedAppends(stream, version, events, metadata),
        result: events.length,
      };
    });
    numbered += result;
  }
  return numbered;
}
