import { randomUUID } from "node:crypto";
import { nonRefundableOf, refundFromRules, unrefundedPassengers } from "@skyward/contracts/booking-actions";
import type { RefundLine, RefundQuoted } from "@skyward/contracts/booking-events";
import { allows } from "@skyward/contracts/booking-lifecycle";
import type { RefundConfirmResponse, RefundQuoteResponse } from "@skyward/contracts/bookings";
import { money } from "@skyward/contracts/money";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { Conflict, type DomainError, IllegalState } from "@skyward/infra/http/errors";
import { asHttpError } from "@skyward/infra/http/refusals";
import type { CommandDeps } from "../../deps.ts";
import { sellingContext, supplierCall } from "../../offers/selling-context.ts";
import type { ActiveBooking } from "../booking.ts";
import { onBooking } from "../execute.ts";
import { assertSucceeded, runSupplierOperation } from "../supplier-operation.ts";
import { readBooking } from "./read-booking.ts";

/** A quote of a booking no airline holds (demo) lives as long as the sandbox airline's do. */
const LOCAL_QUOTE_VALIDITY_MS = 30 * 60_000;

/**
 * POST /orders/{locator}/refund_requests/create: the airline's quote for the tickets of these passengers (all still
 * open when none are named), with our markups and fee shown as kept, recorded on the booking for confirmation.
 */
export async function createRefundQuote(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  passengers: number[] | undefined,
): Promise<RefundQuoteResponse> {
  const booking = await readBooking(deps, principal, locator);
  if (!allows(booking.status, "refund"))
    throw new IllegalState(
      `Only issued tickets can be refunded; this booking is ${booking.status}`,
      "not_issued",
    );
  const open = unrefundedPassengers(booking);
  const wanted = passengers ? [...new Set(passengers)] : open;
  const missing = wanted.filter((i) => !open.includes(i));
  if (missing.length > 0 || wanted.length === 0)
    throw new IllegalState(
      missing.length > 0
        ? `Passenger ${(missing[0] ?? 0) + 1} has no ticket left to refund`
        : "This booking has no ticket left to refund",
      "no_such_ticket",
    );
  const quote = await quoteFor(deps, principal, booking, wanted);
  const { position } = await onBooking(deps, { principal, context }, locator, () => ({
    type: "QuoteRefund",
    quote,
    now: deps.now(),
  }));
  return { locator, quote, position };
}

async function quoteFor(
  deps: CommandDeps,
  principal: Principal,
  booking: ActiveBooking,
  passengers: number[],
): Promise<RefundQuoted> {
  const now = deps.now();
  const currency = booking.price.currency;
  if (booking.fake_booking || !booking.supplier_booking) {
    const lines = refundFromRules(booking, passengers);
    return summed(lines, currency, {
      quote_id: randomUUID(),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LOCAL_QUOTE_VALIDITY_MS).toISOString(),
      supplier_quote: null,
    });
  }
  const ctx = await sellingContext(deps, principal, booking.company_id, booking.channel_id);
  const supplierQuote = await deps.supplier.refundQuote(
    { booking: booking.supplier_booking, passenger_indexes: passengers },
    supplierCall(now, ctx),
  );
  const lines = supplierQuote.lines.map((line) => ({
    ...line,
    non_refundable: nonRefundableOf(
      booking.price_detail,
      booking.passengers[line.passenger_index]?.type ?? "adult",
    ),
  }));
  return summed(lines, currency, {
    quote_id: supplierQuote.quote_id,
    created_at: supplierQuote.created_at,
    expires_at: supplierQuote.expires_at,
    supplier_quote: supplierQuote,
  });
}

function summed(
  lines: RefundLine[],
  currency: string,
  rest: Pick<RefundQuoted, "quote_id" | "created_at" | "expires_at" | "supplier_quote">,
): RefundQuoted {
  const sum = (pick: (l: RefundLine) => { amount: number }) =>
    money(
      lines.reduce((total, l) => total + pick(l).amount, 0),
      currency,
    );
  return {
    ...rest,
    lines,
    penalty: sum((l) => l.penalty),
    non_refundable: sum((l) => l.non_refundable),
    refundable: sum((l) => l.refundable),
  };
}

/**
 * The confirm of a quote that expired (the reason and a fresh quote for the same passengers) or is not the current
 * one (the reason and the current quote, unchanged).
 */
export type RefundConfirmation =
  | ({ outcome: "refunded" } & RefundConfirmResponse)
  | { outcome: "requoted"; error: DomainError; quote: RefundQuoted; position: string | null };

/**
 * POST /orders/{locator}/refund_requests/confirm: claims the booking with the quote (one confirm wins), refunds at
 * the airline idempotently on the operation id, and credits the quoted amount in the append that records it.
 */
export async function confirmRefund(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  quoteId: string,
): Promise<RefundConfirmation> {
  const actor = { principal, context };
  let run: Awaited<ReturnType<typeof runSupplierOperation>>;
  try {
    run = await runSupplierOperation(deps, actor, locator, {
      start: (_booking, operationId) => ({
        type: "StartRefund",
        operation_id: operationId,
        quote_id: quoteId,
        now: deps.now(),
      }),
    });
  } catch (error) {
    // The decider's conflicts over the quote answer a fresh or the current quote with the refusal (409).
    const refused = asHttpError(error);
    if (!(refused instanceof Conflict)) throw error;
    if (refused.code === "refund_quote_expired") return requote(deps, context, principal, locator, refused);
    if (refused.code === "refund_quote_changed") return currentQuote(deps, principal, locator, refused);
    throw error;
  }
  const { recorded, outcome } = run;
  assertSucceeded({ recorded, outcome });
  const refund = recorded.events.find((e) => e.type === "TicketsRefunded");
  return {
    outcome: "refunded",
    locator,
    status: recorded.booking.status,
    credited: refund?.type === "TicketsRefunded" ? refund.data.credited : null,
    refunded_passengers: recorded.booking.refunded_passengers,
    position: recorded.position,
  };
}

/**
 * The quote the booking holds, for a confirm of another one: nothing is asked of the airline and nothing is written,
 * so the agent's current quote stays confirmable. With none held any more (confirmed meanwhile), 422.
 */
async function currentQuote(
  deps: CommandDeps,
  principal: Principal,
  locator: string,
  reason: DomainError,
): Promise<RefundConfirmation> {
  const booking = await readBooking(deps, principal, locator);
  if (!booking.refund_quote)
    throw new IllegalState(
      "This booking has no refund quote to confirm: ask for one",
      "refund_quote_not_found",
    );
  return { outcome: "requoted", error: reason, quote: booking.refund_quote, position: null };
}

/**
 * A fresh quote for the passengers of the current quote, which expired; with none held (it was confirmed
 * meanwhile), the reason alone: a second confirm never turns into a refund of others.
 */
async function requote(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  reason: DomainError,
): Promise<RefundConfirmation> {
  const booking = await readBooking(deps, principal, locator);
  const open = unrefundedPassengers(booking);
  const quoted = booking.refund_quote?.lines.map((l) => l.passenger_index) ?? [];
  const passengers = quoted.filter((i) => open.includes(i));
  if (passengers.length === 0 || booking.operation) throw reason;
  const fresh = await createRefundQuote(deps, context, principal, locator, passengers);
  return { outcome: "requoted", error: reason, quote: fresh.quote, position: fresh.position };
}
