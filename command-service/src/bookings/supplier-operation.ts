import { randomInt, randomUUID } from "node:crypto";
import { assertNever } from "@skyward/contracts/assert-never";
import type { AncillariesOutcome } from "@skyward/contracts/booking-commands";
import type { PaymentChoice } from "@skyward/contracts/cards";
import type { SourceChannel } from "@skyward/contracts/metadata";
import type { SupplierBooking, Ticket } from "@skyward/contracts/supplier";
import type { Principal } from "@skyward/infra/http/context";
import { DomainError, IllegalState } from "@skyward/infra/http/errors";
import { asHttpError } from "@skyward/infra/http/refusals";
import { ancillariesOutcome, fakeAncillariesOutcome } from "../ancillaries/outcome.ts";
import type { CommandDeps } from "../deps.ts";
import {
  type SellingContext,
  type StreamVersion,
  sellingContext,
  supplierCall,
} from "../offers/selling-context.ts";
import { applyPricing, priceFare } from "../pricing/apply-pricing.ts";
import { randomSerial, ticketNumber } from "../pricing/ticket-number.ts";
import { findAirline } from "../suppliers/sandbox/airlines.ts";
import type { OperationResult } from "../suppliers/supplier.ts";
import { cardStream, claimCard, evolveCard, initialCard } from "../ticketing/card.ts";
import { assertCanIssue, type ChannelState } from "../ticketing/channel.ts";
import {
  type ActiveBooking,
  type BookingCommand,
  type ExchangedOutcome,
  type IssuedOutcome,
  type OpenOperation,
  type OperationOutcome,
  type RefundedOutcome,
  voidUntil,
} from "./booking.ts";
import { type Actor, type BookingCommandResult, type Decision, onBooking } from "./execute.ts";

/** An operation's outcome carries the supplier's error, to answer the caller with after it is recorded. */
type Outcome = OperationOutcome<
  IssuedOutcome | RefundedOutcome | ExchangedOutcome | AncillariesOutcome | null
> & {
  error?: DomainError;
};

/** The supplier's answer could not be had (no answer, an unexpected failure): the operation stays in flight. */
export class OperationPending extends DomainError {
  constructor() {
    super(
      503,
      "operation_pending",
      "Being completed",
      "The airline has not answered yet. The booking is being completed and will update by itself; do not repeat the operation.",
    );
  }
}

/**
 * The one pattern of every supplier operation (issue, void, cancel, refund, exchange; EMDs later):
 *  1. claim the booking with the operation's "started" event, carrying an operation id (and the balance charge);
 *  2. call the supplier with no transaction open, idempotent on that id;
 *  3. record the outcome with a command decided on the booking as it is then (a comment meanwhile is no conflict),
 *     which also credits back what a failure must.
 * If the supplier's answer is lost (a crash, a timeout), the operation stays open and `reconcileOperation` asks the
 * supplier for it by id later.
 */
export async function runSupplierOperation(
  deps: CommandDeps,
  actor: Actor,
  locator: string,
  operation: {
    /** The claim, built and checked on the booking's current state. */
    start: (booking: ActiveBooking, operationId: string) => Decision | Promise<Decision>;
    /** Companies take turns at their balance when the claim charges it (see StreamLocks). */
    turnAt?: string;
  },
): Promise<{ claimed: BookingCommandResult; recorded: BookingCommandResult; outcome: Outcome }> {
  const operationId = randomUUID();
  const claimed = await onBooking(deps, actor, locator, (booking) => operation.start(booking, operationId), {
    turnAt: operation.turnAt,
  });
  return { claimed, ...(await completeOperation(deps, actor, locator, claimed.booking, operationId)) };
}

/**
 * The claim of an operation that issues tickets (issue, exchange): decided on the gates this process keeps and
 * guarded by them (the claim's append is refused if one moved meanwhile), so a gate closed a moment ago in another
 * process refuses it; a second attempt (the guard moved, a conflict, a refusal) decides on gates read now.
 */
