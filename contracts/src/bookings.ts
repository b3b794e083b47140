import { z } from "zod";
import { Email } from "./ids.ts";
import { Money } from "./money.ts";

/** 6 characters from an alphabet without 0/O/1/I/L. */
export const Locator = z.string().regex(/^[2-9A-HJKMNP-Z]{6}$/, "must be a 6-character booking locator");
export const TicketNumber = z.string().regex(/^\d{13}$/, "must be 13 digits");

const isoDate = z.iso.date();

export const PassengerInput = z.object({
  type: z.enum(["adult", "child", "infant"]),
  first_name: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[A-Za-z][A-Za-z' -]*$/, "must be Latin letters as in the passport"),
  last_name: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[A-Za-z][A-Za-z' -]*$/, "must be Latin letters as in the passport"),
  gender: z.enum(["M", "F"]),
  date_of_birth: isoDate,
  document: z.object({
    type: z.enum(["passport", "id_card"]),
    number: z
      .string()
      .trim()
      .min(5)
      .max(20)
      .regex(/^[A-Z0-9]+$/i, "must be letters and digits"),
    country: z.string().regex(/^[A-Z]{2}$/, "must be a 2-letter country code"),
    expires_on: isoDate,
  }),
});
export type PassengerInput = z.infer<typeof PassengerInput>;

export const ContactsInput = z.object({
  email: Email,
  phone: z.string().regex(/^\+?[0-9 ()-]{7,20}$/, "must be a phone number"),
});

/** POST /bookings */
export const BookOfferRequest = z.object({
  search_result_id: z.string().min(1).max(100),
  fare_id: z.string().min(1).max(200),
  passengers: z.array(PassengerInput).min(1).max(9),
  contacts: ContactsInput,
});
export type BookOfferRequest = z.infer<typeof BookOfferRequest>;

export const BookOfferResponse = z.object({
  locator: Locator,
  time_limit: z.string().nullable(),
  fake_booking: z.boolean(),
  provider_status: z.enum(["confirmed", "in_progress", "failed"]),
  error: z.string().nullable(),
  position: z.string().nullable(),
});

export const IssueRequest = z.object({ locator: Locator, reshop: z.boolean().optional() });
export const LocatorRequest = z.object({ locator: Locator });
export const CommentRequest = z.object({ locator: Locator, comment: z.string().trim().min(1).max(2000) });
export const ModifyRequest = z.object({
  locator: Locator,
  contacts: ContactsInput.partial().optional(),
  passengers: z
    .array(z.object({ index: z.number().int().min(0).max(8), document: PassengerInput.shape.document }))
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

export const Ticket = z.object({ number: TicketNumber, passenger: z.string(), amount: Money });
export type Ticket = z.infer<typeof Ticket>;
