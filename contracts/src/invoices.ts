import { z } from "zod";

/**
 * Invoices and credit notes (issue 24, item 4). Each agency's documents form one stream, `invoices-{agency_id}`: a
 * document's number is its position in that stream, so the sequence has no gap and no number twice, however many
 * documents race (an append at a version another took is decided again on the new state). One invoice per sale
 * document (ticket, EMD, exchange) and one credit note per void and refund, each naming its line of `/sales`.
 */
export const invoiceStream = (agencyId: string) => `invoices-${agencyId}`;

export const InvoiceKind = z.enum(["invoice", "credit_note"]);
export type InvoiceKind = z.infer<typeof InvoiceKind>;

export const InvoiceIssued = z.object({
  invoice_id: z.string(),
  /** 1, 2, 3... per agency, for invoices and credit notes alike. */
  number: z.number().int().min(1),
  kind: InvoiceKind,
  agency_id: z.string(),
  company_id: z.string(),
  /** The `/sales` line it documents (read.sales id). */
  sale_id: z.string(),
  sale_kind: z.string(),
  locator: z.string(),
  document_number: z.string(),
  passenger_name: z.string(),
  route: z.string(),
  /** The sale line's total: what the company pays (an invoice) or gets back (a credit note), minor units. */
  amount: z.number().int(),
  currency: z.string().length(3),
  /** When the sale happened (the line's sold_at); issued_at is when the document was numbered. */
  sold_at: z.string(),
  issued_at: z.string(),
});
export type InvoiceIssued = z.infer<typeof InvoiceIssued>;

export const InvoiceEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("InvoiceIssued"), data: InvoiceIssued }),
]);
export type InvoiceEvent = z.infer<typeof InvoiceEvent>;
export const INVOICE_EVENT_TYPES = InvoiceEvent.options.map((o) => o.shape.type.value);

/** A month as `YYYY-MM`. */
export const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month such as 2026-11");

export const InvoiceListQuery = z.object({
  month: Month,
  company_id: z.string().min(1).max(200).optional(),
});

export const StatementQuery = z.object({
  format: z.enum(["json", "pdf", "xlsx"]).default("json"),
  lang: z.enum(["en", "ua", "pl", "fr", "es"]).optional(),
});

/** One document as the lists and the statement show it; `number_text` is how it is printed ("INV-000012"). */
export const InvoiceDocument = InvoiceIssued.omit({ agency_id: true }).extend({ number_text: z.string() });
export type InvoiceDocument = z.infer<typeof InvoiceDocument>;
export const InvoiceListResponse = z.object({ data: z.array(InvoiceDocument) });

export const documentNumberText = (kind: InvoiceKind, number: number) =>
  `${kind === "invoice" ? "INV" : "CN"}-${String(number).padStart(6, "0")}`;

/** One balance movement of a statement, with the documents of its booking. */
export const StatementMovement = z.object({
  at: z.string(),
  kind: z.string(),
  amount: z.number().int(),
  balance_after: z.number().int(),
  locator: z.string().nullable(),
  reason: z.string().nullable(),
  documents: z.array(z.string()),
});
export type StatementMovement = z.infer<typeof StatementMovement>;

export const Statement = z.object({
  company_id: z.string(),
  company_name: z.string(),
  month: Month,
  currency: z.string(),
  opening_balance: z.number().int(),
  closing_balance: z.number().int(),
  charged: z.number().int(),
  credited: z.number().int(),
  movements: z.array(StatementMovement),
});
export type Statement = z.infer<typeof Statement>;
export const StatementResponse = z.object({ data: Statement });