export function issuingClaim(
  deps: CommandDeps,
  principal: Principal,
  source: SourceChannel,
  build: (claim: { operationId: string; payment: PaymentChoice }) => BookingCommand,
): (booking: ActiveBooking, operationId: string) => Promise<Decision> {
  let attempts = 0;
  return async (booking, operationId) => {
    const ctx = await sellingContext(deps, principal, booking.company_id, booking.channel_id, {
      fresh: attempts++ > 0,
    });
    assertCanIssue(ctx.gates, ctx.channel, source);
    const { payment, read } = await paymentChoice(deps, ctx.channel);
    return { command: build({ operationId, payment }), guard: [...ctx.read, ...read] };
  };
}

/**
 * The channel's form of payment for a claim: the balance, or its card as the card's stream has it now (the decider
 * checks it is there and not expired). The card's stream joins the claim's guard: a card deleted or changed meanwhile
 * refuses the append, and the next attempt reads it again.
 */
export async function paymentChoice(
  deps: CommandDeps,
  channel: ChannelState,
): Promise<{ payment: PaymentChoice; read: StreamVersion[] }> {
  if (channel.status === "none" || channel.form_of_payment !== "card")
    return { payment: { method: "balance" }, read: [] };
  if (!channel.ticketing_card) return { payment: { method: "card", card: null }, read: [] };
  const streamId = cardStream(channel.ticketing_card.id);
  const { state, version } = await deps.store.fold(streamId, evolveCard, initialCard);
  return { payment: { method: "card", card: claimCard(state) }, read: [{ streamId, version }] };
}

/**
 * Refuses the caller of an operation the supplier failed, with the supplier's error (or the outcome's reason), and
 * the position its recorded outcome left the feed at: the failure wrote (a charge credited back, a new price).
 */
export function assertSucceeded(run: { recorded: BookingCommandResult; outcome: Outcome }): void {
  const { outcome, recorded } = run;
  if (!outcome.ok)
    throw (outcome.error ?? new IllegalState(outcome.reason, outcome.code)).wrote(recorded.position);
}

/** Steps 2 and 3 of an operation its claim opened. */
export async function completeOperation(
  deps: CommandDeps,
  actor: Actor,
  locator: string,
  claimed: ActiveBooking,
  operationId: string,
): Promise<{ recorded: BookingCommandResult; outcome: Outcome }> {
  const open = claimed.operation;
  if (!open || open.id !== operationId) throw new Error(`the claim of operation ${operationId} opened none`);
  const outcome = await callSupplier(deps, claimed, open);
  const recorded = await onBooking(deps, actor, locator, () => recordCommand(open, outcome, deps.now()));
  return { recorded, outcome };
}

/**
 * Completes or undoes an operation left in flight, from the supplier's own record of it. An operation the supplier
 * never saw is fenced by asking, so it is safely undone.
 */
export async function reconcileOperation(
  deps: CommandDeps,
  actor: Actor,
  locator: string,
  booking: ActiveBooking,
): Promise<"completed" | "undone" | "none"> {
  const open = booking.operation;
  if (!open) return "none";
  let outcome: Outcome;
  if (booking.fake_booking || !booking.supplier_booking) {
    outcome = await callSupplier(deps, booking, open);
  } else {
    const ctx = await contextOf(deps, booking);
    const lookup = await deps.supplier.operationOutcome(
      { operation_id: open.id, booking: booking.supplier_booking },
      supplierCall(deps.now(), ctx),
    );
    if (lookup.status === "done") outcome = outcomeOf(open, lookup.result, booking, ctx, deps.now());
    else if (lookup.status === "failed") outcome = { ok: false, code: lookup.code, reason: lookup.message };
    else
      outcome = {
        ok: false,
        code: "operation_abandoned",
        reason: "The airline never received the operation",
      };
  }
  const recorded = await onBooking(deps, actor, locator, () => recordCommand(open, outcome, deps.now()));
  // Recorded meanwhile by the call itself or another reconciler.
  if (recorded.events.length === 0) return "none";
  return outcome.ok ? "completed" : "undone";
}

