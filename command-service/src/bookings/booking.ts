import type { BookingCommand } from "@skyward/contracts/booking-commands";
import {
  type BookingEvent,
  type BookingEventInput,
  type BookingHeld,
  type BookingModified,
  StoredBookingEvent,
  type SupplierOperationKind,
} from "@skyward/contracts/booking-events";
import type { Money } from "@skyward/contracts/money";
import type { PriceDetail, SupplierPrice } from "@skyward/contracts/offers";
import type { Ticket } from "@skyward/contracts/supplier";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { Conflict, IllegalState } from "@skyward/infra/http/errors";

export type { BookingHeld } from "@skyward/contracts/booking-events";

export const bookingStream = (locator: string) => `booking-${locator}`;

/** A supplier operation claimed by its "started" event and not yet recorded as done or failed. */
export interface OpenOperation {
  id: string;
  kind: SupplierOperationKind;
  started_at: string;
  /** What the company balance was charged when the operation started (issue only). */
  charged: Money | null;
}

interface Booked extends BookingHeld {
  tickets: Ticket[];
  /** What the company balance paid for the tickets; credited back by a void. */
  charged: Money | null;
  issued_at: string | null;
  void_until: string | null;
  /** A price the supplier quoted at a failed issue, waiting for the agent to accept it (issue with reshop). */
  pending_price: { price: Money; price_detail: PriceDetail; supplier_price: SupplierPrice | null } | null;
  comments: { text: string; at: string; by: string | null }[];
  /** The supplier operation in flight, if any: only comments and contact changes are accepted meanwhile. */
  operation: OpenOperation | null;
}

/** "ticketing" always has its issue operation open; void and cancel operations run on "issued" and "held". */
export type ActiveBooking = Booked & {
  status: "held" | "ticketing" | "issued" | "voided" | "cancelled" | "expired" | "failed";
};
export type BookingState = { status: "none" } | ActiveBooking;
export type BookingStatus = ActiveBooking["status"];
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
      status: event.data.provider_status === "failed" ? "failed" : "held",
      tickets: [],
      charged: null,
      issued_at: null,
      void_until: null,
      pending_price: null,
      comments: [],
      operation: null,
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
        status: "failed",
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
      return { ...closed, status: "voided" };
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
    default:
      return assertNever(event);
  }
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
  IssuedOutcome,
  OperationOutcome,
  PriceChange,
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
      return true;
    case "ModifyBooking":
      return command.change.passengers === undefined || command.change.passengers.length === 0;
    case "HoldBooking":
    case "SettleProviderStatus":
    case "StartIssue":
    case "StartVoid":
    case "StartCancel":
    case "CancelFailedBooking":
    case "ExpireBooking":
    case "RepriceBooking":
      return false;
    default:
      return assertNever(command);
  }
}

/** The booking decider: the events a command appends on this state, or a named domain error. */
export function decide(command: BookingCommand, state: BookingState): BookingEventInput[] {
  if (command.type === "HoldBooking") {
    if (state.status !== "none") throw new Conflict("This locator is already taken", "locator_taken");
    return [{ type: "BookingHeld", data: command.held }];
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
        return [{ type: "TicketsIssued", data: { operation_id: command.operation_id, ...outcome.done } }];
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
                credited: state.charged,
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
    case "CancelFailedBooking":
      // The airline already dropped a failed booking: nothing to ask it, the booking is closed here.
      if (state.status !== "failed")
        throw new IllegalState(
          `Only held bookings can be cancelled; this booking is ${state.status}`,
          "not_held",
        );
      return [{ type: "BookingCancelled", data: { operation_id: null, at: command.now.toISOString() } }];
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
    case "ModifyBooking":
      if (state.status !== "held" && state.status !== "issued" && state.status !== "ticketing") {
        throw new IllegalState(`A ${state.status} booking cannot be modified`, "not_modifiable");
      }
      for (const p of command.change.passengers ?? []) {
        if (p.index >= state.passengers.length)
          throw new IllegalState(`There is no passenger ${p.index + 1}`, "no_such_passenger");
      }
      return [{ type: "BookingModified", data: command.change }];
    default:
      return assertNever(command);
  }
}

/**
 * The claim of an issue: only one issue reaches the supplier. Issuing "with reshop" first accepts the price the
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
    case "voided":
    case "cancelled":
    case "expired":
    case "failed":
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
  const charged = state.fake_booking || command.pays_by_card ? null : price;
  events.push({
    type: "TicketingStarted",
    data: { operation_id: command.operation_id, at: command.now.toISOString(), charged },
  });
  return events;
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

export function assertNever(value: never): never {
  throw new Error(`unhandled ${JSON.stringify(value)}`);
}
