import { describe, expect, it } from "@jest/globals";
import { BookingEvent, type BookingEventInput, type BookingHeld } from "@skyward/contracts/booking-events";
import type { PriceDetail } from "@skyward/contracts/offers";
import type { ScheduleChange, Ticket } from "@skyward/contracts/supplier";
import { heldBooking } from "../testing/booking-fixture.ts";
import { deciderKit } from "../testing/decider-kit.ts";
import { type BookingCommand, type BookingState, decide, evolve, initialBooking } from "./booking.ts";

/** The schedule-change decisions (booking-schedule-change.ts): given events, when a command, then events or a refusal. */

const price = { amount: 250_00, currency: "UAH" };
// What the decider reads of the price detail: the adult's total with our markups.
const held = heldBooking({
  price_detail: { passengers: [{ type: "adult", total: price }] } as PriceDetail,
});
const now = new Date("2026-11-21T13:00:00.000Z");
const at = now.toISOString();
const ticket: Ticket = {
  ticket_number: "5662100000001",
  passenger_index: 0,
  passenger_name: "PETRENKO/IVAN",
  validating_carrier: "PS",
  base_fare: { amount: 200_00, currency: "UAH" },
  taxes: { amount: 30_00, currency: "UAH" },
  total: { amount: 230_00, currency: "UAH" },
};
const Held: BookingEvent = {
  type: "BookingHeld",
  data: { ...held, passengers: [{ type: "adult" }] as BookingHeld["passengers"] },
};
const given0 = [
  Held,
  {
    type: "TicketingStarted",
    data: { operation_id: "op-0", at, charged: price, paid_by: { method: "balance" } },
  },
  {
    type: "TicketsIssued",
    data: {
      operation_id: "op-0",
      tickets: [ticket],
      issued_at: at,
      void_until: null,
      supplier_booking: null,
    },
  },
] as BookingEvent[];
const change = (kind: ScheduleChange["kind"] = "major"): ScheduleChange => ({
  change_id: "SC1",
  kind,
  old_flights: [],
  new_flights: [],
  alternatives: [],
  notified_at: at,
});
const Changed = (kind: ScheduleChange["kind"] = "major"): BookingEvent => ({
  type: "ScheduleChanged",
  data: {
    ...change(kind),
    respond_by: new Date(now.getTime() + 72 * 3_600_000).toISOString(),
    choices: kind === "minor" ? ["accept"] : ["accept", "refund"],
    at,
  },
});
const Started = (choice: "accept" | "refund"): BookingEvent => ({
  type: "ScheduleChangeAnswerStarted",
  data: { operation_id: "op-1", at, change_id: "SC1", choice, option_id: null },
});
const answer = (choice: "accept" | "exchange" | "refund", when = now): BookingCommand => ({
  type: "StartScheduleChangeAnswer",
  operation_id: "op-1",
  change_id: "SC1",
  choice,
  option_id: null,
  now: when,
});
const outcome = (ok = true): BookingCommand => ({
  type: "RecordScheduleChangeOutcome",
  operation_id: "op-1",
  now,
  outcome: ok ? { ok: true, done: { supplier_booking: null } } : { ok: false, code: "x", reason: "no" },
});

const { given } = deciderKit<BookingCommand, BookingState, BookingEvent, BookingEventInput>({
  decide,
  evolve,
  initial: initialBooking,
  check: (e) => {
    if (e.type !== "BookingHeld") BookingEvent.parse(e);
  },
});

describe("recording the airline's change", () => {
  it("when a change is notified on issued tickets, then it is recorded with its choices and deadline; the same change again records nothing", () => {
    given(...given0)
      .when({ type: "RecordScheduleChange", change: change(), now })
      .thenEvents([Changed() as BookingEventInput]);
    given(...given0, Changed())
      .when({ type: "RecordScheduleChange", change: change(), now })
      .thenEvents([]);
  });

  it("when a change is notified on a held booking, then nothing is recorded", () => {
    given(Held).when({ type: "RecordScheduleChange", change: change(), now }).thenEvents([]);
  });
});

describe("answering it", () => {
  it("when the agent answers, then the claim names the change and the choice", () => {
    given(...given0, Changed())
      .when(answer("refund"))
      .thenEvents([Started("refund") as BookingEventInput]);
  });

  it("when the answer is not allowed, then it is refused by kind", () => {
    given(...given0)
      .when(answer("accept"))
      .thenRefused("no_schedule_change", 422);
    given(...given0, Changed("minor"))
      .when(answer("refund"))
      .thenRefused("invalid_input", 422);
    given(...given0, Changed())
      .when(answer("exchange"))
      .thenRefused("invalid_input", 422);
    given(...given0, Changed())
      .when(answer("accept", new Date(now.getTime() + 73 * 3_600_000)))
      .thenRefused("schedule_change_deadline_passed", 422);
    given(...given0, Changed(), Started("accept"))
      .when(answer("refund"))
      .thenRefused("operation_in_progress", 409);
  });

  it("when an involuntary refund is done, then every open ticket comes back in full, no penalty, credited once; a second answer is refused", () => {
    const [refunded] = given(...given0, Changed(), Started("refund"))
      .when(outcome())
      .thenEvents([
        {
          type: "TicketsRefunded",
          data: {
            operation_id: "op-1",
            at,
            quote_id: "SC1",
            lines: [
              {
                passenger_index: 0,
                ticket_number: ticket.ticket_number,
                fare_refund: { amount: 220_00, currency: "UAH" },
                taxes_refund: { amount: 30_00, currency: "UAH" },
                penalty: { amount: 0, currency: "UAH" },
                non_refundable: { amount: 0, currency: "UAH" },
                refundable: price,
              },
            ],
            credited: price,
            supplier_booking: null,
          },
        },
      ]);
    const after = given(...given0, Changed(), Started("refund"), refunded as BookingEvent);
    expect(after.state).toMatchObject({ status: "refunded", schedule_change: { answer: "refund" } });
    after.when(answer("refund")).thenRefused("not_issued", 422);
  });

  it("when an accept is done, then the booking flies the new flights; a failure closes the operation and leaves the change waiting", () => {
    given(...given0, Changed(), Started("accept"))
      .when(outcome())
      .thenEvents([
        {
          type: "ScheduleChangeAccepted",
          data: { operation_id: "op-1", at, change_id: "SC1", flights: [], supplier_booking: null },
        },
      ]);
    const [failed] = given(...given0, Changed(), Started("accept"))
      .when(outcome(false))
      .thenEvents([
        { type: "ScheduleChangeAnswerFailed", data: { operation_id: "op-1", code: "x", reason: "no" } },
      ]);
    const after = given(...given0, Changed(), Started("accept"), BookingEvent.parse(failed));
    expect(after.state).toMatchObject({ operation: null, schedule_change: { answer: null } });
  });
});
