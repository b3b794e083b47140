import { assertNever } from "@skyward/contracts/assert-never";
import type { BookingCommand } from "@skyward/contracts/booking-commands";
import {
  type BookingEvent,
  type BookingEventInput,
  StoredBookingEvent,
} from "@skyward/contracts/booking-events";
import { BOOKING_TRANSITIONS, statusAfterHold, transitionOf } from "@skyward/contracts/booking-lifecycle";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { refuse } from "@skyward/infra/refusal";
import { decideAncillaries, evolveAncillaries } from "../ancillaries/decider.ts";
import {
  priceReshopOffers,
  quoteRefund,
  recordExchangeOutcome,
  recordRefundOutcome,
  requestFlightsChange,
  startExchange,
  startRefund,
} from "./booking-after-sales.ts";
import { commentBooking, modified, modifyBooking, withServices } from "./booking-details.ts";
import {
  expireBooking,
  recordCancelOutcome,
  repriceBooking,
  settleProviderStatus,
  startCancel,
} from "./booking-held.ts";
import { recordVoidOutcome, startVoid } from "./booking-issued.ts";
import {
  recordScheduleChange,
  recordScheduleChangeOutcome,
  startScheduleChangeAnswer,
} from "./booking-schedule-change.ts";
import { type ActiveBooking, type BookingState, hasTickets, minus, plus } from "./booking-state.ts";
import { recordIssueOutcome, startIssue } from "./booking-ticketing.ts";

/*
 * The booking stream: its fold (evolve) and its decider (decide), which dispatches each command to its phase:
 * booking-held.ts, booking-ticketing.ts, booking-issued.ts, booking-after-sales.ts, booking-details.ts (any phase),
 * and ancillaries/decider.ts. The state it folds to is in booking-state.ts, a union on its status.
 *
 * To add a command: its type in contracts booking-commands.ts and its events in booking-events.ts (versioned, README
 * "Changing an event"); each event's transition and the statuses that allow the action in contracts
 * booking-lifecycle.ts (the compiler asks for every event there, in evolve and in acceptedDuringOperation); the
 * decision in the phase file, asking `allows(status, action)` and refusing with `refuse.*` (infra refusal.ts: a kind,
 * a code, a reason; infra http/refusals.ts maps each kind to its HTTP status); its case in decide below; what the
 * bookings row records in projectors bookings/bookings.ts; the route in commands/ and routes.ts. Tests: booking.test.ts
 * (given events, when the command, then events or a refusal: testing/decider-kit.ts), projectors
 * bookings/rows.test.ts (given events, then the row), and an integration test in scripts/src.
 */

export type { BookingHeld } from "@skyward/contracts/booking-events";

export const bookingStream = (locator: string) => `booking-${locator}`;

export { voidUntil } from "./booking-issued.ts";
export type {
  ActiveBooking,
  BookingState,
  BookingStatus,
  ChangeRequest,
  OpenOperation,
} from "./booking-state.ts";

export const initialBooking: BookingState = { status: "none" };

/**
 * A stored event of a booking stream, typed: its type and small fields checked and defaulted by the contract, its
 * large parts taken as written (they were checked in depth when appended, see execute.ts).
 */
export function bookingEvent(event: Pick<StoredEvent, "type" | "data">): BookingEvent {
  return StoredBookingEvent.parse({ type: event.type, data: event.data });
}

export function evolveBooking(state: BookingState, stored: StoredEvent): BookingState {
  return evolve(state, bookingEvent(stored));
}

/**
 * The fold of a booking stream. Which status each event moves it to and which supplier operation it opens or closes
 * are the lifecycle table's (contracts booking-lifecycle.ts); each case adds what its event records. An event that
 * moves a booking between phases (held, ticketing, issued) is folded only on the phase it comes from: the decider
 * never appends it on another, and the state's type (a union on the status) lets no phase hold another's fields.
 */
/** The booking in the phase it was, its supplier operation closed when the event's transition closes it. */
const operationAfter = <S extends ActiveBooking>(state: S, closes: boolean): S =>
  closes ? { ...state, operation: null } : state;

