import { z } from "zod";
import { AncillaryKind } from "./ancillaries.ts";
import { PaidBy } from "./cards.ts";
import { Language } from "./ids.ts";
import { UserType } from "./metadata.ts";
import { Currency, Money } from "./money.ts";
import { Fare, Flight, IsoDate, Segment } from "./offers.ts";

/**
 * Sales, the sales-report spreadsheet, the ticket download and analytics (seed-spec sections 7 and 9): one sales line
 * per document event (a ticket issued, voided, refunded or exchanged, an EMD), built by the `sales` projection.
 */

export const SaleKind = z.enum(["ticket", "emd", "void", "refund", "exchange"]);
export type SaleKind = z.infer<typeof SaleKind>;

/** A ticket line's status moves on when the ticket is voided, refunded or exchanged; the other lines keep theirs. */
export const SaleStatus = z.enum(["issued", "voided", "refunded", "exchanged"]);
export type SaleStatus = z.infer<typeof SaleStatus>;

/** `{document number}-{kind}`: one document has at most one line of each kind. */
export const SaleId = z
  .string()
  .regex(/^\d{13}-(ticket|emd|void|refund|exchange)$/, "must be a sales line id");
/**
 * A sales line's id as the sales projection writes it: a SaleId, or `{EMD number}-emd-refund` for an EMD's refund
 * (a line without a receipt of its own: GET /sales/{id} takes a SaleId).
 */
export const SaleLineId = z.string().regex(/^\d{13}-(ticket|emd|void|refund|exchange|emd-refund)$/);

/** NUL characters and lone surrogates are refused for every request by the input hygiene middleware. */
const SafeText = z.string().trim().max(100);

/** The widest date range one request may cover (a query of decades of sales is a report job, not a screen). */
export const MAX_SALES_RANGE_DAYS = 3660;

const dateRange = <T extends { date_from?: string | undefined; date_to?: string | undefined }>(
  value: T,
  ctx: z.RefinementCtx,
) => {
  if (value.date_from && value.date_to) {
    const days = (Date.parse(value.date_to) - Date.parse(value.date_from)) / 86_400_000;
    if (days < 0)
      ctx.addIssue({ code: "custom", path: ["date_to"], message: "must not be before date_from" });
    else if (days > MAX_SALES_RANGE_DAYS)
      ctx.addIssue({
        code: "custom",
        path: ["date_to"],
        message: `must be within ${MAX_SALES_RANGE_DAYS} days of date_from`,
      });
  }
};

/** Spec "ticket search filter": text matches ticket number, locator, passenger and route; dates are sale dates (UTC). */
export const TicketFilter = z
  .object({
    text: SafeText.optional().transform((s) => (s ? s : undefined)),
    date_from: IsoDate.optional().or(z.literal("").transform(() => undefined)),
    date_to: IsoDate.optional().or(z.literal("").transform(() => undefined)),
  })
  .strict()
  .superRefine(dateRange);
export type TicketFilter = z.infer<typeof TicketFilter>;

/** The largest page GET /sales answers (the spec's page size formula gives about 60 on a 1,300 px screen). */
export const MAX_SALES_PER_PAGE = 200;

/** `GET /sales/?ticket[text]=&ticket[date_from]=&ticket[date_to]=&page=&per_page=` */
export const SalesQuery = z.object({
  ticket: TicketFilter.prefault({}),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_SALES_PER_PAGE).default(25),
});
export type SalesQuery = z.infer<typeof SalesQuery>;

/** `GET /sales/export.xlsx?ticket[...]`: the same filter, every matching line. */
export const SalesExportQuery = z.object({
  ticket: TicketFilter.prefault({}),
  /** The report's language; the account's when not given. */
  lang: Language.optional(),
});
export type SalesExportQuery = z.infer<typeof SalesExportQuery>;

/**
 * The most lines the export answers at once. Above it the answer is 413 and a job builds the report and e-mails a
 * link to it (a file this size is built in about a second; larger ones would hold a request for tens of seconds).
 */
export const SALES_EXPORT_ROW_LIMIT = 10_000;

/** Spec section 9: 5 lines when the viewport is under 500 px high, else floor((height - 200) / 18) + 1. */
export function salesPageSize(viewportHeight: number): number {
  if (viewportHeight < 500) return 5;
  return Math.min(MAX_SALES_PER_PAGE, Math.floor((viewportHeight - 200) / 18) + 1);
}

