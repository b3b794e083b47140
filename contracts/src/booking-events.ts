import { z } from "zod";
import { AncillaryLine } from "./ancillaries.ts";
import { PaidBy } from "./cards.ts";
import { upcastEvent } from "./event-versions.ts";
import { Money } from "./money.ts";
import { Fare, FareLoss, Flight, PriceDetail, SupplierPrice } from "./offers.ts";
import { PassengerServices } from "./passenger-services.ts";
import {
  BookingContacts,
  BookingPassenger,
  ProviderStatus,
  RefundQuote,
  ScheduleChangeChoice,
  ScheduleChangeKind,
  SupplierBooking,
  Ticket,
  TravelDocument,
} from "./supplier.ts";

/**
 * The events of a booking stream (`booking-{locator}`), one discriminated union on `type`. Supplier operations
 * (issue, void, cancel, refund, exchange; later EMD) each start with an event carrying an operation id and end with
 * exactly one outcome event naming the same id: while one is open, the booking is "being completed".
 */

export const SupplierOperationKind = z.enum([
  "issue",
  "void",
  "cancel",
  "refund",
  "exchange",
  "ancillaries",
  "emd_refund",
  "schedule_change",
]);
export type SupplierOperationKind = z.infer<typeof SupplierOperationKind>;

/**
 * The schemas of the booking events, with the large parts (fares, flights, prices, the supplier's booking, passengers,
 * tickets) either checked in depth or taken as they are. The deciders build those parts from values already checked
 * (a request, a supplier's answer) and their tests check every event in depth; the store's readers check the type
 * and the small fields, which is what a fold branches on (a BookingHeld checked in depth costs about a millisecond).
 */
