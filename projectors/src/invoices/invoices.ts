import { parseEvent } from "@skyward/contracts/events";
import { INVOICE_EVENT_TYPES, InvoiceEvent } from "@skyward/contracts/invoices";
import { defineProjection } from "@skyward/infra/projections/projection";

/** Every invoice and credit note, for the lists, their PDFs and the monthly statements. */
export const invoices = defineProjection({
  name: "invoices",
  version: 1,
  eventTypes: INVOICE_EVENT_TYPES,
  tables: ["invoices"],
  setup: (t) => `
    CREATE TABLE ${t.invoices} (
      invoice_id text PRIMARY KEY, number int NOT NULL, kind text NOT NULL, agency_id text NOT NULL,
      company_id text NOT NULL, sale_id text NOT NULL UNIQUE, sale_kind text NOT NULL, locator text NOT NULL,
      document_number text NOT NULL, passenger_name text NOT NULL, route text NOT NULL, amount bigint NOT NULL,
      currency text NOT NULL, sold_at timestamptz NOT NULL, issued_at timestamptz NOT NULL,
      UNIQUE (agency_id, number)
    );
    CREATE INDEX ON ${t.invoices} (company_id, sold_at);
    CREATE INDEX ON ${t.invoices} (locator);
  `,
  async apply(writer, stored, t) {
    const rows = stored.map((s) => parseEvent(InvoiceEvent, s).data);
    if (rows.length === 0) return;
    await writer.query(
      `INSERT INTO ${t.invoices} (invoice_id, number, kind, agency_id, company_id, sale_id, sale_kind, locator,
         document_number, passenger_name, route, amount, currency, sold_at, issued_at)
       SELECT invoice_id, number, kind, agency_id, company_id, sale_id, sale_kind, locator, document_number,
              passenger_name, route, amount, currency, sold_at, issued_at
         FROM jsonb_to_recordset($1::jsonb) AS x(invoice_id text, number int, kind text, agency_id text,
              company_id text, sale_id text, sale_kind text, locator text, document_number text,
              passenger_name text, route text, amount bigint, currency text, sold_at timestamptz,
              issued_at timestamptz)
       ON CONFLICT (invoice_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  },
});
