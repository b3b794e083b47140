import { firstDeparture } from "@skyward/contracts/booking-actions";
import type { BookingEventInput, RefundLine } from "@skyward/contracts/booking-events";
import { allows } from "@skyward/contracts/booking-lifecycle";
import { money } from "@skyward/contracts/money";
import type { ScheduleChangeChoice, ScheduleChangeKind } from "@skyward/contracts/supplier";
import { refuse } from "@skyward/infra/refusal";
import type { ActiveBooking, BookingCommandOf, IssuedBooking } from "./booking-state.ts";
import { hasTickets } from "./booking-state.ts";

/*
 * Schedule changes (issue 24.3): the airline changed an issued booking's flights. The change is recorded once per
 * change id (a notice or the polling job, either may come twice); the agent answers it by a deadline with one
 * supplier operation: accept the new flights, or (a major change, a cancelled flight) an involuntary refund in full,
 * without penalty, which ends as TicketsRefunded like any refund.
 */

/** The agent may answer until 72 hours after the notice, and never later than 2 hours before the first departure. */
export const ANSWER_WITHIN_MS = 72 * 3_600_000;
export const ANSWER_CLOSES_BEFORE_DEPARTURE_MS = 2 * 3_600_000;

/**
 * What the agent may answer: a minor change is only accepted; a major change or a cancellation may also be exchanged
 * to an alternative the airline offers, or refunded.
 */
export const choicesFor = (kind: ScheduleChangeKind, alternatives: number): ScheduleChangeChoice[] =>
  kind === "minor" ? ["accept"] : alternatives > 0 ? ["accept", "exchange", "refund"] : ["accept", "refund"];

/** Until when the agent may answer a change notified at `notifiedAt` on these flights. */
export function respondBy(notifiedAt: Date, departure: string | null): Date {
  const within = notifiedAt.getTime() + ANSWER_WITHIN_MS;
  const closes = departure ? Date.parse(departure) - ANSWER_CLOSES_BEFORE_DEPARTURE_MS : within;
  return new Date(Math.min(within, closes));
}

/** Records the airline's change once; a change already recorded (a repeat notice) or on tickets gone records nothing. */
export function recordScheduleChange(
  state: ActiveBooking,
  command: BookingCommandOf<"RecordScheduleChange">,
): BookingEventInput[] {
  const { change, now } = command;
  if (!hasTickets(state) || !allows(state.status, "answer_schedule_change")) return [];
  if (state.schedule_change?.change_id === change.change_id) return [];
  const notified = new Date(change.notified_at);
  return [
    {
      type: "ScheduleChanged",
      data: {
        change_id: change.change_id,
        kind: change.kind,
        old_flights: change.old_flights,
        new_flights: change.new_flights,
        alternatives: change.kind === "minor" ? [] : change.alternatives,
        notified_at: change.notified_at,
        respond_by: respondBy(notified, firstDeparture(change.old_flights)).toISOString(),
        choices: choicesFor(change.kind, change.alternatives.length),
        at: now.toISOString(),
      },
    },
  ];
}

/** The claim of the agent's answer: the change waiting, not answered, the choice allowed, before its deadline. */
export function startScheduleChangeAnswer(
  state: ActiveBooking,
  command: BookingCommandOf<"StartScheduleChangeAnswer">,
): BookingEventInput[] {
  if (!allows(state.status, "answer_schedule_change"))
    throw refuse.notAllowed(
      `Only issued tickets can answer a schedule change; this booking is ${state.status}`,
      "not_issued",
    );
  const change = state.schedule_change;
  if (!change)
    throw refuse.notAllowed("The airline has not changed this booking's flights", "no_schedule_change");
  if (change.change_id !== command.change_id)
    throw refuse.conflict(
      "This is not the booking's current schedule change: reload the booking",
      "schedule_change_changed",
    );
  if (change.answer)
    throw refuse.conflict(
      `This schedule change was already answered (${change.answer})`,
      "schedule_change_answered",
    );
  if (!change.choices.includes(command.choice))
    throw refuse.invalid([
      {
        pointer: "/choice",
        detail: `A ${change.kind} schedule change can only be answered with ${change.choices.join(" or ")}`,
      },
    ]);
  const option =
    command.choice === "exchange" ? change.alternatives.find((a) => a.option_id === command.option_id) : null;
  if (command.choice === "exchange" && !option)
    throw refuse.invalid([{ pointer: "/option_id", detail: "is not one of the change's alternatives" }]);
  if (new Date(change.respond_by) <= command.now)
    throw refuse.notAllowed(
      `The answer to this schedule change was due by ${change.respond_by}: ask the airline`,
      "schedule_change_deadline_passed",
    );
  return [
    {
      type: "ScheduleChangeAnswerStarted",
      data: {
        operation_id: command.operation_id,
        at: command.now.toISOString(),
        change_id: change.change_id,
        choice: command.choice,
        option_id: option?.option_id ?? null,
      },
    },
  ];
}