function bookingEvents(deep: boolean) {
  const part = <T extends z.ZodType>(schema: T) => (deep ? schema : z.custom<z.infer<T>>(() => true));
  const h = {
    Fare: part(Fare),
    SupplierBooking: part(SupplierBooking),
    PriceDetail: part(PriceDetail),
    SupplierPrice: part(SupplierPrice),
    Flights: part(z.array(Flight)),
    Passengers: part(z.array(BookingPassenger)),
    Tickets: part(z.array(Ticket)),
    RefundQuote: part(RefundQuote),
  };
  /** What was booked, as offered and priced: kept whole so the booking page never needs the search again. */
  const BookedFare = z.object({
    fare_id: z.string(),
    carrier: z.string(),
    route: z.string(),
    departure_at: z.string(),
    fare: h.Fare,
    flights: h.Flights,
  });

  const BookingHeld = z.object({
    locator: z.string(),
    company_id: z.string(),
    agency_id: z.string(),
    agent_id: z.string(),
    channel_id: z.string(),
    /** The supplier's latest word on the booking; null for a fake (demo) booking, which never reaches one. */
    supplier_booking: h.SupplierBooking.nullable(),
    fare: BookedFare,
    passengers: h.Passengers,
    contacts: BookingContacts,
    price: Money,
    price_detail: h.PriceDetail,
    time_limit: z.string().nullable(),
    fake_booking: z.boolean(),
    provider_status: ProviderStatus,
    instant_payment: z.boolean(),
    held_at: z.string(),
  });

  /** Events written before operations had ids read as `legacy` (upcast: event-versions.ts; the default is a guard). */
  const OperationId = z.string().default("legacy");

  const ProviderSettled = z.object({
    supplier_booking: h.SupplierBooking,
    error: z.string().nullable().optional(),
  });

  const TicketingStarted = z.object({
    operation_id: OperationId,
    at: z.string(),
    /** What the company balance was charged in the same append; null when nothing moves (fake, card). */
    charged: Money.nullable(),
    /** Version 3: how the tickets are paid (event-versions.ts reads the older versions). */
    paid_by: PaidBy.nullable(),
  });
  const TicketsIssued = z.object({
    operation_id: OperationId,
    tickets: h.Tickets,
    issued_at: z.string(),
    void_until: z.string().nullable(),
    supplier_booking: h.SupplierBooking.nullable(),
  });
  const OperationFailed = z.object({
    operation_id: OperationId,
    /** The supplier's error code (`supplier_unavailable`, `void_window_closed`...) or `price_changed`. */
    code: z.string().default("supplier_error"),
    reason: z.string(),
    /** What went back to the company balance in the same append. */
    credited: Money.nullable().default(null),
  });
  const VoidStarted = z.object({ operation_id: z.string(), at: z.string() });
  const BookingVoided = z.object({
    operation_id: OperationId,
    at: z.string(),
    credited: Money.nullable(),
  });
  const CancelStarted = z.object({ operation_id: z.string(), at: z.string() });
  const BookingCancelled = z.object({
    operation_id: z.string().nullable().default(null),
    at: z.string(),
  });

  const BookingPriceChanged = z.object({
    old_price: Money,
    new_price: Money,
    new_price_detail: h.PriceDetail,
    supplier_price: h.SupplierPrice.nullable(),
  });
  const BookingRepriced = z.object({
    price: Money,
    price_detail: h.PriceDetail,
    supplier_booking: h.SupplierBooking.nullable(),
  });
  const BookingCommented = z.object({ comment: z.string(), at: z.string(), by: z.string().nullable() });
  const BookingModified = z.object({
    contacts: BookingContacts.partial().optional(),
    passengers: z.array(z.object({ index: z.number().int().min(0), document: TravelDocument })).optional(),
  });

  /**
   * Loyalty numbers and special-service requests of passengers (issue 23), as the airline took them with the booking
   * or as changed since: each named passenger's whole set (a null loyalty: none).
   */
  const PassengerServicesRequested = z.object({ passengers: z.array(PassengerServices).min(1) });

  /** One ticket's refund as quoted: the airline's part, and our markups and fees the agency keeps. */
  const RefundLine = z.object({
    passenger_index: z.number().int().min(0),
    ticket_number: z.string(),
    fare_refund: Money,
    taxes_refund: Money,
    penalty: Money,
    /** Agency and company markups and the transaction fee of the ticket: kept by the agency's policy. */
    non_refundable: Money,
    /** What goes back to the company balance for this ticket. */
    refundable: Money,
  });
  const RefundQuoted = z.object({
    quote_id: z.string(),
    lines: z.array(RefundLine).min(1),
    penalty: Money,
    non_refundable: Money,
    refundable: Money,
    created_at: z.string(),
    expires_at: z.string(),
    /** The airline's own quote, confirmed as it is; null for a fake booking, quoted from the fare rules. */
    supplier_quote: h.RefundQuote.nullable(),
  });
  const RefundStarted = z.object({ operation_id: z.string(), at: z.string(), quote_id: z.string() });
  const TicketsRefunded = z.object({
    operation_id: OperationId,
    at: z.string(),
    quote_id: z.string(),
    lines: z.array(RefundLine).min(1),
    /** What went back to the company balance in the same append; null when nothing moves (fake, card). */
    credited: Money.nullable(),
    supplier_booking: h.SupplierBooking.nullable(),
  });

  /**
   * A flights-change request: the journey the agent wants instead (same route, other dates); with `slice`, only that
   * slice changes (to `departure_date`), the others keep their flights.
   */
  const FlightsChangeRequested = z.object({
    request_id: z.string(),
    departure_date: z.string(),
    return_date: z.string().nullable(),
    slice: z.number().int().min(0).nullable(),
    at: z.string(),
  });
  /** An exchange offer as priced for the agent: the airline's charges plus our markups on the difference. */
  const ReshopPricedOffer = z.object({
    reshop_offer_id: z.string(),
    departure_at: z.string(),
    brand_name: z.string(),
    /** The new tickets' price with our markups. */
    new_price: Money,
    fare_difference: Money,
    change_fee: Money,
    /** Our markups and fees on the new fare above those already paid. */
    markup: Money,
    /** What the old tickets are worth above the new fare: kept by the airline, shown so the agent knows. */
    residual_value: Money,
    total_due: Money,
    // Optional: offers priced before they were kept lack them.
    /** The new flights: carriers, flight numbers, times. */
    flights: h.Flights.optional(),
    /** What the new fare's rules give up against the old one's (no refund, a higher change fee...). */
    losses: z.array(FareLoss).optional(),
  });
  const ReshopOffersPriced = z.object({
    request_id: z.string(),
    offers: z.array(ReshopPricedOffer),
    expires_at: z.string(),
    at: z.string(),
  });
  const ExchangeStarted = z.object({
    operation_id: z.string(),
    at: z.string(),
    reshop_offer_id: z.string(),
    /** What the company balance was charged in the same append; null when nothing moves. */
    charged: Money.nullable(),
    /** Version 2: how the exchange is paid (event-versions.ts reads version 1). */
    paid_by: PaidBy.nullable(),
  });
  const TicketsExchanged = z.object({
    operation_id: OperationId,
    reshop_offer_id: z.string(),
    old_tickets: z.array(z.string()),
    tickets: h.Tickets,
    fare: BookedFare,
    price: Money,
    price_detail: h.PriceDetail,
    exchanged_at: z.string(),
    supplier_booking: h.SupplierBooking.nullable(),
  });

  /**
   * The airline changed the issued booking's flights (learnt from its notice or by asking it): old and new flights,
   * and until when the agent may answer. Recorded once per change id.
   */
  const ScheduleChanged = z.object({
    change_id: z.string(),
    kind: ScheduleChangeKind,
    old_flights: h.Flights,
    new_flights: h.Flights,
    /** The airline's other flights for an involuntary exchange (no fare difference, no fee). */
    alternatives: z.array(z.object({ option_id: z.string(), flights: h.Flights })),
    notified_at: z.string(),
    respond_by: z.string(),
    /** What the agent may answer: accept, and for a major change or a cancellation an involuntary refund. */
    choices: z.array(ScheduleChangeChoice).min(1),
    at: z.string(),
  });
  /** The claim of the agent's answer to a schedule change (an operation): accept, or a refund in full. */
  const ScheduleChangeAnswerStarted = z.object({
    operation_id: z.string(),
    at: z.string(),
    change_id: z.string(),
    choice: ScheduleChangeChoice,
    /** The alternative an exchange takes; null for accept and refund. */
    option_id: z.string().nullable(),
  });
  /** The new flights accepted: the booking flies them from now on (its tickets stay). */
  const ScheduleChangeAccepted = z.object({
    operation_id: z.string(),
    at: z.string(),
    change_id: z.string(),
    flights: h.Flights,
    supplier_booking: h.SupplierBooking.nullable(),
  });

  /**
   * Ancillaries asked for (an operation): on a held booking they are added and charged with the issue; on an issued
   * one `charged` is what the balance pays for their EMDs in the same append.
   */
  const AncillariesStarted = z.object({
    operation_id: z.string(),
    at: z.string(),
    lines: z.array(AncillaryLine).min(1),
    charged: Money.nullable(),
    /** Version 2: how their EMDs are paid; null while held (the issue pays them). See event-versions.ts. */
    paid_by: PaidBy.nullable(),
  });
  /** What the airline took: each line with its EMD number, or `pending` (async EMD), `held` (before issue). */
  const AncillariesAdded = z.object({
    operation_id: z.string(),
    at: z.string(),
    lines: z.array(AncillaryLine).min(1),
    supplier_booking: h.SupplierBooking.nullable(),
  });
  /** EMDs issued later: at ticketing for lines added while held, or by the job confirming asynchronous ones. */
  const EmdsIssued = z.object({
    at: z.string(),
    /** The lines with their EMD numbers, whole, so a reader needs no other event. */
    lines: z.array(AncillaryLine).min(1),
    /** `issue` when the ticketing charge paid them, `ancillaries` when their own purchase did. */
    paid_with: z.enum(["issue", "ancillaries"]),
    supplier_booking: h.SupplierBooking.nullable(),
  });
  const EmdRefundStarted = z.object({ operation_id: z.string(), at: z.string(), emd_number: z.string() });
  const EmdRefunded = z.object({
    operation_id: z.string(),
    at: z.string(),
    emd_number: z.string(),
    line_id: z.string(),
    /** What the EMD was sold for (our price): what goes back. */
    refunded: Money,
    /** What went back to the company balance in the same append; null when nothing moves (fake, card). */
    credited: Money.nullable(),
    supplier_booking: h.SupplierBooking.nullable(),
  });

  const ev = <T extends string, D extends z.ZodType>(type: T, data: D) =>
    z.object({ type: z.literal(type), data });

  const union = z.discriminatedUnion("type", [
    ev("BookingHeld", BookingHeld),
    ev("BookingConfirmedByProvider", ProviderSettled),
    ev("BookingFailedByProvider", ProviderSettled),
    ev("TicketingStarted", TicketingStarted),
    ev("TicketsIssued", TicketsIssued),
    ev("TicketingFailed", OperationFailed),
    ev("VoidStarted", VoidStarted),
    ev("BookingVoided", BookingVoided),
    ev("VoidFailed", OperationFailed),
    ev("CancelStarted", CancelStarted),
    ev("BookingCancelled", BookingCancelled),
    ev("CancelFailed", OperationFailed),
    ev("BookingExpired", z.object({ at: z.string() })),
    ev("RefundQuoted", RefundQuoted),
    ev("RefundStarted", RefundStarted),
    ev("TicketsRefunded", TicketsRefunded),
    ev("RefundFailed", OperationFailed),
    ev("FlightsChangeRequested", FlightsChangeRequested),
    ev("ReshopOffersPriced", ReshopOffersPriced),
    ev("ExchangeStarted", ExchangeStarted),
    ev("TicketsExchanged", TicketsExchanged),
    ev("ExchangeFailed", OperationFailed),
    ev("BookingPriceChanged", BookingPriceChanged),
    ev("BookingRepriced", BookingRepriced),
    ev("BookingCommented", BookingCommented),
    ev("BookingModified", BookingModified),
    ev("PassengerServicesRequested", PassengerServicesRequested),
    ev("AncillariesStarted", AncillariesStarted),
    ev("AncillariesAdded", AncillariesAdded),
    ev("AncillariesFailed", OperationFailed),
    ev("EmdsIssued", EmdsIssued),
    ev("EmdRefundStarted", EmdRefundStarted),
    ev("EmdRefunded", EmdRefunded),
    ev("EmdRefundFailed", OperationFailed),
    ev("ScheduleChanged", ScheduleChanged),
    ev("ScheduleChangeAnswerStarted", ScheduleChangeAnswerStarted),
    ev("ScheduleChangeAccepted", ScheduleChangeAccepted),
    ev("ScheduleChangeAnswerFailed", OperationFailed),
  ]);
  return {
    union,
    BookedFare,
    BookingHeld,
    TicketsIssued,
    OperationFailed,
    BookingModified,
    RefundLine,
    RefundQuoted,
    ReshopPricedOffer,
    TicketsExchanged,
    ScheduleChanged,
  };
}