/** One line of the sales list and the report. Amounts are signed: a void or refund line takes money back. */
export const SaleLine = z.object({
  id: SaleLineId,
  kind: SaleKind,
  status: SaleStatus,
  locator: z.string(),
  document_number: z.string(),
  /** For a refund, void or exchange line: the ticket it concerns. */
  original_document: z.string().nullable(),
  passenger_name: z.string(),
  carrier: z.string(),
  route: z.string(),
  /** Local time at the departure airport, with its offset. */
  departure_at: z.string().nullable(),
  sold_at: z.string(),
  sale_date: IsoDate,
  agent_id: z.string(),
  agent_name: z.string().nullable(),
  company_id: z.string(),
  company_name: z.string().nullable(),
  agency_id: z.string(),
  agency_name: z.string().nullable(),
  channel_id: z.string(),
  fake_booking: z.boolean(),
  base_fare: z.number().int(),
  taxes: z.number().int(),
  agency_markup: z.number().int(),
  company_markup: z.number().int(),
  transaction_fee: z.number().int(),
  /** Refund and exchange penalties kept by the airline. */
  penalty: z.number().int(),
  total: z.number().int(),
  currency: Currency,
  /** How the document was paid: the balance, or a card's brand and last four (a refund or void: the way back). */
  paid_by: PaidBy.nullable(),
});
export type SaleLine = z.infer<typeof SaleLine>;

/** Sums of the lines a filter matches, one per currency (money of different currencies is never added up). */
export const SalesTotal = z.object({
  currency: Currency,
  lines: z.number().int(),
  base_fare: z.number().int(),
  taxes: z.number().int(),
  agency_markup: z.number().int(),
  company_markup: z.number().int(),
  transaction_fee: z.number().int(),
  penalty: z.number().int(),
  total: z.number().int(),
});
export type SalesTotal = z.infer<typeof SalesTotal>;

export const SalesListResponse = z.object({
  data: z.array(SaleLine),
  meta: z.object({
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    totals: z.array(SalesTotal),
  }),
});
export type SalesListResponse = z.infer<typeof SalesListResponse>;

/** A price the agent shows the traveller instead of ours on the ticket receipt (minor units, booking currency). */
const MinorUnits = z.coerce.number().int().min(0).max(1_000_000_000_00);

/**
 * `GET /sales/{id}?custom_prices[fare]=&custom_prices[taxes]=&custom_prices[fees]=&format=pdf|data`: the receipt
 * with the agent's own figures when given (the total is their sum).
 */
export const TicketDownloadQuery = z.object({
  format: z.enum(["pdf", "data"]).default("pdf"),
  /** The receipt's language; the account's when not given. */
  lang: Language.optional(),
  custom_prices: z
    .object({ fare: MinorUnits, taxes: MinorUnits.default(0), fees: MinorUnits.default(0) })
    .strict()
    .optional(),
});
export type TicketDownloadQuery = z.infer<typeof TicketDownloadQuery>;

/** What a receipt shows (the PDF, and `format=data`); the route assembles it from the sales line and its booking. */
export const Receipt = z.object({
  /** A ticket's itinerary receipt, or an EMD's receipt for the service it paid. */
  kind: z.enum(["ticket", "emd"]),
  passenger: z.string(),
  /** The passenger's loyalty number and special-service requests as the airline took them (issue 23). */
  loyalty: z.object({ carrier: z.string(), number: z.string() }).nullable(),
  ssrs: z.array(z.string()),
  /** The ticket's number, or the EMD's. */
  ticket_number: z.string(),
  locator: z.string(),
  status: z.string(),
  issued_at: z.string(),
  /** The agency's zone: the issue time is written in it, and named. */
  time_zone: z.string(),
  /** An EMD's service, the segment it is for and the passenger's ticket it goes with. */
  emd: z
    .object({
      service: z.object({
        type: AncillaryKind,
        weight_kg: z.number().nullable(),
        seat: z.string().nullable(),
      }),
      ticket_number: z.string().nullable(),
      segment: Segment.nullable(),
    })
    .nullable(),
  carrier: z.string(),
  route: z.string(),
  flights: z.array(Flight),
  fare: Fare.nullable(),
  price: z.object({ fare: Money, taxes: Money, fees: Money, total: Money, custom: z.boolean() }),
  /** How the document was paid; null when not known (sold before it was recorded). */
  paid_by: PaidBy.nullable(),
  agency: z.object({
    name: z.string().nullable(),
    company: z.string().nullable(),
    agent: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
  }),
});
export type Receipt = z.infer<typeof Receipt>;
/** `GET /sales/{id}?format=data`: the receipt's data and the file name the PDF goes by. */
export const ReceiptDataResponse = z.object({ data: Receipt.extend({ file_name: z.string() }) });
export type ReceiptDataResponse = z.infer<typeof ReceiptDataResponse>;

