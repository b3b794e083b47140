import { z } from "zod";
import { Money } from "./money.ts";
import { Fare, Flight, PriceDetail } from "./offers.ts";
import { BookingContacts, BookingPassenger, ProviderStatus, Ticket, TravelDocument } from "./supplier.ts";

/** 6 characters from an alphabet without 0/O/1/I/L. */
export const Locator = z.string().regex(/^[2-9A-HJKMNP-Z]{6}$/, "must be a 6-character booking locator");
/** POST /bookings */
export const BookOfferRequest = z.object({
  search_result_id: z.string().min(1).max(100),
  fare_id: z.string().min(1).max(200),
  passengers: z.array(BookingPassenger).min(1).max(9),
  contacts: BookingContacts,
});
export type BookOfferRequest = z.infer<typeof BookOfferRequest>;

export const BookOfferResponse = z.object({
  locator: Locator,
  time_limit: z.string().nullable(),
  fake_booking: z.boolean(),
  provider_status: z.enum(["confirmed", "in_progress", "failed"]),
  error: z.string().nullable(),
  price: Money,
  /** Instant-payment fares are issued by the booking call itself: status "issued" with the tickets. */
  instant_payment: z.boolean(),
  status: z.enum(["held", "issued"]),
  tickets: z.array(Ticket).optional(),
  position: z.string().nullable(),
});
export type BookOfferResponse = z.infer<typeof BookOfferResponse>;

export const IssueRequest = z.object({ locator: Locator, reshop: z.boolean().optional() });
export const LocatorRequest = z.object({ locator: Locator });
export const CommentRequest = z.object({ locator: Locator, comment: z.string().trim().min(1).max(2000) });
export const ModifyRequest = z.object({
  locator: Locator,
  contacts: BookingContacts.partial().optional(),
  passengers: z
    .array(z.object({ index: z.number().int().min(0).max(8), document: TravelDocument }))
    .max(9)
    .optional(),
});

export const BookingStatus = z.enum([
  "held",
  "ticketing",
  "issued",
  "voided",
  "cancelled",
  "expired",
  "failed",
]);
export type BookingStatus = z.infer<typeof BookingStatus>;
/** Lists the booking page offers; issued and exchanged both show under "issued". */
export const BookingList = z.enum(["new", "issued", "cancelled", "refunded"]);
export type BookingList = z.infer<typeof BookingList>;

export const BookingListQuery = z.object({
  list: BookingList.default("new"),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});

/** A row of the booking lists (`GET /bookings`). */
export const BookingRow = z.object({
  locator: Locator,
  status: BookingStatus,
  list: BookingList,
  fake_booking: z.boolean(),
  provider_status: ProviderStatus,
  route: z.string(),
  carrier: z.string(),
  /** Local time at the departure airport, with its offset. */
  departure_at: z.string().nullable(),
  passenger_names: z.string(),
  ticket_numbers: z.string(),
  price: Money,
  time_limit: z.string().nullable(),
  created_at: z.string(),
  company_id: z.string(),
  agent_id: z.string(),
});
export type BookingRow = z.infer<typeof BookingRow>;

export const BookingListPage = z.object({
  data: z.array(BookingRow),
  meta: z.object({
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    list: BookingList,
  }),
});
export type BookingListPage = z.infer<typeof BookingListPage>;

export const BookingComment = z.object({ text: z.string(), at: z.string(), by: z.string().nullable() });
export type BookingComment = z.infer<typeof BookingComment>;

/** The booking page (`GET /bookings/{locator}`). */
export const BookingDetails = z.object({
  locator: Locator,
  status: BookingStatus,
  list: BookingList,
  cancel_before: z.string().nullable(),
  price: Money,
  price_detail: PriceDetail,
  /** The airline's new price after a refused issue, waiting for the agent to accept it. */
  pending_price: z.object({ price: Money, price_detail: PriceDetail }).nullable(),
  time_limit: z.string().nullable(),
  provider_status: ProviderStatus,
  fake_booking: z.boolean(),
  tickets_present: z.boolean(),
  tickets: z.array(Ticket),
  async_emd_issue: z.boolean(),
  error: z.string().nullable(),
  fare: z.object({
    fare_id: z.string(),
    carrier: z.string(),
    route: z.string(),
    departure_at: z.string(),
    fare: Fare,
    flights: z.array(Flight),
  }),
  passengers: z.array(BookingPassenger),
  contacts: BookingContacts,
  comments: z.array(BookingComment),
  issued_at: z.string().nullable(),
  void_until: z.string().nullable(),
  /** A supplier operation (issue, void, cancel) in flight: the booking page shows it as being completed. */
  operation: z.object({ kind: z.enum(["issue", "void", "cancel"]), started_at: z.string() }).nullable(),
  created_at: z.string(),
  company_id: z.string(),
  agent_id: z.string(),
});
export type BookingDetails = z.infer<typeof BookingDetails>;