export function evolve(state: BookingState, event: BookingEvent): BookingState {
  if (event.type === "BookingHeld") {
    return {
      ...event.data,
      // An airline that failed the booking holds nothing: it is cancelled (SCENARIOS.md, ASYNCFAIL).
      status: statusAfterHold(event.data),
      tickets: [],
      charged: null,
      issued_at: null,
      void_until: null,
      pending_price: null,
      comments: [],
      operation: null,
      refunded: null,
      refunded_passengers: [],
      refund_quote: null,
      change_request: null,
      schedule_change: null,
      ancillaries: [],
    };
  }
  if (state.status === "none") return state;
  const to = BOOKING_TRANSITIONS;
  // An operation's outcome (done or failed) closes it; each opening event opens its own below.
  const closes = transitionOf(event.type).operation === "closes";
  const closed = operationAfter(state, closes);
  switch (event.type) {
    case "BookingConfirmedByProvider":
      return { ...closed, provider_status: "confirmed", supplier_booking: event.data.supplier_booking };
    case "BookingFailedByProvider":
      if (hasTickets(state)) return state;
      return {
        ...operationAfter(state, closes),
        provider_status: "failed",
        status: to.BookingFailedByProvider.to,
        supplier_booking: event.data.supplier_booking,
      };
    case "TicketingStarted": {
      if (hasTickets(state)) return state;
      const operation = {
        id: event.data.operation_id,
        kind: to.TicketingStarted.operation,
        started_at: event.data.at,
      };
      return {
        ...state,
        status: to.TicketingStarted.to,
        charged: event.data.charged,
        operation: { ...operation, charged: event.data.charged },
      };
    }
    case "TicketingFailed":
      if (hasTickets(state)) return state;
      return { ...operationAfter(state, closes), status: to.TicketingFailed.to, charged: null };
    case "TicketsIssued":
      return {
        ...closed,
        status: to.TicketsIssued.to,
        tickets: event.data.tickets,
        issued_at: event.data.issued_at,
        void_until: event.data.void_until,
        // What the supplier recorded at issue (its void window, its ticket state) is what a later void works from.
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
      };
    case "VoidStarted":
    case "CancelStarted":
      return {
        ...closed,
        operation: {
          id: event.data.operation_id,
          kind: to[event.type].operation,
          started_at: event.data.at,
          charged: null,
        },
      };
    case "VoidFailed":
    case "CancelFailed":
      return closed;
    case "BookingVoided":
      if (!hasTickets(state)) return state;
      return {
        ...operationAfter(state, closes),
        status: to.BookingVoided.to,
        ancillaries: state.ancillaries.map((l) => (l.status === "refunded" ? l : { ...l, status: "voided" })),
      };
    case "BookingCancelled":
    case "BookingExpired":
      if (hasTickets(state)) return state;
      return { ...operationAfter(state, closes), status: to[event.type].to };
    case "BookingPriceChanged":
      return {
        ...closed,
        pending_price: {
          price: event.data.new_price,
          price_detail: event.data.new_price_detail,
          supplier_price: event.data.supplier_price,
        },
      };
    case "BookingRepriced":
      return {
        ...closed,
        price: event.data.price,
        price_detail: event.data.price_detail,
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
        pending_price: null,
      };
    case "BookingCommented":
      return {
        ...closed,
        comments: [...state.comments, { text: event.data.comment, at: event.data.at, by: event.data.by }],
      };
    case "BookingModified":
      return modified(closed, event.data);
    case "RefundQuoted":
      return { ...closed, refund_quote: event.data };
    case "RefundStarted":
      return {
        ...closed,
        operation: {
          id: event.data.operation_id,
          kind: to.RefundStarted.operation,
          started_at: event.data.at,
          charged: null,
          quote_id: event.data.quote_id,
        },
      };
    case "TicketsRefunded": {
      if (!hasTickets(state)) return state;
      const refundedPassengers = [
        ...state.refunded_passengers,
        ...event.data.lines.map((l) => l.passenger_index),
      ];
      // The status moves with the last ticket only (withLastTicket); a partial refund leaves it as it was.
      const all = state.tickets.every((t) => refundedPassengers.includes(t.passenger_index));
      return {
        ...operationAfter(state, closes),
        status: all ? to.TicketsRefunded.to : state.status,
        refunded_passengers: refundedPassengers,
        refunded: plus(state.refunded, event.data.credited),
        refund_quote: null,
        // An involuntary refund answers the schedule change it was claimed for.
        schedule_change:
          state.operation?.kind === "schedule_change" && state.schedule_change
            ? { ...state.schedule_change, answer: "refund" }
            : state.schedule_change,
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
      };
    }
    case "RefundFailed":
      return { ...closed, refund_quote: null };
    case "FlightsChangeRequested":
      return {
        ...closed,
        change_request: {
          request_id: event.data.request_id,
          departure_date: event.data.departure_date,
          return_date: event.data.return_date,
          slice: event.data.slice,
          offers: [],
          expires_at: null,
        },
      };
    case "ReshopOffersPriced":
      if (state.change_request?.request_id !== event.data.request_id) return state;
      return {
        ...closed,
        change_request: {
          ...state.change_request,
          offers: event.data.offers,
          expires_at: event.data.expires_at,
        },
      };
    case "ExchangeStarted":
      return {
        ...closed,
        charged: plus(state.charged, event.data.charged),
        operation: {
          id: event.data.operation_id,
          kind: to.ExchangeStarted.operation,
          started_at: event.data.at,
          charged: event.data.charged,
          reshop_offer_id: event.data.reshop_offer_id,
        },
      };
    case "TicketsExchanged":
      if (!hasTickets(state)) return state;
      return {
        ...operationAfter(state, closes),
        status: to.TicketsExchanged.to,
        tickets: event.data.tickets,
        fare: event.data.fare,
        price: event.data.price,
        price_detail: event.data.price_detail,
        void_until: null,
        refund_quote: null,
        change_request: null,
        // An involuntary exchange answers the schedule change it was claimed for.
        schedule_change:
          state.operation?.kind === "schedule_change" && state.schedule_change
            ? { ...state.schedule_change, answer: "exchange" }
            : state.schedule_change,
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
      };
    case "ExchangeFailed":
      // A failed exchange resets the offers (spec: a reissue failure empties the results) and gives the charge back.
      return {
        ...closed,
        charged: minus(state.charged, event.data.credited),
        change_request: state.change_request
          ? { ...state.change_request, offers: [], expires_at: null }
          : null,
      };
    case "ScheduleChanged":
      return { ...closed, schedule_change: { ...event.data, answer: null } };
    case "ScheduleChangeAnswerStarted":
      return {
        ...closed,
        operation: {
          id: event.data.operation_id,
          kind: to.ScheduleChangeAnswerStarted.operation,
          started_at: event.data.at,
          charged: null,
          change_id: event.data.change_id,
          choice: event.data.choice,
          option_id: event.data.option_id,
        },
      };
    case "ScheduleChangeAccepted": {
      const departure = event.data.flights[0]?.departure_at ?? state.fare.departure_at;
      return {
        ...closed,
        fare: { ...state.fare, departure_at: departure, flights: event.data.flights },
        schedule_change: state.schedule_change ? { ...state.schedule_change, answer: "accept" } : null,
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
      };
    }
    case "ScheduleChangeAnswerFailed":
      return closed;
    case "AncillariesStarted":
    case "AncillariesAdded":
    case "AncillariesFailed":
    case "EmdsIssued":
    case "EmdRefundStarted":
    case "EmdRefunded":
    case "EmdRefundFailed":
      return evolveAncillaries(state, event);
    case "PassengerServicesRequested":
      return { ...state, passenger_services: withServices(state.passenger_services, event.data.passengers) };
    default:
      return assertNever(event);
  }
}