function recordCommand(open: OpenOperation, outcome: Outcome, now: Date): BookingCommand {
  const { error: _error, ...recorded } = outcome;
  switch (open.kind) {
    case "issue":
      if (recorded.ok) {
        if (!recorded.done || !("issued_at" in recorded.done))
          throw new Error("an issue succeeded without tickets");
        return {
          type: "RecordIssueOutcome",
          operation_id: open.id,
          outcome: { ok: true, done: recorded.done },
        };
      }
      return { type: "RecordIssueOutcome", operation_id: open.id, outcome: recorded };
    case "void":
      return {
        type: "RecordVoidOutcome",
        operation_id: open.id,
        now,
        outcome: recorded.ok ? { ok: true, done: null } : recorded,
      };
    case "cancel":
      return {
        type: "RecordCancelOutcome",
        operation_id: open.id,
        now,
        outcome: recorded.ok ? { ok: true, done: null } : recorded,
      };
    case "refund":
      if (recorded.ok) {
        if (!recorded.done || !("supplier_booking" in recorded.done) || "tickets" in recorded.done)
          throw new Error("a refund succeeded without its booking");
        return {
          type: "RecordRefundOutcome",
          operation_id: open.id,
          now,
          outcome: { ok: true, done: recorded.done },
        };
      }
      return { type: "RecordRefundOutcome", operation_id: open.id, now, outcome: recorded };
    case "exchange":
      if (recorded.ok) {
        if (!recorded.done || !("exchanged_at" in recorded.done))
          throw new Error("an exchange succeeded without tickets");
        return {
          type: "RecordExchangeOutcome",
          operation_id: open.id,
          outcome: { ok: true, done: recorded.done },
        };
      }
      return { type: "RecordExchangeOutcome", operation_id: open.id, outcome: recorded };
    case "ancillaries":
      if (recorded.ok) {
        if (!recorded.done || !("taken" in recorded.done))
          throw new Error("ancillaries were added without the airline's lines");
        return {
          type: "RecordAncillariesOutcome",
          operation_id: open.id,
          now,
          outcome: { ok: true, done: recorded.done },
        };
      }
      return { type: "RecordAncillariesOutcome", operation_id: open.id, now, outcome: recorded };
    case "emd_refund":
      if (recorded.ok) {
        if (!recorded.done || !("supplier_booking" in recorded.done) || "taken" in recorded.done)
          throw new Error("an EMD refund succeeded without its booking");
        return {
          type: "RecordEmdRefundOutcome",
          operation_id: open.id,
          now,
          outcome: { ok: true, done: { supplier_booking: recorded.done.supplier_booking } },
        };
      }
      return { type: "RecordEmdRefundOutcome", operation_id: open.id, now, outcome: recorded };
    case "schedule_change":
      if (recorded.ok) {
        if (!recorded.done || !("supplier_booking" in recorded.done) || "tickets" in recorded.done)
          throw new Error("a schedule change was answered without its booking");
        return {
          type: "RecordScheduleChangeOutcome",
          operation_id: open.id,
          now,
          outcome: { ok: true, done: { supplier_booking: recorded.done.supplier_booking } },
        };
      }
      return { type: "RecordScheduleChangeOutcome", operation_id: open.id, now, outcome: recorded };
    default:
      return assertNever(open.kind);
  }
}

/** Who the system acts as when it needs a selling context of any company. */
export const SYSTEM_PRINCIPAL: Principal = {
  userId: "system",
  userType: "Admin",
  agencyId: null,
  companyIds: [],
  demo: false,
  sessionId: null,
};

const contextOf = (deps: CommandDeps, booking: ActiveBooking) =>
  sellingContext(deps, SYSTEM_PRINCIPAL, booking.company_id, booking.channel_id);