/**
 * Reads a booking event whose version is not known (a bare `{type, data}`) as the current one: every step of its
 * type from version 1 (event-versions.ts), each filling only a field still missing. The event store upcasts what
 * it reads from the version stamped; this is for a reader holding the event alone.
 */
export function upcastBookingEvent(stored: unknown): unknown {
  if (typeof stored !== "object" || stored === null) return stored;
  const { type, data } = stored as { type?: unknown; data?: unknown };
  if (typeof type !== "string") return stored;
  const upcast = upcastEvent(type, data);
  return upcast === data ? stored : { ...stored, data: upcast };
}

const checked = bookingEvents(true);
/** Every booking event, checked in depth: what a decider's events must satisfy (see the decider tests). */
export const BookingEvent = checked.union;
/**
 * Every booking event as appended and read back, older versions upcast: the type and small fields checked and
 * defaulted, large parts as they are.
 */
export const StoredBookingEvent = z.preprocess(upcastBookingEvent, bookingEvents(false).union);
export const BookedFare = checked.BookedFare;
export type BookedFare = z.infer<typeof BookedFare>;
export const BookingHeld = checked.BookingHeld;
export type BookingHeld = z.infer<typeof BookingHeld>;
export type TicketsIssued = z.infer<typeof checked.TicketsIssued>;
export type OperationFailed = z.infer<typeof checked.OperationFailed>;
export const RefundLine = checked.RefundLine;
export type RefundLine = z.infer<typeof RefundLine>;
export const RefundQuoted = checked.RefundQuoted;
export type RefundQuoted = z.infer<typeof RefundQuoted>;
export const ReshopPricedOffer = checked.ReshopPricedOffer;
export type ReshopPricedOffer = z.infer<typeof ReshopPricedOffer>;
export const TicketsExchanged = checked.TicketsExchanged;
export type TicketsExchanged = z.infer<typeof TicketsExchanged>;
export const ScheduleChanged = checked.ScheduleChanged;
export type ScheduleChanged = z.infer<typeof ScheduleChanged>;
export const BookingModified = checked.BookingModified;
export type BookingModified = z.infer<typeof BookingModified>;
export type BookingEvent = z.infer<typeof BookingEvent>;
/** An event as a decider writes it (defaults not yet applied). */
export type BookingEventInput = z.input<typeof BookingEvent>;
export type BookingEventType = BookingEvent["type"];
export const BOOKING_EVENT_TYPES = BookingEvent.options.map((o) => o.shape.type.value);