export type {
  BookingCommand,
  ExchangedOutcome,
  IssuedOutcome,
  OperationOutcome,
  PriceChange,
  RefundedOutcome,
} from "@skyward/contracts/booking-commands";

/**
 * Which commands may run while a supplier operation is in flight: only those that cannot change its outcome (a
 * comment, a contact change) and the recording of the operation's own outcome. Everything else is refused with 409.
 */
export function acceptedDuringOperation(command: BookingCommand): boolean {
  switch (command.type) {
    case "CommentBooking":
    case "RecordIssueOutcome":
    case "RecordVoidOutcome":
    case "RecordCancelOutcome":
    case "RecordRefundOutcome":
    case "RecordExchangeOutcome":
    case "RecordAncillariesOutcome":
    case "RecordEmdRefundOutcome":
    case "RecordEmdsIssued":
    case "RecordScheduleChangeOutcome":
      return true;
    case "ModifyBooking":
      return (
        (command.change.passengers === undefined || command.change.passengers.length === 0) &&
        (command.services ?? []).every((s) => s.loyalty === undefined && s.ssrs === undefined)
      );
    case "HoldBooking":
    case "SettleProviderStatus":
    case "StartIssue":
    case "StartVoid":
    case "StartCancel":
    case "ExpireBooking":
    case "RepriceBooking":
    case "QuoteRefund":
    case "StartRefund":
    case "RequestFlightsChange":
    case "PriceReshopOffers":
    case "StartExchange":
    case "StartAncillaries":
    case "StartEmdRefund":
    case "RecordScheduleChange":
    case "StartScheduleChangeAnswer":
      return false;
    default:
      return assertNever(command);
  }
}

