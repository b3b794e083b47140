import { z } from "zod";
import { SupplierAncillary } from "./ancillaries.ts";
import { Email } from "./ids.ts";
import { Money } from "./money.ts";
import {
  Flight,
  Instant,
  IsoDate,
  MAX_SLICES,
  PassengerType,
  SliceFareRule,
  SupplierFare,
  SupplierPrice,
} from "./offers.ts";
import { PassengerServices } from "./passenger-services.ts";

/** How a ticketing channel signs in to its supplier. */
export const SupplierCredentials = z.object({
  login: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(200),
  office_id: z.string().trim().max(20).optional(),
});
export type SupplierCredentials = z.infer<typeof SupplierCredentials>;

export const CredentialsCheck = z.object({ active: z.boolean(), message: z.string() });
export type CredentialsCheck = z.infer<typeof CredentialsCheck>;

/** Names as printed in the passport's machine-readable zone: Latin letters, spaces, hyphens, apostrophes. */
export const PassengerName = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .regex(/^[A-Za-z][A-Za-z' -]*$/, "must use Latin letters as in the travel document");

export const CountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 country code");

export const TravelDocument = z.object({
  type: z.enum(["passport", "national_id"]),
  number: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{5,20}$/, "must be 5-20 letters or digits"),
  issuing_country: CountryCode,
  nationality: CountryCode,
  expires_on: IsoDate,
});
export type TravelDocument = z.infer<typeof TravelDocument>;

export const BookingPassenger = z.object({
  type: PassengerType,
  gender: z.enum(["M", "F"]),
  first_name: PassengerName,
  last_name: PassengerName,
  date_of_birth: IsoDate,
  document: TravelDocument,
});
export type BookingPassenger = z.infer<typeof BookingPassenger>;

export const BookingContacts = z.object({
  email: Email,
  phone: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, "must be an international number such as +380441234567"),
});
export type BookingContacts = z.infer<typeof BookingContacts>;

/** What the supplier needs to hold seats on a fare. */
export const SupplierBookRequest = z.object({
  fare_id: z.string().min(1),
  passengers: z.array(BookingPassenger).min(1).max(18),
  contacts: BookingContacts,
  /** Loyalty numbers and SSRs per passenger (issue 23): the airline refuses a number it cannot credit. */
  services: z.array(PassengerServices).optional(),
});
export type SupplierBookRequest = z.infer<typeof SupplierBookRequest>;

export const ProviderStatus = z.enum(["confirmed", "in_progress", "failed"]);
export type ProviderStatus = z.infer<typeof ProviderStatus>;

/** The booking's state at the supplier, not our booking lifecycle (that lives in the event store). */
export const SupplierBookingStatus = z.enum([
  "held",
  "issued",
  "voided",
  "cancelled",
  "refunded",
  "exchanged",
]);
export type SupplierBookingStatus = z.infer<typeof SupplierBookingStatus>;

/** A 13-digit ticket or EMD number: the carrier's 3-digit accounting code and a 10-digit serial. */
export const TicketNumber = z.string().regex(/^\d{13}$/, "must be 13 digits");
export type TicketNumber = z.infer<typeof TicketNumber>;

export const Ticket = z.object({
  ticket_number: TicketNumber,
  passenger_index: z.number().int().min(0),
  passenger_name: z.string(),
  validating_carrier: z.string(),
  base_fare: Money,
  taxes: Money,
  total: Money,
});
export type Ticket = z.infer<typeof Ticket>;

/** An electronic miscellaneous document: an ancillary bought for one passenger on one segment. */
export const Emd = z.object({
  emd_number: TicketNumber,
  passenger_index: z.number().int().min(0),
  ancillary_id: z.string(),
  segment_id: z.string(),
  seat: z.string().nullable().default(null),
  price: Money,
});
export type Emd = z.infer<typeof Emd>;

/** One ancillary asked for: a catalogue item for a passenger, and for a seat item the seat ("12A"). */
export const AncillarySelection = z.object({
  ancillary_id: z.string().min(1),
  passenger_index: z.number().int().min(0),
  seat: z.string().nullable().default(null),
});
export type AncillarySelection = z.infer<typeof AncillarySelection>;

