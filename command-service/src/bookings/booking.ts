import { assertNever } from "@skyward/contracts/assert-never";
import { firstDeparture, issueCharge } from "@skyward/contracts/booking-actions";
import type { BookingCommand } from "@skyward/contracts/booking-commands";
import {
  type BookingEvent,
  type BookingEventInput,
  type BookingModified,
  StoredBookingEvent,
} from "@skyward/contracts/booking-events";
import { type Money, money } from "@skyward/contracts/money";
import { loyaltyRefusal, type PassengerServices } from "@skyward/contracts/passenger-services";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { Conflict, type FieldProblem, IllegalState, InvalidInput } from "@skyward/infra/http/errors";
import { decideAncillaries, emdsAtIssue, evolveAncillaries } from "../ancillaries/decider.ts";
import { decidePayment } from "../ticketing/card.ts";
import type { ActiveBooking, BookingState } from "./booking-state.ts";

export type { BookingHeld } from "@skyward/contracts/booking-events";

export const bookingStream = (locator: string) => `booking-${locator}`;

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

export function evolve(state: BookingState, event: BookingEvent): BookingState {
  if (event.type === "BookingHeld") {
    return {
      ...event.data,
      // An airline that failed the booking holds nothing: it is cancelled (SCENARIOS.md, ASYNCFAIL).
      status: event.data.provider_status === "failed" ? "cancelled" : "held",
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
      ancillaries: [],
    };
  }
  if (state.status === "none") return state;
  const closed = { ...state, operation: null };
  switch (event.type) {
    case "BookingConfirmedByProvider":
      return { ...state, provider_status: "confirmed", supplier_booking: event.data.supplier_booking };
    case "BookingFailedByProvider":
      return {
        ...closed,
        provider_status: "failed",
        status: "cancelled",
        supplier_booking: event.data.supplier_booking,
      };
    case "TicketingStarted": {
      const operation = { id: event.data.operation_id, kind: "issue" as const, started_at: event.data.at };
      return {
        ...state,
        status: "ticketing",
        charged: event.data.charged,
        operation: { ...operation, charged: event.data.charged },
      };
    }
    case "TicketingFailed":
      return { ...closed, status: "held", charged: null };
    case "TicketsIssued":
      return {
        ...closed,
        status: "issued",
        tickets: event.data.tickets,
        issued_at: event.data.issued_at,
        void_until: event.data.void_until,
        // What the supplier recorded at issue (its void window, its ticket state) is what a later void works from.
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
      };
    case "VoidStarted":
    case "CancelStarted":
      return {
        ...state,
        operation: {
          id: event.data.operation_id,
          kind: event.type === "VoidStarted" ? "void" : "cancel",
          started_at: event.data.at,
          charged: null,
        },
      };
    case "VoidFailed":
    case "CancelFailed":
      return closed;
    case "BookingVoided":
      return {
        ...closed,
        status: "voided",
        ancillaries: state.ancillaries.map((l) => (l.status === "refunded" ? l : { ...l, status: "voided" })),
      };
    case "BookingCancelled":
      return { ...closed, status: "cancelled" };
    case "BookingExpired":
      return { ...closed, status: "expired" };
    case "BookingPriceChanged":
      return {
        ...state,
        pending_price: {
          price: event.data.new_price,
          price_detail: event.data.new_price_detail,
          supplier_price: event.data.supplier_price,
        },
      };
    case "BookingRepriced":
      return {
        ...state,
        price: event.data.price,
        price_detail: event.data.price_detail,
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
        pending_price: null,
      };
    case "BookingCommented":
      return {
        ...state,
        comments: [...state.comments, { text: event.data.comment, at: event.data.at, by: event.data.by }],
      };
    case "BookingModified":
      return modified(state, event.data);
    case "RefundQuoted":
      return { ...state, refund_quote: event.data };
    case "RefundStarted":
      return {
        ...state,
        operation: {
          id: event.data.operation_id,
          kind: "refund",
          started_at: event.data.at,
          charged: null,
          quote_id: event.data.quote_id,
        },
      };
    case "TicketsRefunded": {
      const refundedPassengers = [
        ...state.refunded_passengers,
        ...event.data.lines.map((l) => l.passenger_index),
      ];
      const all = state.tickets.every((t) => refundedPassengers.includes(t.passenger_index));
      return {
        ...closed,
        status: all ? "refunded" : state.status,
        refunded_passengers: refundedPassengers,
        refunded: plus(state.refunded, event.data.credited),
        refund_quote: null,
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
      };
    }
    case "RefundFailed":
      return { ...closed, refund_quote: null };
    case "FlightsChangeRequested":
      return {
        ...state,
        change_request: {
          request_id: event.data.request_id,
          departure_date: event.data.departure_date,
          return_date: event.data.return_date,
          offers: [],
          expires_at: null,
        },
      };
    case "ReshopOffersPriced":
      if (state.change_request?.request_id !== event.data.request_id) return state;
      return {
        ...state,
        change_request: {
          ...state.change_request,
          offers: event.data.offers,
          expires_at: event.data.expires_at,
        },
      };
    case "ExchangeStarted":
      return {
        ...state,
        charged: plus(state.charged, event.data.charged),
        operation: {
          id: event.data.operation_id,
          kind: "exchange",
          started_at: event.data.at,
          charged: event.data.charged,
          reshop_offer_id: event.data.reshop_offer_id,
        },
      };
    case "TicketsExchanged":
      return {
        ...closed,
        status: "exchanged",
        tickets: event.data.tickets,
        fare: event.data.fare,
        price: event.data.price,
        price_detail: event.data.price_detail,
        void_until: null,
        refund_quote: null,
        change_request: null,
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

/**
 * The services a modify changes (issue 23): each entry merged onto what its passenger has, kept only when it differs;
 * a loyalty number every marketing carrier of the flights must accept, refused on its field otherwise.
 */
function changedServices(
  state: ActiveBooking,
  requested: readonly Partial<PassengerServices>[],
): PassengerServices[] {
  const carriers = state.fare.flights.flatMap((f) => f.segments.map((segment) => segment.carrier));
  const problems: FieldProblem[] = [];
  const changed = requested.flatMap((entry, at) => {
    if (entry.index === undefined || (entry.loyalty === undefined && entry.ssrs === undefined)) return [];
    const index = entry.index;
    if (index >= state.passengers.length)
      throw new IllegalState(`There is no passenger ${index + 1}`, "no_such_passenger");
    const had = state.passenger_services?.find((s) => s.index === index) ?? {
      index,
      loyalty: null,
      ssrs: [],
    };
    const next = {
      index,
      loyalty: entry.loyalty === undefined ? had.loyalty : entry.loyalty,
      ssrs: entry.ssrs ?? had.ssrs,
    };
    const refusal = next.loyalty && entry.loyalty ? loyaltyRefusal(carriers, next.loyalty.carrier) : null;
    if (refusal)
      problems.push({ pointer: `/passengers/${at}/loyalty/carrier`, detail: refusal, location: "body" });
    return JSON.stringify(next) === JSON.stringify(had) ? [] : [next];
  });
  if (problems.length > 0) throw new InvalidInput(problems);
  return changed;
}

/** Each named passenger's services replace what they had; the others keep theirs. */
const withServices = (kept: readonly PassengerServices[] = [], changed: readonly PassengerServices[]) =>
  [...kept.filter((k) => !changed.some((c) => c.index === k.index)), ...changed].sort(
    (a, b) => a.index - b.index,
  );

const plus = (a: Money | null, b: Money | null): Money | null =>
  b === null ? a : a === null ? b : money(a.amount + b.amount, a.currency);
const minus = (a: Money | null, b: Money | null): Money | null =>
  b === null || a === null ? a : money(a.amount - b.amount, a.currency);

function changesSomething(state: ActiveBooking, change: BookingModified): boolean {
  const contacts = Object.entries(change.contacts ?? {}) as [keyof ActiveBooking["contacts"], string][];
  const sameDocument = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    Object.keys({ ...a, ...b }).every((key) => a[key] === b[key]);
  return (
    contacts.some(([key, value]) => state.contacts[key] !== value) ||
    (change.passengers ?? []).some(
      (p) => !sameDocument(state.passengers[p.index]?.document ?? {}, p.document),
    )
  );
}

function modified(state: ActiveBooking, change: BookingModified): ActiveBooking {
  return {
    ...state,
    contacts: { ...state.contacts, ...change.contacts },
    passengers: state.passengers.map((p, i) => {
      const document = change.passengers?.find((c) => c.index === i)?.document;
      return document ? { ...p, document } : p;
    }),
  };
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
      return false;
    default:
      return assertNever(command);
  }
}

/** The booking decider: the events a command appends on this state, or a named domain error. */
export function decide(command: BookingCommand, state: BookingState): BookingEventInput[] {
  if (command.type === "HoldBooking") {
    if (state.status !== "none") throw new Conflict("This locator is already taken", "locator_taken");
    const services = command.services ?? [];
    return [
      { type: "BookingHeld", data: command.held },
      ...(services.length > 0
        ? [{ type: "PassengerServicesRequested" as const, data: { passengers: services } }]
        : []),
    ];
  }
  if (state.status === "none") throw new IllegalState("This booking does not exist", "booking_missing");
  if (state.operation && !acceptedDuringOperation(command)) {
    throw new Conflict(
      state.operation.kind === "issue"
        ? "This booking is being issued right now"
        : `This booking is being completed (${state.operation.kind}) right now; try again in a moment`,
      state.operation.kind === "issue" ? "issue_in_progress" : "operation_in_progress",
    );
  }
  switch (command.type) {
    case "SettleProviderStatus": {
      if (state.status !== "held" || state.provider_status !== "in_progress") return [];
      const status = command.supplier_booking.provider_status;
      if (status === "in_progress") return [];
      const data = { supplier_booking: command.supplier_booking, error: command.supplier_booking.error };
      return [
        { type: status === "confirmed" ? "BookingConfirmedByProvider" : "BookingFailedByProvider", data },
      ];
    }
    case "StartIssue":
      return startIssue(state, command);
    case "RecordIssueOutcome": {
      if (state.operation?.id !== command.operation_id || state.status !== "ticketing") return [];
      const { outcome } = command;
      if (outcome.ok)
        return [
          { type: "TicketsIssued", data: { operation_id: command.operation_id, ...outcome.done } },
          ...emdsAtIssue(state, outcome.done.supplier_booking, outcome.done.issued_at),
        ];
      const failed: BookingEventInput[] = [
        {
          type: "TicketingFailed",
          data: {
            operation_id: command.operation_id,
            code: outcome.code,
            reason: outcome.reason,
            credited: state.operation.charged,
          },
        },
      ];
      if (outcome.price_changed) {
        failed.push({
          type: "BookingPriceChanged",
          data: {
            old_price: state.price,
            new_price: outcome.price_changed.price,
            new_price_detail: outcome.price_changed.price_detail,
            supplier_price: outcome.price_changed.supplier_price,
          },
        });
      }
      return failed;
    }
    case "StartVoid":
      if (state.status !== "issued")
        throw new IllegalState(
          `Only issued tickets can be voided; this booking is ${state.status}`,
          "not_issued",
        );
      if (state.refunded_passengers.length > 0)
        throw new IllegalState(
          "Some tickets of this booking were refunded: refund the others instead",
          "partly_refunded",
        );
      if (!state.void_until || new Date(state.void_until) < command.now) {
        throw new IllegalState(
          "The void window of these tickets has closed; request a refund instead",
          "void_window_closed",
        );
      }
      return [
        { type: "VoidStarted", data: { operation_id: command.operation_id, at: command.now.toISOString() } },
      ];
    case "RecordVoidOutcome": {
      if (state.operation?.id !== command.operation_id || state.operation.kind !== "void") return [];
      const { outcome } = command;
      return outcome.ok
        ? [
            {
              type: "BookingVoided",
              data: {
                operation_id: command.operation_id,
                at: command.now.toISOString(),
                // Less what EMD refunds gave back already (a refunded ticket closes the void before this).
                credited: minus(state.charged, state.refunded),
              },
            },
          ]
        : [
            {
              type: "VoidFailed",
              data: { operation_id: command.operation_id, code: outcome.code, reason: outcome.reason },
            },
          ];
    }
    case "StartCancel":
      if (state.status !== "held")
        throw new IllegalState(
          `Only held bookings can be cancelled; this booking is ${state.status}`,
          "not_held",
        );
      return [
        {
          type: "CancelStarted",
          data: { operation_id: command.operation_id, at: command.now.toISOString() },
        },
      ];
    case "RecordCancelOutcome": {
      if (state.operation?.id !== command.operation_id || state.operation.kind !== "cancel") return [];
      const { outcome } = command;
      return outcome.ok
        ? [
            {
              type: "BookingCancelled",
              data: { operation_id: command.operation_id, at: command.now.toISOString() },
            },
          ]
        : [
            {
              type: "CancelFailed",
              data: { operation_id: command.operation_id, code: outcome.code, reason: outcome.reason },
            },
          ];
    }
    case "ExpireBooking":
      if (state.status !== "held" || !state.time_limit || new Date(state.time_limit) > command.now) return [];
      return [{ type: "BookingExpired", data: { at: command.now.toISOString() } }];
    case "RepriceBooking":
      if (state.status !== "held")
        throw new IllegalState(
          `Only held bookings can be repriced; this booking is ${state.status}`,
          "not_held",
        );
      return [
        {
          type: "BookingRepriced",
          data: {
            price: command.price,
            price_detail: command.price_detail,
            supplier_booking: command.supplier_booking,
          },
        },
      ];
    case "CommentBooking":
      return [
        {
          type: "BookingCommented",
          data: { comment: command.comment, at: command.now.toISOString(), by: command.by },
        },
      ];
    case "QuoteRefund":
      return quoteRefund(state, command);
    case "StartRefund":
      return startRefund(state, command);
    case "RecordRefundOutcome": {
      const open = state.operation;
      if (open?.id !== command.operation_id || open.kind !== "refund") return [];
      const quote = state.refund_quote;
      const { outcome } = command;
      if (!outcome.ok || !quote || quote.quote_id !== open.quote_id) {
        const failure = outcome.ok
          ? { code: "refund_quote_changed", reason: "The refund quote changed while it was confirmed" }
          : { code: outcome.code, reason: outcome.reason };
        return [{ type: "RefundFailed", data: { operation_id: open.id, ...failure } }];
      }
      const refundable = quote.refundable;
      return [
        {
          type: "TicketsRefunded",
          data: {
            operation_id: open.id,
            at: command.now.toISOString(),
            quote_id: quote.quote_id,
            lines: quote.lines,
            // Money moves back only where it came from: a balance charge (not a card, not a demo booking).
            credited: state.charged && refundable.amount > 0 ? refundable : null,
            supplier_booking: outcome.done.supplier_booking,
          },
        },
      ];
    }
    case "RequestFlightsChange":
      assertChangeable(state, command.now);
      return [
        {
          type: "FlightsChangeRequested",
          data: {
            request_id: command.request_id,
            departure_date: command.departure_date,
            return_date: command.return_date,
            at: command.now.toISOString(),
          },
        },
      ];
    case "PriceReshopOffers":
      assertChangeable(state, command.now);
      if (state.change_request?.request_id !== command.request_id)
        throw new Conflict(
          "The flights-change request changed meanwhile: price its offers again",
          "change_request_changed",
        );
      return [
        {
          type: "ReshopOffersPriced",
          data: {
            request_id: command.request_id,
            offers: command.offers,
            expires_at: command.expires_at,
            at: command.now.toISOString(),
          },
        },
      ];
    case "StartExchange":
      return startExchange(state, command);
    case "RecordExchangeOutcome": {
      const open = state.operation;
      if (open?.id !== command.operation_id || open.kind !== "exchange") return [];
      const { outcome } = command;
      if (!outcome.ok)
        return [
          {
            type: "ExchangeFailed",
            data: {
              operation_id: open.id,
              code: outcome.code,
              reason: outcome.reason,
              credited: open.charged,
            },
          },
        ];
      return [
        {
          type: "TicketsExchanged",
          data: {
            operation_id: open.id,
            reshop_offer_id: open.reshop_offer_id ?? "",
            old_tickets: state.tickets.map((t) => t.ticket_number),
            ...outcome.done,
          },
        },
      ];
    }
    case "ModifyBooking":
      if (
        state.status !== "held" &&
        state.status !== "issued" &&
        state.status !== "ticketing" &&
        state.status !== "exchanged"
      ) {
        throw new IllegalState(`A ${state.status} booking cannot be modified`, "not_modifiable");
      }
      for (const p of command.change.passengers ?? []) {
        if (p.index >= state.passengers.length)
          throw new IllegalState(`There is no passenger ${p.index + 1}`, "no_such_passenger");
      }
      {
        const services = changedServices(state, command.services ?? []);
        // A change that changes nothing is refused rather than recorded: the booking's history shows only changes.
        if (!changesSomething(state, command.change) && services.length === 0)
          throw new IllegalState(
            "Nothing to change: send contacts, documents, loyalty numbers or SSRs that differ from the booking's",
            "nothing_to_change",
          );
        return [
          ...(changesSomething(state, command.change)
            ? [{ type: "BookingModified" as const, data: command.change }]
            : []),
          ...(services.length > 0
            ? [{ type: "PassengerServicesRequested" as const, data: { passengers: services } }]
            : []),
        ];
      }
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

/**
 * The claim of an issue: only one issue reaches the supplier. An issue accepting the pending price first takes the price the
 * supplier quoted at the last attempt. `TicketingStarted.charged` is what the company balance is charged in the
 * same append (null when nothing moves: a fake booking or a card form of payment).
 */
function startIssue(
  state: ActiveBooking,
  command: Extract<BookingCommand, { type: "StartIssue" }>,
): BookingEventInput[] {
  switch (state.status) {
    case "held":
      break;
    case "ticketing":
      throw new Conflict("This booking is being issued right now", "issue_in_progress");
    case "issued":
      throw new IllegalState("This booking is already issued", "already_issued");
    case "exchanged":
      throw new IllegalState("This booking is already issued", "already_issued");
    case "voided":
    case "cancelled":
    case "expired":
    case "refunded":
      throw new IllegalState(
        `This booking is ${state.status} and cannot be issued`,
        `booking_${state.status}`,
      );
    default:
      return assertNever(state.status);
  }
  if (state.provider_status !== "confirmed") {
    throw new IllegalState("The airline has not confirmed this booking yet", "provider_in_progress");
  }
  if (state.time_limit && new Date(state.time_limit) <= command.now) {
    throw new IllegalState("The time limit of this booking has passed", "time_limit_passed");
  }
  const events: BookingEventInput[] = [];
  let price = state.price;
  if (state.pending_price) {
    if (!command.accept_pending_price) {
      throw new IllegalState(
        "The price has changed: reprice the booking to accept the new price first",
        "price_changed",
      );
    }
    const accepted = state.pending_price;
    const supplierBooking =
      state.supplier_booking && accepted.supplier_price
        ? { ...state.supplier_booking, price: accepted.supplier_price }
        : state.supplier_booking;
    events.push({
      type: "BookingRepriced",
      data: { price: accepted.price, price_detail: accepted.price_detail, supplier_booking: supplierBooking },
    });
    price = accepted.price;
  }
  const paidBy = decidePayment(command.payment, command.now);
  // Ancillaries added while held are paid with the tickets.
  const charged =
    state.fake_booking || paidBy.method === "card" ? null : issueCharge(price, state.ancillaries).total;
  events.push({
    type: "TicketingStarted",
    data: { operation_id: command.operation_id, at: command.now.toISOString(), charged, paid_by: paidBy },
  });
  return events;
}

/** Refunds and changes work on issued (or exchanged) tickets before the journey begins. */
function assertAfterSales(state: ActiveBooking, now: Date, what: string): void {
  if (state.status !== "issued" && state.status !== "exchanged")
    throw new IllegalState(
      `Only issued tickets can be ${what}; this booking is ${state.status}`,
      "not_issued",
    );
  const departure = firstDeparture(state.fare.flights);
  if (departure && new Date(departure) <= now)
    throw new IllegalState("The journey has begun: ask the airline about the unused part", "departed");
}

function assertChangeable(state: ActiveBooking, now: Date): void {
  assertAfterSales(state, now, "changed");
  if (state.refunded_passengers.length > 0)
    throw new IllegalState(
      "Some tickets of this booking were refunded; it can no longer be changed",
      "partly_refunded",
    );
}

/**
 * A refund quote is recorded only for tickets not yet refunded, and never gives back more than the balance paid for
 * a ticket (its price with our markups) or, in all, more than the booking's charges less what refunds returned.
 */
function quoteRefund(
  state: ActiveBooking,
  command: Extract<BookingCommand, { type: "QuoteRefund" }>,
): BookingEventInput[] {
  assertAfterSales(state, command.now, "refunded");
  const { quote } = command;
  for (const line of quote.lines) {
    const ticket = state.tickets.find((t) => t.passenger_index === line.passenger_index);
    if (!ticket || state.refunded_passengers.includes(line.passenger_index))
      throw new IllegalState(
        `Passenger ${line.passenger_index + 1} has no ticket left to refund`,
        "no_such_ticket",
      );
    const type = state.passengers[line.passenger_index]?.type ?? "adult";
    const paid =
      state.price_detail.passengers.find((p) => p.type === type)?.total.amount ?? ticket.total.amount;
    if (line.refundable.amount < 0 || line.refundable.amount > paid)
      throw new IllegalState(
        `The airline quoted more for ticket ${ticket.ticket_number} than was paid for it`,
        "refund_exceeds_charge",
      );
  }
  const left = (state.charged?.amount ?? 0) - (state.refunded?.amount ?? 0);
  if (state.charged && quote.refundable.amount > left)
    throw new IllegalState("The refund would give back more than was charged", "refund_exceeds_charge");
  return [{ type: "RefundQuoted", data: quote }];
}

function startRefund(
  state: ActiveBooking,
  command: Extract<BookingCommand, { type: "StartRefund" }>,
): BookingEventInput[] {
  assertAfterSales(state, command.now, "refunded");
  const quote = state.refund_quote;
  // Only the booking's current quote can be confirmed: another (older, or unknown) is refused and changes nothing,
  // so the quote the agent is looking at stays valid; only an expired current quote is replaced (a fresh one).
  if (!quote)
    throw new IllegalState(
      "This booking has no refund quote to confirm: ask for one",
      "refund_quote_not_found",
    );
  if (quote.quote_id !== command.quote_id)
    throw new Conflict("This is not the booking's current refund quote: here it is", "refund_quote_changed");
  if (new Date(quote.expires_at) <= command.now)
    throw new Conflict("This refund quote has expired: here is a fresh one", "refund_quote_expired");
  return [
    {
      type: "RefundStarted",
      data: { operation_id: command.operation_id, at: command.now.toISOString(), quote_id: quote.quote_id },
    },
  ];
}

/** The claim of an exchange: the offer as priced, still valid; its total is charged to the balance in the same append. */
function startExchange(
  state: ActiveBooking,
  command: Extract<BookingCommand, { type: "StartExchange" }>,
): BookingEventInput[] {
  assertChangeable(state, command.now);
  const request = state.change_request;
  const offer = request?.offers.find((o) => o.reshop_offer_id === command.reshop_offer_id);
  if (!request || !offer)
    throw new Conflict("This offer is no longer priced: price the offers again", "reshop_offer_not_found");
  if (request.expires_at && new Date(request.expires_at) <= command.now)
    throw new Conflict("These offers have expired: price them again", "reshop_offers_expired");
  // Nothing to pay (an even exchange or a residual) needs no card.
  const paidBy = offer.total_due.amount > 0 ? decidePayment(command.payment, command.now) : null;
  const charged =
    state.fake_booking || paidBy?.method !== "balance" || offer.total_due.amount <= 0
      ? null
      : offer.total_due;
  return [
    {
      type: "ExchangeStarted",
      data: {
        operation_id: command.operation_id,
        at: command.now.toISOString(),
        reshop_offer_id: offer.reshop_offer_id,
        charged,
        paid_by: paidBy,
      },
    },
  ];
}

/** Void is allowed until the end of the issue day (UTC) within the channel's window; low-cost carriers allow none. */
export function voidUntil(issuedAt: Date, windowHours: number, lowCost: boolean): Date | null {
  if (lowCost || windowHours === 0) return null;
  const endOfDay = new Date(
    Date.UTC(issuedAt.getUTCFullYear(), issuedAt.getUTCMonth(), issuedAt.getUTCDate(), 23, 59, 59),
  );
  const byWindow = new Date(issuedAt.getTime() + windowHours * 3600_000);
  return byWindow < endOfDay ? byWindow : endOfDay;
}
