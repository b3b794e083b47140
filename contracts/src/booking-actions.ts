import type { RefundLine } from "./booking-events.ts";
import { allows } from "./booking-lifecycle.ts";
import type { BookingAction, BookingStatus, IssueCharge } from "./bookings.ts";
import { heldUntil } from "./deadline-events.ts";
import { type Money, money } from "./money.ts";
import type { FarePenalty, Flight, PassengerType, PriceDetail } from "./offers.ts";
import type { Ticket } from "./supplier.ts";

/**
 * "What can I do now" on a booking: the one rule the booking page shows (the front end copies none of it). What each
 * status allows is the lifecycle table's (booking-lifecycle.ts), as on the command side, which decides the same
 * conditions and refuses with the same codes; money here is what the fare rules say,
 * the airline's quote is the word when the agent asks for it.
 */
export interface BookingFacts {
  status: BookingStatus;
  fake_booking: boolean;
  provider_status: "confirmed" | "in_progress" | "failed";
  price: Money;
  price_detail: PriceDetail;
  time_limit: string | null;
  /** The agency cancels its held bookings shortly before the time limit (`auto_cancel_held_on`). */
  auto_cancel: boolean;
  void_until: string | null;
  operation: { kind: string } | null;
  tickets: Ticket[];
  passengers: { type: PassengerType }[];
  refunded_passengers: number[];
  fare: { fare: { penalty: FarePenalty }; flights: Flight[] };
  /** Bags and seats with their state: what a void gives back counts the EMDs still open. */
  ancillaries: { status: string; price: Money }[];
  /** The airline's latest schedule change and its answer (null while it waits); absent or null: none. */
  schedule_change?: { answer: string | null; respond_by: string } | null;
}

/** Our markups and fee on one passenger's ticket: the agency keeps them on a refund (its policy). */
export function nonRefundableOf(detail: PriceDetail, type: PassengerType): Money {
  const line = detail.passengers.find((p) => p.type === type) ?? detail.passengers[0];
  const currency = detail.total.currency;
  if (!line) return money(0, currency);
  return money(
    line.agency_markup.amount + line.company_markup.amount + line.transaction_fee.amount,
    currency,
  );
}

/** When a held booking is really lost: the agency's automatic cancellation, else the airline's time limit. */
export function lostAt(facts: Pick<BookingFacts, "time_limit" | "auto_cancel">): string | null {
  return facts.time_limit ? heldUntil(new Date(facts.time_limit), facts.auto_cancel).toISOString() : null;
}

/** Departure of the first segment still to fly, or null when every segment has left. */
export function firstDeparture(flights: Flight[]): string | null {
  return flights[0]?.segments[0]?.departure_at ?? null;
}

/**
 * A refund from the fare rules, before departure: the fare under the "refund before departure" rule less its
 * penalty (never more than the fare; infants pay none), plus the taxes, which always go back. Used for bookings no
 * airline holds (demo) and as the estimate the booking page shows.
 */
export function refundFromRules(
  facts: Pick<BookingFacts, "fare" | "tickets" | "passengers" | "price_detail">,
  passengerIndexes: number[],
): RefundLine[] {
  const rule = facts.fare.fare.penalty.refund_before_departure;
  return facts.tickets
    .filter((t) => passengerIndexes.includes(t.passenger_index))
    .map((ticket) => {
      const currency = ticket.total.currency;
      const type = facts.passengers[ticket.passenger_index]?.type ?? "adult";
      const fare = rule.allowed ? ticket.base_fare.amount : 0;
      const penalty = rule.allowed && type !== "infant" ? Math.min(rule.fee.amount, fare) : 0;
      return {
        passenger_index: ticket.passenger_index,
        ticket_number: ticket.ticket_number,
        fare_refund: money(fare, currency),
        taxes_refund: ticket.taxes,
        penalty: money(penalty, currency),
        non_refundable: nonRefundableOf(facts.price_detail, type),
        refundable: money(fare - penalty + ticket.taxes.amount, currency),
      };
    });
}

export const unrefundedPassengers = (facts: Pick<BookingFacts, "tickets" | "refunded_passengers">) =>
  facts.tickets.map((t) => t.passenger_index).filter((i) => !facts.refunded_passengers.includes(i));