/** The file name of a ticket receipt: passenger and ticket number, in letters any file system takes. */
export function ticketFileName(passengerName: string, ticketNumber: string): string {
  const name = passengerName
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, "_")
    .replace(/^_+|_+$/g, "");
  return `${name || "ticket"}_${ticketNumber}.pdf`;
}

/** `GET /analytics/?analytics[date_from]=&analytics[date_to]=` (both required; at most a year and a bit). */
export const MAX_ANALYTICS_RANGE_DAYS = 400;
export const AnalyticsQuery = z.object({
  analytics: z
    .object({ date_from: IsoDate, date_to: IsoDate })
    .strict()
    .superRefine((v, ctx) => {
      const days = (Date.parse(v.date_to) - Date.parse(v.date_from)) / 86_400_000;
      if (days < 0)
        ctx.addIssue({ code: "custom", path: ["date_to"], message: "must not be before date_from" });
      else if (days > MAX_ANALYTICS_RANGE_DAYS)
        ctx.addIssue({
          code: "custom",
          path: ["date_to"],
          message: `must be within ${MAX_ANALYTICS_RANGE_DAYS} days of date_from`,
        });
    }),
});
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

/** One period's figures in one currency. */
export const AnalyticsFigures = z.object({
  currency: Currency,
  /** Signed sum of every line: what was sold less what went back. */
  sales: z.number().int(),
  /** Markups and fees earned (agency + company markup + transaction fee), signed likewise. */
  revenue: z.number().int(),
  tickets_issued: z.number().int(),
  tickets_voided: z.number().int(),
  tickets_refunded: z.number().int(),
  tickets_exchanged: z.number().int(),
  emds_issued: z.number().int(),
  /** Sales of issued tickets over their count (0 when none). */
  average_ticket: z.number().int(),
});
export type AnalyticsFigures = z.infer<typeof AnalyticsFigures>;

export const AnalyticsDay = z.object({
  day: IsoDate,
  currency: Currency,
  sales: z.number().int(),
  revenue: z.number().int(),
  tickets: z.number().int(),
});

export const AnalyticsRank = z.object({
  key: z.string(),
  name: z.string(),
  currency: Currency,
  sales: z.number().int(),
  tickets: z.number().int(),
});
export type AnalyticsRank = z.infer<typeof AnalyticsRank>;

export const AnalyticsResponse = z.object({
  data: z.object({
    period: z.object({ date_from: IsoDate, date_to: IsoDate }),
    /** The period of the same length just before. */
    previous_period: z.object({ date_from: IsoDate, date_to: IsoDate }),
    current: z.array(AnalyticsFigures),
    previous: z.array(AnalyticsFigures),
    by_day: z.array(AnalyticsDay),
    top_routes: z.array(AnalyticsRank),
    top_carriers: z.array(AnalyticsRank),
    top_agents: z.array(AnalyticsRank),
    top_companies: z.array(AnalyticsRank),
  }),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;

/** Who asked for an e-mailed report: enough to scope the lines as the request would have been. */
export const SalesReportRequester = z.object({
  user_id: z.string(),
  user_type: UserType,
  agency_id: z.string().nullable(),
  company_ids: z.array(z.string()),
  demo: z.boolean(),
  email: z.string(),
  language: Language,
});
export type SalesReportRequester = z.infer<typeof SalesReportRequester>;

/** The `sales-report` job: builds the spreadsheet a 413 promised and e-mails its link. */
export const SalesReportJob = z.object({
  report_id: z.uuid(),
  filter: TicketFilter,
  requester: SalesReportRequester,
});
export type SalesReportJob = z.infer<typeof SalesReportJob>;