/** Calls the supplier for an open operation; a fake booking's never reaches one. */
async function callSupplier(
  deps: CommandDeps,
  booking: ActiveBooking,
  open: OpenOperation,
): Promise<Outcome> {
  const now = deps.now();
  if (booking.fake_booking || !booking.supplier_booking) {
    if (open.kind === "refund" || open.kind === "emd_refund" || open.kind === "schedule_change")
      return { ok: true, done: { supplier_booking: null } };
    if (open.kind === "ancillaries") return { ok: true, done: fakeAncillariesOutcome(booking, open) };
    if (open.kind === "exchange")
      return {
        ok: false,
        code: "not_exchangeable",
        reason: "A demo booking has no airline to exchange it with",
      };
    if (open.kind !== "issue") return { ok: true, done: null };
    const ctx = await contextOf(deps, booking);
    const until = voidUntil(now, ctx.channel.status === "none" ? 0 : ctx.channel.void_window_hours, false);
    return {
      ok: true,
      done: {
        tickets: fakeTickets(booking),
        issued_at: now.toISOString(),
        void_until: until?.toISOString() ?? null,
        supplier_booking: null,
      },
    };
  }
  const supplierBooking = booking.supplier_booking;
  let ctx: SellingContext;
  try {
    ctx = await contextOf(deps, booking);
  } catch (error) {
    // A refusal (the channel closed, its card expired) as the client would be answered it.
    const refused = asHttpError(error);
    if (!refused) throw error;
    return { ok: false, code: refused.code, reason: refused.detail ?? refused.title, error: refused };
  }
  const call = supplierCall(now, ctx);
  try {
    const result = await supplierCallOf(deps, open, booking, supplierBooking, call);
    return outcomeOf(open, result, booking, ctx, now);
  } catch (error) {
    // A supplier's named refusal is a definite outcome; anything else leaves the outcome unknown, to be looked up.
    if (error instanceof DomainError)
      return { ok: false, code: error.code, reason: error.detail ?? error.title, error };
    deps.logger.error(
      { err: error, operation_id: open.id, kind: open.kind },
      "supplier operation without an answer",
    );
    throw new OperationPending();
  }
}

/** The supplier call of an operation, idempotent on its id. */
function supplierCallOf(
  deps: CommandDeps,
  open: OpenOperation,
  booking: ActiveBooking,
  supplierBooking: SupplierBooking,
  call: ReturnType<typeof supplierCall>,
): Promise<OperationResult> {
  const input = { operation_id: open.id, booking: supplierBooking };
  switch (open.kind) {
    case "issue":
      return deps.supplier.issue({ ...input, accepted_total: supplierBooking.price.total.amount }, call);
    case "void":
      return deps.supplier.void(input, call);
    case "cancel":
      return deps.supplier.cancel(input, call);
    case "refund": {
      const quote = booking.refund_quote?.supplier_quote;
      if (!quote || booking.refund_quote?.quote_id !== open.quote_id)
        throw new IllegalState("The refund quote of this operation is gone", "refund_quote_changed");
      return deps.supplier.refundConfirm({ ...input, quote }, call);
    }
    case "exchange": {
      const offer = booking.change_request?.offers.find((o) => o.reshop_offer_id === open.reshop_offer_id);
      if (!offer) throw new IllegalState("The offer of this exchange is gone", "reshop_offer_not_found");
      // The airline's part of what the agent accepted: our markup is ours.
      const accepted = offer.fare_difference.amount + offer.change_fee.amount;
      const slice = booking.change_request?.slice;
      return deps.supplier.reissue(
        {
          ...input,
          reshop_offer_id: offer.reshop_offer_id,
          accepted_total_due: accepted,
          ...(slice !== null && slice !== undefined ? { slice } : {}),
        },
        call,
      );
    }
    case "ancillaries": {
      const items = (open.lines ?? []).map((l) => ({
        ancillary_id: l.ancillary_id,
        passenger_index: l.passenger_index,
        seat: l.seat,
      }));
      return deps.supplier.orderAncillaries({ ...input, items }, call);
    }
    case "emd_refund":
      return deps.supplier.refundEmd({ ...input, emd_number: open.emd_number ?? "" }, call);
    case "schedule_change":
      return deps.supplier.answerScheduleChange(
        {
          ...input,
          change_id: open.change_id ?? "",
          choice: open.choice ?? "accept",
          option_id: open.option_id ?? null,
        },
        call,
      );
    default:
      return assertNever(open.kind);
  }
}