const sum = (amounts: Money[], currency: string) =>
  money(
    amounts.reduce((total, m) => total + m.amount, 0),
    currency,
  );

/** The bags and seats added while the booking was held: they are paid with the tickets, at issue. */
export function heldExtras(lines: readonly { status: string; price: Money }[], currency: string): Money {
  return sum(
    lines.filter((l) => l.status === "held").map((l) => l.price),
    currency,
  );
}

/** What issue charges: the fare (the booking's price) plus the extras added while held. */
export function issueCharge(price: Money, lines: readonly { status: string; price: Money }[]): IssueCharge {
  const extras = heldExtras(lines, price.currency);
  return { fare: price, extras, total: money(price.amount + extras.amount, price.currency) };
}

type Verdict = Omit<BookingAction, "action">;
const refused = (reason_code: string, reason: string): Verdict => ({
  allowed: false,
  deadline: null,
  money: null,
  estimate: false,
  reason_code,
  reason,
});
const IN_FLIGHT = (kind: string) =>
  refused("operation_in_progress", `The booking is being completed (${kind}); wait a moment`);

/** Every action of the booking page, allowed now or refused with its reason. */
export function bookingActions(facts: BookingFacts, now: Date): BookingAction[] {
  return [
    { action: "issue", ...issueVerdict(facts, now) },
    { action: "cancel", ...cancelVerdict(facts, now) },
    { action: "void", ...voidVerdict(facts, now) },
    { action: "refund", ...refundVerdict(facts, now) },
    { action: "exchange", ...exchangeVerdict(facts, now) },
    { action: "add_bags", ...addBagsVerdict(facts, now) },
    { action: "answer_schedule_change", ...scheduleChangeVerdict(facts, now) },
  ];
}

function issueVerdict(f: BookingFacts, now: Date): Verdict {
  if (f.operation) return IN_FLIGHT(f.operation.kind);
  if (f.provider_status === "failed")
    return refused("provider_failed", "The airline did not confirm this booking: it holds no seats");
  if (!allows(f.status, "issue"))
    return refused("not_held", `Only held bookings can be issued; this one is ${f.status}`);
  if (f.provider_status !== "confirmed")
    return refused("provider_in_progress", "The airline has not confirmed this booking yet");
  if (f.time_limit && new Date(f.time_limit) <= now)
    return refused("time_limit_passed", "The time limit of this booking has passed");
  return {
    ...refused("", ""),
    allowed: true,
    deadline: lostAt(f),
    money: issueCharge(f.price, f.ancillaries).total,
    reason_code: null,
    reason: null,
  };
}

function cancelVerdict(f: BookingFacts, now: Date): Verdict {
  if (f.operation) return IN_FLIGHT(f.operation.kind);
  if (f.provider_status === "failed")
    return refused("provider_failed", "The airline did not confirm this booking: it holds no seats");
  if (!allows(f.status, "cancel"))
    return refused("not_held", `Only held bookings can be cancelled; this one is ${f.status}`);
  const until = lostAt(f);
  const deadline = until && new Date(until) > now ? until : null;
  return { ...refused("", ""), allowed: true, deadline, reason_code: null, reason: null };
}

function voidVerdict(f: BookingFacts, now: Date): Verdict {
  if (f.operation) return IN_FLIGHT(f.operation.kind);
  if (!allows(f.status, "void"))
    return refused("not_issued", `Only issued tickets can be voided; this booking is ${f.status}`);
  if (f.refunded_passengers.length > 0)
    return refused(
      "partly_refunded",
      "Some tickets of this booking were refunded: refund the others instead",
    );
  if (!f.void_until || new Date(f.void_until) < now)
    return refused(
      "void_window_closed",
      "The void window of these tickets has closed; request a refund instead",
    );
  return {
    allowed: true,
    deadline: f.void_until,
    money: voidGivesBack(f),
    estimate: false,
    reason_code: null,
    reason: null,
  };
}

/**
 * What a void credits: the tickets and every EMD still open (bought with the tickets or after), so the charge less
 * the EMD refunds already credited; a line still held never reached the airline, a refunded one came back already.
 */
