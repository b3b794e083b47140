import { issueCharge } from "@skyward/contracts/booking-actions";
import type { BookingEventInput } from "@skyward/contracts/booking-events";
import { allows } from "@skyward/contracts/booking-lifecycle";
import { refuse } from "@skyward/infra/refusal";
import { emdsAtIssue } from "../ancillaries/decider.ts";
import { decidePayment } from "../ticketing/card.ts";
import type { ActiveBooking, BookingCommandOf } from "./booking-state.ts";

/* The ticketing phase of a booking (booking.ts dispatches here): the claim of an issue and its outcome. */

/**
 * The claim of an issue: only one issue reaches the supplier. An issue accepting the pending price first takes the price the
 * supplier quoted at the last attempt. `TicketingStarted.charged` is what the company balance is charged in the
 * same append (null when nothing moves: a fake booking or a card form of payment).
 */
export function startIssue(
  state: ActiveBooking,
  command: BookingCommandOf<"StartIssue">,
): BookingEventInput[] {
  const status = state.status;
  if (!allows(status, "issue")) {
    switch (status) {
      case "ticketing":
        throw refuse.conflict("This booking is being issued right now", "issue_in_progress");
      case "issued":
      case "exchanged":
        throw refuse.notAllowed("This booking is already issued", "already_issued");
      default:
        throw refuse.notAllowed(`This booking is ${status} and cannot be issued`, `booking_${status}`);
    }
  }
  if (state.provider_status !== "confirmed") {
    throw refuse.notAllowed("The airline has not confirmed this booking yet", "provider_in_progress");
  }
  if (state.time_limit && new Date(state.time_limit) <= command.now) {
    throw refuse.notAllowed("The time limit of this booking has passed", "time_limit_passed");
  }
  const events: BookingEventInput[] = [];
  let price = state.price;
  if (state.pending_price) {
    if (!command.accept_pending_price) {
      throw refuse.notAllowed(
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

export function recordIssueOutcome(
  state: ActiveBooking,
  command: BookingCommandOf<"RecordIssueOutcome">,
): BookingEventInput[] {
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