/** The answer's outcome: the new flights accepted, the tickets refunded in full, or the airline's failure. */
export function recordScheduleChangeOutcome(
  state: ActiveBooking,
  command: BookingCommandOf<"RecordScheduleChangeOutcome">,
): BookingEventInput[] {
  const open = state.operation;
  if (open?.id !== command.operation_id || open.kind !== "schedule_change") return [];
  const { outcome } = command;
  const change = state.schedule_change;
  if (!outcome.ok || !change || change.change_id !== open.change_id || !hasTickets(state)) {
    const failure = outcome.ok
      ? { code: "schedule_change_changed", reason: "The schedule change changed while it was answered" }
      : { code: outcome.code, reason: outcome.reason };
    return [{ type: "ScheduleChangeAnswerFailed", data: { operation_id: open.id, ...failure } }];
  }
  const at = command.now.toISOString();
  if (open.choice === "accept")
    return [
      {
        type: "ScheduleChangeAccepted",
        data: {
          operation_id: open.id,
          at,
          change_id: change.change_id,
          flights: change.new_flights,
          supplier_booking: outcome.done.supplier_booking,
        },
      },
    ];
  if (open.choice === "exchange") {
    const option = change.alternatives.find((a) => a.option_id === open.option_id);
    const supplierBooking = outcome.done.supplier_booking;
    if (!option || !supplierBooking)
      return [
        {
          type: "ScheduleChangeAnswerFailed",
          data: { operation_id: open.id, code: "schedule_change_changed", reason: "The alternative is gone" },
        },
      ];
    // New tickets on the other flight, at the price paid: no fare difference, no fee, nothing charged.
    return [
      {
        type: "TicketsExchanged",
        data: {
          operation_id: open.id,
          reshop_offer_id: option.option_id,
          old_tickets: state.tickets.map((t) => t.ticket_number),
          tickets: supplierBooking.tickets,
          fare: {
            ...state.fare,
            departure_at: option.flights[0]?.departure_at ?? state.fare.departure_at,
            flights: option.flights,
          },
          price: state.price,
          price_detail: state.price_detail,
          exchanged_at: at,
          supplier_booking: supplierBooking,
        },
      },
    ];
  }
  const lines = involuntaryRefundLines(state);
  const refundable = lines.reduce((sum, l) => sum + l.refundable.amount, 0);
  // Never more back than the balance paid and refunds have not returned yet.
  const left = (state.charged?.amount ?? 0) - (state.refunded?.amount ?? 0);
  const credited =
    state.charged && Math.min(refundable, left) > 0
      ? money(Math.min(refundable, left), state.price.currency)
      : null;
  return [
    {
      type: "TicketsRefunded",
      data: {
        operation_id: open.id,
        at,
        quote_id: change.change_id,
        lines,
        credited,
        supplier_booking: outcome.done.supplier_booking,
      },
    },
  ];
}

/** Every ticket still open, back in full: what was paid for it with our markups and fee, no penalty kept. */
export function involuntaryRefundLines(state: IssuedBooking): RefundLine[] {
  const currency = state.price.currency;
  const zero = money(0, currency);
  return state.tickets
    .filter((t) => !state.refunded_passengers.includes(t.passenger_index))
    .map((ticket) => {
      const type = state.passengers[ticket.passenger_index]?.type ?? "adult";
      const paid = state.price_detail.passengers.find((p) => p.type === type)?.total ?? ticket.total;
      return {
        passenger_index: ticket.passenger_index,
        ticket_number: ticket.ticket_number,
        fare_refund: money(paid.amount - ticket.taxes.amount, currency),
        taxes_refund: money(ticket.taxes.amount, currency),
        penalty: zero,
        non_refundable: zero,
        refundable: money(paid.amount, currency),
      };
    });
}