export function voidGivesBack(f: Pick<BookingFacts, "price" | "ancillaries">): Money {
  const open = f.ancillaries.filter(
    (l) => l.status !== "held" && l.status !== "refunded" && l.status !== "voided",
  );
  return sum([f.price, ...open.map((l) => l.price)], f.price.currency);
}

function afterSalesRefusal(f: BookingFacts, now: Date, action: "refund" | "exchange"): Verdict | null {
  if (f.operation) return IN_FLIGHT(f.operation.kind);
  if (!allows(f.status, action))
    return refused(
      "not_issued",
      `Only issued tickets can be refunded or changed; this booking is ${f.status}`,
    );
  const departure = firstDeparture(f.fare.flights);
  if (departure && new Date(departure) <= now)
    return refused("departed", "The journey has begun: ask the airline about the unused part");
  return null;
}

function refundVerdict(f: BookingFacts, now: Date): Verdict {
  const refusal = afterSalesRefusal(f, now, "refund");
  if (refusal) return refusal;
  const lines = refundFromRules(f, unrefundedPassengers(f));
  return {
    allowed: true,
    deadline: firstDeparture(f.fare.flights),
    money: sum(
      lines.map((l) => l.refundable),
      f.price.currency,
    ),
    estimate: true,
    reason_code: null,
    reason: null,
  };
}

function exchangeVerdict(f: BookingFacts, now: Date): Verdict {
  const refusal = afterSalesRefusal(f, now, "exchange");
  if (refusal) return refusal;
  if (f.fake_booking) return refused("not_exchangeable", "A demo booking has no airline to exchange it with");
  if (f.refunded_passengers.length > 0)
    return refused(
      "partly_refunded",
      "Some tickets of this booking were refunded; it can no longer be changed",
    );
  const rule = f.fare.fare.penalty.change_before_departure;
  if (!rule.allowed)
    return refused("changes_not_permitted", "The fare of these tickets does not allow changes");
  const seated = f.passengers.filter((p) => p.type !== "infant").length;
  return {
    allowed: true,
    deadline: firstDeparture(f.fare.flights),
    money: money(rule.fee.amount * seated, rule.fee.currency),
    estimate: true,
    reason_code: null,
    reason: null,
  };
}

/** The airline's schedule change waiting for the agent's answer, until its deadline (issue 24.3). */
function scheduleChangeVerdict(f: BookingFacts, now: Date): Verdict {
  if (f.operation) return IN_FLIGHT(f.operation.kind);
  if (!allows(f.status, "answer_schedule_change"))
    return refused(
      "not_issued",
      `Only issued tickets can answer a schedule change; this booking is ${f.status}`,
    );
  const change = f.schedule_change;
  if (!change || change.answer !== null)
    return refused("no_schedule_change", "The airline has no change on this booking waiting for an answer");
  if (new Date(change.respond_by) <= now)
    return refused(
      "schedule_change_deadline_passed",
      `The answer to this schedule change was due by ${change.respond_by}: ask the airline`,
    );
  return {
    allowed: true,
    deadline: change.respond_by,
    money: null,
    estimate: false,
    reason_code: null,
    reason: null,
  };
}

/**
 * Bags (and seats) can be added to a held booking the airline confirmed, within its time limit (paid with the
 * tickets), or to issued tickets before departure (EMDs charged now).
 */
function addBagsVerdict(f: BookingFacts, now: Date): Verdict {
  if (f.operation) return IN_FLIGHT(f.operation.kind);
  const allowed = (deadline: string | null): Verdict => ({
    ...refused("", ""),
    allowed: true,
    deadline,
    reason_code: null,
    reason: null,
  });
  if (f.status === "held") {
    if (f.provider_status !== "confirmed")
      return refused("provider_in_progress", "The airline has not confirmed this booking yet");
    if (f.time_limit && new Date(f.time_limit) <= now)
      return refused("time_limit_passed", "The time limit of this booking has passed");
    return allowed(lostAt(f));
  }
  if (!allows(f.status, "add_bags"))
    return refused("not_issued", `Bags can be added to held or issued bookings; this one is ${f.status}`);
  const departure = firstDeparture(f.fare.flights);
  if (departure && new Date(departure) <= now)
    return refused("departed", "The journey has begun: ask the airline at the airport");
  return allowed(departure);
}