/**
 * An ancillary on the supplier's booking. Its EMD number comes with issue (or at once after issue); `emd_pending`
 * while the airline issues it asynchronously; `refunded` once its EMD was refunded.
 */
export const BookedAncillary = AncillarySelection.extend({
  item: SupplierAncillary,
  emd_number: TicketNumber.nullable(),
  emd_pending: z.boolean().default(false),
  refunded: z.boolean().default(false),
  /** When the order was taken, for an asynchronous EMD's settling time. */
  ordered_at: z.string().nullable().default(null),
});
export type BookedAncillary = z.infer<typeof BookedAncillary>;

/**
 * Everything the supplier said about a booking. The command side keeps the latest snapshot in its events and passes
 * it back on every later call, so an adapter can act on it even after the supplier forgot it (see the sandbox).
 */
export const SupplierBooking = z.object({
  supplier: z.string(),
  supplier_locator: z.string().min(5).max(8),
  status: SupplierBookingStatus,
  provider_status: ProviderStatus,
  error: z.string().nullable(),
  created_at: Instant,
  time_limit: Instant,
  fare_id: z.string(),
  flights: z.array(Flight).min(1).max(MAX_SLICES),
  fare: SupplierFare,
  passengers: z.array(BookingPassenger).min(1),
  contacts: BookingContacts,
  /** The current supplier price of the tickets (it changes on a price change or a reissue). */
  price: SupplierPrice,
  ancillaries: z.array(BookedAncillary),
  tickets: z.array(Ticket),
  emds: z.array(Emd),
  issued_at: Instant.nullable(),
  /** End of the void window; null when the carrier allows no void (low-cost) or nothing is issued. */
  void_until: Instant.nullable(),
  /** The airline's schedule changes the agent answered (accepted, exchanged, refunded): none is notified again. */
  answered_schedule_changes: z.array(z.string()).optional(),
});
export type SupplierBooking = z.infer<typeof SupplierBooking>;

/**
 * A change the airline made to an issued booking's flights: a minor time change, a major one (over 2 hours, or a
 * changed connection), or a cancelled flight with the flight the airline moved the passengers to.
 */
export const ScheduleChangeKind = z.enum(["minor", "major", "cancelled"]);
export type ScheduleChangeKind = z.infer<typeof ScheduleChangeKind>;
export const ScheduleChange = z.object({
  change_id: z.string().min(1),
  kind: ScheduleChangeKind,
  old_flights: z.array(Flight).min(1).max(2),
  new_flights: z.array(Flight).min(1).max(2),
  /** Other flights the airline offers instead (a major change, a cancellation): an exchange without fare difference or fee. */
  alternatives: z.array(z.object({ option_id: z.string().min(1), flights: z.array(Flight).min(1).max(2) })),
  notified_at: Instant,
});
export type ScheduleChange = z.infer<typeof ScheduleChange>;

/**
 * What the agent answers a schedule change: accept the new flights, or (major, cancelled) an involuntary exchange to
 * one of the airline's alternatives, or a refund in full.
 */
export const ScheduleChangeChoice = z.enum(["accept", "exchange", "refund"]);
export type ScheduleChangeChoice = z.infer<typeof ScheduleChangeChoice>;
/** The airline's booking after the answer; `refunded` what an involuntary refund gave back (no penalty). */
export const ScheduleChangeResult = z.object({
  booking: SupplierBooking,
  change_id: z.string(),
  choice: ScheduleChangeChoice,
  refunded: Money.nullable(),
  answered_at: Instant,
});
export type ScheduleChangeResult = z.infer<typeof ScheduleChangeResult>;

export const RepriceResult = z.object({
  price: SupplierPrice,
  changed: z.boolean(),
  previous_total: Money,
});
export type RepriceResult = z.infer<typeof RepriceResult>;

