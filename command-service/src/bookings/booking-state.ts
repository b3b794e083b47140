import type { AncillaryLine } from "@skyward/contracts/ancillaries";
import type { BookingCommand } from "@skyward/contracts/booking-commands";
import type {
  BookingHeld,
  RefundQuoted,
  ReshopPricedOffer,
  ScheduleChanged,
  SupplierOperationKind,
} from "@skyward/contracts/booking-events";
import { phaseOfStatus } from "@skyward/contracts/booking-lifecycle";
import { type Money, money } from "@skyward/contracts/money";
import type { PriceDetail, SupplierPrice } from "@skyward/contracts/offers";
import type { PassengerServices } from "@skyward/contracts/passenger-services";
import type { ScheduleChangeChoice, Ticket } from "@skyward/contracts/supplier";

/*
 * The state a booking stream folds to, apart from its decider (booking.ts) so that the deciders it delegates to
 * (ancillaries/decider.ts) can name it without importing the decider that imports them.
 */

/** A supplier operation claimed by its "started" event and not yet recorded as done or failed. */
export interface OpenOperation {
  id: string;
  kind: SupplierOperationKind;
  started_at: string;
  /** What the company balance was charged when the operation started (issue, exchange). */
  charged: Money | null;
  /** The refund quote a refund confirms, or the reshop offer an exchange takes. */
  quote_id?: string;
  reshop_offer_id?: string;
  /** The ancillary lines an ancillaries operation asked for, or the EMD an EMD refund returns. */
  lines?: AncillaryLine[];
  emd_number?: string;
  /** The schedule change an answer is for, and the answer. */
  change_id?: string;
  choice?: ScheduleChangeChoice;
  option_id?: string | null;
}

/** The airline's latest schedule change, and the agent's answer once recorded (null while it waits). */
export type ScheduleChangeState = ScheduleChanged & { answer: ScheduleChangeChoice | null };

/** A flights-change request and the offers priced for it (empty until priced, and again after a failed exchange). */
export interface ChangeRequest {
  request_id: string;
  departure_date: string;
  return_date: string | null;
  /** The one slice changed (to departure_date); null: the whole journey. */
  slice: number | null;
  offers: ReshopPricedOffer[];
  expires_at: string | null;
}

/** What every booking holds, whatever its phase. */
export interface Booked extends BookingHeld {
  /** What the company balance paid for the tickets (issue plus exchanges); a void credits it back. */
  charged: Money | null;
  /** What refunds credited back so far: a refund never takes more than `charged` less this. */
  refunded: Money | null;
  refunded_passengers: number[];
  refund_quote: RefundQuoted | null;
  change_request: ChangeRequest | null;
  schedule_change: ScheduleChangeState | null;
  /** A price the supplier quoted at a failed issue, waiting for the agent to accept it at the next issue. */
  pending_price: { price: Money; price_detail: PriceDetail; supplier_price: SupplierPrice | null } | null;
  comments: { text: string; at: string; by: string | null }[];
  /** Bags, cabin bags and seats per passenger and segment, with their EMDs (see ancillaries/decider.ts). */
  ancillaries: AncillaryLine[];
  /** The supplier operation in flight, if any: only comments and contact changes are accepted meanwhile. */
  operation: OpenOperation | null;
  /** Loyalty numbers and SSRs of the passengers that have any, by index (issue 23). */
  passenger_services?: PassengerServices[];
}

/**
 * A booking before its tickets: held (its issue in booking-held.ts and booking-ticketing.ts), and what a held booking
 * ends as without tickets (cancelled, failed by the airline, expired). It has no tickets, so none can be written.
 */
export interface HeldBooking extends Booked {
  status: "held" | "cancelled" | "expired";
  tickets: [];
  issued_at: null;
  void_until: null;
}

/** A booking whose issue is in flight ("ticketing" always has its issue operation open): no tickets yet. */
export interface TicketingBooking extends Booked {
  status: "ticketing";
  tickets: [];
  issued_at: null;
  void_until: null;
}

/**
 * A booking with tickets: issued, exchanged, and what issued tickets end as (voided, refunded). Void, refund and
 * exchange run on "issued" (refund and exchange also on "exchanged"). A partial refund leaves the status as it was,
 * the last ticket "refunded".
 */
export interface IssuedBooking extends Booked {
  status: "issued" | "exchanged" | "voided" | "refunded";
  tickets: Ticket[];
  issued_at: string;
  void_until: string | null;
}

/** A booking in one of its phases, a union on its status: a field of one phase does not type-check in another. */
export type ActiveBooking = HeldBooking | TicketingBooking | IssuedBooking;
export type BookingState = { status: "none" } | ActiveBooking;
export type BookingStatus = ActiveBooking["status"];

/** Whether a booking is in its issued phase (it has tickets), by the lifecycle table's phase of its status. */
export const hasTickets = (state: ActiveBooking): state is IssuedBooking =>
  phaseOfStatus(state.status) === "issued";

/** A booking command of one type, as the phase deciders take it. */
export type BookingCommandOf<T extends BookingCommand["type"]> = Extract<BookingCommand, { type: T }>;

export const plus = (a: Money | null, b: Money | null): Money | null =>
  b === null ? a : a === null ? b : money(a.amount + b.amount, a.currency);
export const minus = (a: Money | null, b: Money | null): Money | null =>
  b === null || a === null ? a : money(a.amount - b.amount, a.currency);
