import { z } from "zod";
import { Money } from "./money.ts";
import { BookingContacts, BookingPassenger, Ticket, TravelDocument } from "./supplier.ts";

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
