import { firstDeparture } from "@skyward/contracts/booking-actions";
import type { BookingEventInput } from "@skyward/contracts/booking-events";
import { allows } from "@skyward/contracts/booking-lifecycle";
import { refuse } from "@skyward/infra/refusal";
import { decidePayment } from "../ticketing/card.ts";
import type { ActiveBooking, BookingCommandOf } from "./booking-state.ts";

/*
 * The after-sales phase of a booking (booking.ts dispatches here): refunds (a quote, then its confirmation) and
 * flights changes (a request, its priced offers, then the exchange).
 */

/** Refunds and changes work on issued (or exchanged) tickets before the journey begins. */
function assertAfterSales(state: ActiveBooking, now: Date, action: "refund" | "exchange"): void {
  if (!allows(state.status, action))
    throw refuse.notAllowed(
      `Only issued tickets can be ${action === "refund" ? "refunded" : "changed"}; this booking is ${state.status}`,
      "not_issued",
    );
  const departure = firstDeparture(state.fare.flights);
  if (departure && new Date(departure) <= now)
    throw refuse.notAllowed("The journey has begun: ask the airline about the unused part", "departed");
}

function assertChangeable(state: ActiveBooking, now: Date): void {
  assertAfterSales(state, now, "exchange");
  if (state.refunded_passengers.length > 0)
    throw refuse.notAllowed(
      "Some tickets of this booking were refunded; it can no longer be changed",
      "partly_refunded",
    );
}

/**
 * A refund quote is recorded only for tickets not yet refunded, and never gives back more than the balance paid for
 * a ticket (its price with our markups) or, in all, more than the booking's charges less what refunds returned.
 */
export function quoteRefund(
  state: ActiveBooking,
  command: BookingCommandOf<"QuoteRefund">,
): BookingEventInput[] {
  assertAfterSales(state, command.now, "refund");
  const { quote } = command;
  for (const line of quote.lines) {
    const ticket = state.tickets.find((t) => t.passenger_index === line.passenger_index);
    if (!ticket || state.refunded_passengers.includes(line.passenger_index))
      throw refuse.notAllowed(
        `Passenger ${line.passenger_index + 1} has no ticket left to refund`,
        "no_such_ticket",
      );
    const type = state.passengers[line.passenger_index]?.type ?? "adult";
    const paid =
      state.price_detail.passengers.find((p) => p.type === type)?.total.amount ?? ticket.total.amount;
    if (line.refundable.amount < 0 || line.refundable.amount > paid)
      throw refuse.notAllowed(
        `The airline quoted more for ticket ${ticket.ticket_number} than was paid for it`,
        "refund_exceeds_charge",
      );
  }
  const left = (state.charged?.amount ?? 0) - (state.refunded?.amount ?? 0);
  if (state.charged && quote.refundable.amount > left)
    throw refuse.notAllowed("The refund would give back more than was charged", "refund_exceeds_charge");
  return [{ type: "RefundQuoted", data: quote }];
}

export function startRefund(
  state: ActiveBooking,
  command: BookingCommandOf<"StartRefund">,
): BookingEventInput[] {
  assertAfterSales(state, command.now, "refund");
  const quote = state.refund_quote;
  // Only the booking's current quote can be confirmed: another (older, or unknown) is refused and changes nothing,
  // so the quote the agent is looking at stays valid; only an expired current quote is replaced (a fresh one).
  if (!quote)
    throw refuse.notAllowed(
      "This booking has no refund quote to confirm: ask for one",
      "refund_quote_not_found",
    );
  if (quote.quote_id !== command.quote_id)
    throw refuse.conflict(
      "This is not the booking's current refund quote: here it is",
      "refund_quote_changed",
    );
  if (new Date(quote.expires_at) <= command.now)
    throw refuse.conflict("This refund quote has expired: here is a fresh one", "refund_quote_expired");
  return [
    {
      type: "RefundStarted",
      data: { operation_id: command.operation_id, at: command.now.toISOString(), quote_id: quote.quote_id },
    },
  ];
}

/** The claim of an exchange: the offer as priced, still valid; its total is charged to the balance in the same append. */
export function startExchange(
  state: ActiveBooking,
  command: BookingCommandOf<"StartExchange">,
): BookingEventInput[] {
  assertChangeable(state, command.now);
  const request = state.change_request;
  const offer = request?.offers.find((o) => o.reshop_offer_id === command.reshop_offer_id);
  if (!request || !offer)
    throw refuse.conflict("This offer is no longer priced: price the offers again", "reshop_offer_not_found");
  if (request.expires_at && new Date(request.expires_at) <= command.now)
    throw refuse.conflict("These offers have expired: price them again", "reshop_offers_expired");
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

export function recordRefundOutcome(
  state: ActiveBooking,
  command: BookingCommandOf<"RecordRefundOutcome">,
): BookingEventInput[] {
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

export function requestFlightsChange(
  state: ActiveBooking,
  command: BookingCommandOf<"RequestFlightsChange">,
): BookingEventInput[] {
  assertChangeable(state, command.now);
  return [
    {
      type: "FlightsChangeRequested",
      data: {
        request_id: command.request_id,
        departure_date: command.departure_date,
        return_date: command.return_date,
        slice: command.slice,
        at: command.now.toISOString(),
      },
    },
  ];
}

export function priceReshopOffers(
  state: ActiveBooking,
  command: BookingCommandOf<"PriceReshopOffers">,
): BookingEventInput[] {
  assertChangeable(state, command.now);
  if (state.change_request?.request_id !== command.request_id)
    throw refuse.conflict(
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
}

export function recordExchangeOutcome(
  state: ActiveBooking,
  command: BookingCommandOf<"RecordExchangeOutcome">,
): BookingEventInput[] {
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