/** A supplier's result as the outcome our booking records. */
function outcomeOf(
  open: OpenOperation,
  result: OperationResult,
  booking: ActiveBooking,
  ctx: SellingContext,
  now: Date,
): Outcome {
  if (open.kind === "void" || open.kind === "cancel") return { ok: true, done: null };
  if (open.kind === "ancillaries") {
    if (!("added" in result))
      throw new Error("the supplier answered ancillaries with another operation's result");
    return { ok: true, done: ancillariesOutcome(result) };
  }
  if (open.kind === "emd_refund") {
    if (!("emd_refunded" in result))
      throw new Error("the supplier answered an EMD refund with another operation's result");
    return { ok: true, done: { supplier_booking: result.booking } };
  }
  if (open.kind === "schedule_change") {
    if (!("answered_at" in result))
      throw new Error("the supplier answered a schedule change with another operation's result");
    return { ok: true, done: { supplier_booking: result.booking } };
  }
  if (open.kind === "refund") {
    if (!("refunded" in result))
      throw new Error("the supplier answered a refund with another operation's result");
    return { ok: true, done: { supplier_booking: result.booking } };
  }
  if (open.kind === "exchange") {
    if (!("reissued_at" in result))
      throw new Error("the supplier answered an exchange with another operation's result");
    return { ok: true, done: exchangedOutcome(result.booking, booking, ctx, result.reissued_at) };
  }
  if (!("outcome" in result))
    throw new Error("the supplier answered an issue with another operation's result");
  if (result.outcome === "price_changed") {
    const detail = applyPricing(result.price, booking.fare.carrier, ctx.policy);
    return {
      ok: false,
      code: "price_changed",
      reason: "price_changed",
      price_changed: { price: detail.total, price_detail: detail, supplier_price: result.price },
      error: new DomainError(
        409,
        "price_changed",
        "Price changed",
        `The airline's price changed from ${formatMoney(booking.price)} to ${formatMoney(detail.total)}. Issue again accepting the new price.`,
      ),
    };
  }
  return { ok: true, done: issuedOutcome(result.booking, ctx, now) };
}

/** The new tickets, fare and price of an exchange, priced with today's markups as its offers were. */
function exchangedOutcome(
  supplierBooking: SupplierBooking,
  booking: ActiveBooking,
  ctx: SellingContext,
  at: string,
): ExchangedOutcome {
  const fare = priceFare(supplierBooking.fare, ctx.policy);
  const detail = applyPricing(supplierBooking.price, supplierBooking.fare.validating_carrier, ctx.policy);
  const [first] = supplierBooking.flights;
  return {
    tickets: supplierBooking.tickets,
    fare: {
      ...booking.fare,
      fare_id: fare.fare_id,
      departure_at: first?.departure_at ?? booking.fare.departure_at,
      fare,
      flights: supplierBooking.flights,
    },
    price: detail.total,
    price_detail: detail,
    exchanged_at: at,
    supplier_booking: supplierBooking,
  };
}

/** Tickets as issued, voidable until the earlier of the channel's window and the supplier's own. */
function issuedOutcome(supplierBooking: SupplierBooking, ctx: SellingContext, now: Date): IssuedOutcome {
  const issuedAt = supplierBooking.issued_at ? new Date(supplierBooking.issued_at) : now;
  const channelVoid = voidUntil(
    issuedAt,
    ctx.channel.status === "none" ? 0 : ctx.channel.void_window_hours,
    false,
  );
  const supplierVoid = supplierBooking.void_until ? new Date(supplierBooking.void_until) : null;
  const until =
    channelVoid && supplierVoid ? new Date(Math.min(channelVoid.getTime(), supplierVoid.getTime())) : null;
  return {
    tickets: supplierBooking.tickets,
    issued_at: issuedAt.toISOString(),
    void_until: until?.toISOString() ?? null,
    supplier_booking: supplierBooking,
  };
}

function fakeTickets(booking: ActiveBooking): Ticket[] {
  const accounting = findAirline(booking.fare.carrier)?.accountingCode ?? "999";
  return booking.passengers.map((p, index) => {
    const price =
      booking.price_detail.passengers.find((x) => x.type === p.type) ?? booking.price_detail.passengers[0];
    const currency = booking.price.currency;
    return {
      ticket_number: ticketNumber(accounting, randomSerial(randomInt)),
      passenger_index: index,
      passenger_name: `${p.last_name}/${p.first_name}`.toUpperCase(),
      validating_carrier: booking.fare.carrier,
      base_fare: price?.base_fare ?? { amount: 0, currency },
      taxes: price?.taxes ?? { amount: 0, currency },
      total: price?.total ?? { amount: 0, currency },
    };
  });
}

/** Minor units to a display amount with the currency's own number of decimals (JPY 0, UAH 2, KWD 3...). */
function formatMoney(m: { amount: number; currency: string }): string {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: m.currency });
  return format.format(m.amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