/** The booking decider: the events a command appends on this state, or a named domain error. */
export function decide(command: BookingCommand, state: BookingState): BookingEventInput[] {
  if (command.type === "HoldBooking") {
    if (state.status !== "none") throw refuse.conflict("This locator is already taken", "locator_taken");
    // Loyalty numbers and SSRs asked with the booking ride in an event of their own beside it (issue 23).
    const services = command.services ?? [];
    return [
      { type: "BookingHeld", data: command.held },
      ...(services.length > 0
        ? [{ type: "PassengerServicesRequested" as const, data: { passengers: services } }]
        : []),
    ];
  }
  if (state.status === "none") throw refuse.notAllowed("This booking does not exist", "booking_missing");
  if (state.operation && !acceptedDuringOperation(command)) {
    throw refuse.conflict(
      state.operation.kind === "issue"
        ? "This booking is being issued right now"
        : `This booking is being completed (${state.operation.kind}) right now; try again in a moment`,
      state.operation.kind === "issue" ? "issue_in_progress" : "operation_in_progress",
    );
  }
  switch (command.type) {
    case "SettleProviderStatus":
      return settleProviderStatus(state, command);
    case "StartIssue":
      return startIssue(state, command);
    case "RecordIssueOutcome":
      return recordIssueOutcome(state, command);
    case "StartVoid":
      return startVoid(state, command);
    case "RecordVoidOutcome":
      return recordVoidOutcome(state, command);
    case "StartCancel":
      return startCancel(state, command);
    case "RecordCancelOutcome":
      return recordCancelOutcome(state, command);
    case "ExpireBooking":
      return expireBooking(state, command);
    case "RepriceBooking":
      return repriceBooking(state, command);
    case "CommentBooking":
      return commentBooking(command);
    case "QuoteRefund":
      return quoteRefund(state, command);
    case "StartRefund":
      return startRefund(state, command);
    case "RecordRefundOutcome":
      return recordRefundOutcome(state, command);
    case "RequestFlightsChange":
      return requestFlightsChange(state, command);
    case "PriceReshopOffers":
      return priceReshopOffers(state, command);
    case "StartExchange":
      return startExchange(state, command);
    case "RecordExchangeOutcome":
      return recordExchangeOutcome(state, command);
    case "ModifyBooking":
      return modifyBooking(state, command);
    case "RecordScheduleChange":
      return recordScheduleChange(state, command);
    case "StartScheduleChangeAnswer":
      return startScheduleChangeAnswer(state, command);
    case "RecordScheduleChangeOutcome":
      return recordScheduleChangeOutcome(state, command);
    case "StartAncillaries":
    case "RecordAncillariesOutcome":
    case "RecordEmdsIssued":
    case "StartEmdRefund":
    case "RecordEmdRefundOutcome":
      return decideAncillaries(command, state);
    default:
      return assertNever(command);
  }
}