/** Issue either issues, or reports the supplier's new price for the agent to accept (reshop) or refuse. */
export const IssueResult = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("issued"), booking: SupplierBooking }),
  z.object({
    outcome: z.literal("price_changed"),
    previous_total: Money,
    price: SupplierPrice,
  }),
]);
export type IssueResult = z.infer<typeof IssueResult>;

export const VoidResult = z.object({ booking: SupplierBooking, voided_at: Instant });
export type VoidResult = z.infer<typeof VoidResult>;

export const CancelResult = z.object({ booking: SupplierBooking, cancelled_at: Instant });
export type CancelResult = z.infer<typeof CancelResult>;

export const AncillaryOrderResult = z.object({
  booking: SupplierBooking,
  added: z.array(BookedAncillary),
  total: Money,
});
export type AncillaryOrderResult = z.infer<typeof AncillaryOrderResult>;

export const EmdRefundResult = z.object({
  booking: SupplierBooking,
  emd_number: TicketNumber,
  emd_refunded: Money,
  refunded_at: Instant,
});
export type EmdRefundResult = z.infer<typeof EmdRefundResult>;

export const RefundQuoteLine = z.object({
  passenger_index: z.number().int().min(0),
  ticket_number: TicketNumber,
  fare_refund: Money,
  taxes_refund: Money,
  penalty: Money,
  refundable: Money,
});
export type RefundQuoteLine = z.infer<typeof RefundQuoteLine>;

/**
 * One slice's part of a refund quote, over the quoted tickets: the base fare its slice carries, what of it comes back
 * under the slice's own rule (nothing when its fare is not refundable), and the slice's penalty.
 */
export const RefundQuoteSlice = z.object({
  slice: z.number().int().min(0),
  origin: z.string(),
  destination: z.string(),
  brand_name: z.string(),
  /** Whether the slice's fare is refundable now (before or after departure, as the journey stands). */
  refundable: z.boolean(),
  fare_part: Money,
  fare_refund: Money,
  penalty: Money,
});
export type RefundQuoteSlice = z.infer<typeof RefundQuoteSlice>;

/** What a refund would return now; confirm it before expires_at. */
export const RefundQuote = z.object({
  quote_id: z.string(),
  supplier_locator: z.string(),
  lines: z.array(RefundQuoteLine).min(1),
  penalty: Money,
  refundable: Money,
  /** Per slice of a multi-city journey, its rule's part of the quote; empty for a fare of one rule throughout. */
  slices: z.array(RefundQuoteSlice),
  created_at: Instant,
  expires_at: Instant,
});
export type RefundQuote = z.infer<typeof RefundQuote>;

export const RefundResult = z.object({ booking: SupplierBooking, refunded: Money, refunded_at: Instant });
export type RefundResult = z.infer<typeof RefundResult>;

/**
 * A flights-change request: the same route on other dates; with `slice`, that one slice on `departure_date` (another
 * date or another flight), every other slice on the flights booked.
 */
export const ReshopRequest = z.object({
  departure_date: IsoDate,
  return_date: IsoDate.optional(),
  slice: z.number().int().min(0).optional(),
});
export type ReshopRequest = z.infer<typeof ReshopRequest>;

/** An exchange offer: the new itinerary and fare, and what the agent pays on top of the old tickets. */
export const ReshopOffer = z.object({
  reshop_offer_id: z.string(),
  flights: z.array(Flight).min(1).max(MAX_SLICES),
  fare: SupplierFare,
  fare_difference: Money,
  change_fee: Money,
  total_due: Money,
});
export type ReshopOffer = z.infer<typeof ReshopOffer>;

export const ReshopResult = z.object({
  offers: z.array(ReshopOffer),
  expires_at: Instant,
  /** The booked rule of the slice a one-slice exchange changes (its change fee is charged); null for the journey. */
  slice_rule: SliceFareRule.nullable(),
});
export type ReshopResult = z.infer<typeof ReshopResult>;

export const ReissueResult = z.object({ booking: SupplierBooking, charged: Money, reissued_at: Instant });
export type ReissueResult = z.infer<typeof ReissueResult>;
