import type { BookingEvent, SupplierOperationKind } from "./booking-events.ts";
import type { BookingList, BookingStatus } from "./bookings.ts";

/*
 * The booking lifecycle, written once: which status each event moves a booking to, which supplier operation it opens
 * or closes, and what each status allows. The decider's fold (command-service bookings/booking.ts evolve), its
 * guards (the booking-*.ts phase files and ancillaries/decider.ts), the bookings projection (projectors
 * bookings/bookings.ts) and "what can I do now" (booking-actions.ts) all read it; none writes a status of its own.
 */

/** The phase a status belongs to: held (no tickets), ticketing (no tickets, issue in flight), issued (tickets). */
export type BookingPhase = "held" | "ticketing" | "issued";

/** What an agent (or a job) can do to a booking; each status allows some, before any other condition is asked. */
export type LifecycleAction =
  | "issue"
  | "cancel"
  | "expire"
  | "reprice"
  | "modify"
  | "void"
  | "refund"
  | "exchange"
  | "add_bags"
  | "refund_emd"
  | "answer_schedule_change";

interface StatusRule {
  phase: BookingPhase;
  /** The list of the bookings page it shows under. */
  list: BookingList;
  allows: readonly LifecycleAction[];
}

/** Each status: its phase, its list, and what it allows. */
export const BOOKING_STATUS_RULES = {
  held: {
    phase: "held",
    list: "new",
    allows: ["issue", "cancel", "expire", "reprice", "modify", "add_bags"],
  },
  ticketing: { phase: "ticketing", list: "new", allows: ["modify"] },
  issued: {
    phase: "issued",
    list: "issued",
    allows: ["void", "refund", "exchange", "modify", "add_bags", "refund_emd", "answer_schedule_change"],
  },
  exchanged: {
    phase: "issued",
    list: "issued",
    allows: ["refund", "exchange", "modify", "add_bags", "refund_emd", "answer_schedule_change"],
  },
  voided: { phase: "issued", list: "cancelled", allows: [] },
  cancelled: { phase: "held", list: "cancelled", allows: [] },
  expired: { phase: "held", list: "cancelled", allows: [] },
  // The EMDs of refunded tickets stay refundable.
  refunded: { phase: "issued", list: "refunded", allows: ["refund_emd"] },
} as const satisfies Record<BookingStatus, StatusRule>;

/** Whether a booking in this status may do this at all (the other conditions, time and money, are the caller's). */
export function allows(status: BookingStatus, action: LifecycleAction): boolean {
  return (BOOKING_STATUS_RULES[status].allows as readonly LifecycleAction[]).includes(action);
}

export const listOfStatus = (status: BookingStatus): BookingList => BOOKING_STATUS_RULES[status].list;
export const phaseOfStatus = (status: BookingStatus): BookingPhase => BOOKING_STATUS_RULES[status].phase;

export interface Transition {
  /** The status the event moves the booking to; absent when it leaves the status as it is. */
  to?: BookingStatus;
  /** Moves it only once no ticket is left unrefunded (a partial refund leaves the status as it was). */
  withLastTicket?: true;
  /** The supplier operation it opens, or "closes" for an operation's outcome (done or failed). */
  operation?: SupplierOperationKind | "closes";
}

/**
 * What each booking event does to the lifecycle. A hold the airline failed at once is cancelled as if
 * BookingFailedByProvider followed it (see `statusAfterHold`).
 */
export const BOOKING_TRANSITIONS = {
  BookingHeld: { to: "held" },
  BookingConfirmedByProvider: {},
  // The airline holds nothing any more (SCENARIOS.md, ASYNCFAIL): cancelled, with the airline's reason.
  BookingFailedByProvider: { to: "cancelled", operation: "closes" },
  TicketingStarted: { to: "ticketing", operation: "issue" },
  TicketingFailed: { to: "held", operation: "closes" },
  TicketsIssued: { to: "issued", operation: "closes" },
  VoidStarted: { operation: "void" },
  VoidFailed: { operation: "closes" },
  BookingVoided: { to: "voided", operation: "closes" },
  CancelStarted: { operation: "cancel" },
  CancelFailed: { operation: "closes" },
  BookingCancelled: { to: "cancelled", operation: "closes" },
  BookingExpired: { to: "expired", operation: "closes" },
  BookingPriceChanged: {},
  BookingRepriced: {},
  BookingCommented: {},
  BookingModified: {},
  PassengerServicesRequested: {},
  RefundQuoted: {},
  RefundStarted: { operation: "refund" },
  TicketsRefunded: { to: "refunded", withLastTicket: true, operation: "closes" },
  RefundFailed: { operation: "closes" },
  FlightsChangeRequested: {},
  ReshopOffersPriced: {},
  ExchangeStarted: { operation: "exchange" },
  TicketsExchanged: { to: "exchanged", operation: "closes" },
  ExchangeFailed: { operation: "closes" },
  AncillariesStarted: { operation: "ancillaries" },
  AncillariesAdded: { operation: "closes" },
  AncillariesFailed: { operation: "closes" },
  EmdsIssued: {},
  EmdRefundStarted: { operation: "emd_refund" },
  EmdRefunded: { operation: "closes" },
  EmdRefundFailed: { operation: "closes" },
  // A schedule change waits for the agent's answer; an involuntary refund ends as TicketsRefunded.
  ScheduleChanged: {},
  ScheduleChangeAnswerStarted: { operation: "schedule_change" },
  ScheduleChangeAccepted: { operation: "closes" },
  ScheduleChangeAnswerFailed: { operation: "closes" },
} as const satisfies Record<BookingEvent["type"], Transition>;

/** A hold's first status: held, or cancelled when the airline failed it at once. */
export function statusAfterHold(held: { provider_status: string }): "held" | "cancelled" {
  return held.provider_status === "failed"
    ? BOOKING_TRANSITIONS.BookingFailedByProvider.to
    : BOOKING_TRANSITIONS.BookingHeld.to;
}

/** What an event does to the lifecycle, as the table says. */
export const transitionOf = (type: BookingEvent["type"]): Transition => BOOKING_TRANSITIONS[type];
