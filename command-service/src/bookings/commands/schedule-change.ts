import type { ScheduleChangeAnswerResponse, ScheduleChangeCheckResponse } from "@skyward/contracts/bookings";
import type { ScheduleChangeChoice } from "@skyward/contracts/supplier";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { sellingContext, supplierCall } from "../../offers/selling-context.ts";
import { bookingStream, evolveBooking, initialBooking } from "../booking.ts";
import { type Actor, onBooking, systemActor } from "../execute.ts";
import { assertSucceeded, runSupplierOperation, SYSTEM_PRINCIPAL } from "../supplier-operation.ts";
import { readBooking } from "./read-booking.ts";

/*
 * Schedule changes (issue 24.3): the airline's change to an issued booking, learnt by asking it (the polling job, or
 * the agent's "check now"), recorded once per change id; the agent's answer is a supplier operation.
 */

/**
 * Asks the airline whether it changed the booking's flights and records a change not yet recorded. `recorded`: a new
 * change; `known`: the same change again (nothing written); `none`: no change, or nothing to ask about.
 */
export async function checkScheduleChange(
  deps: CommandDeps,
  actor: Actor,
  locator: string,
): Promise<Omit<ScheduleChangeCheckResponse, "locator">> {
  const booking =
    "principal" in actor
      ? await readBooking(deps, actor.principal, locator)
      : (await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking)).state;
  if (booking.status !== "issued" && booking.status !== "exchanged")
    return { outcome: "none", change_id: null, position: null };
  if (booking.fake_booking || !booking.supplier_booking)
    return { outcome: "none", change_id: null, position: null };
  const ctx = await sellingContext(deps, SYSTEM_PRINCIPAL, booking.company_id, booking.channel_id);
  const change = await deps.supplier.scheduleChange(
    { booking: booking.supplier_booking },
    supplierCall(deps.now(), ctx),
  );
  if (!change) return { outcome: "none", change_id: null, position: null };
  // Decided on the booking as it is then: a repeat (the job and the agent at once) records nothing.
  const { events, position } = await onBooking(deps, actor, locator, () => ({
    type: "RecordScheduleChange",
    change,
    now: deps.now(),
  }));
  return { outcome: events.length > 0 ? "recorded" : "known", change_id: change.change_id, position };
}

/** The polling job's check of one booking, as the system. */
export const checkScheduleChangeJob = (deps: CommandDeps, locator: string, traceId: string) =>
  checkScheduleChange(deps, systemActor(traceId), locator);

/** Issued bookings of an airline (not demo) whose schedule change, if any, is answered: the ones to ask about. */
export async function bookingsToAskAboutSchedule(deps: CommandDeps): Promise<string[]> {
  const { rows } = await deps.pool.query<{ locator: string }>(
    `SELECT locator FROM read.bookings
      WHERE status IN ('issued', 'exchanged') AND NOT fake_booking
        AND (schedule_change IS NULL OR schedule_change->>'answer' IS NOT NULL)
      ORDER BY updated_at DESC LIMIT 500`,
  );
  return rows.map((r) => r.locator);
}

/**
 * POST /orders/{locator}/schedule_change/answer: claims the booking with the answer (one answer wins), answers the
 * airline idempotently on the operation id, and records the outcome: the new flights, or the tickets refunded in
 * full with the balance credited in the same append.
 */
export async function answerScheduleChange(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  answer: { change_id: string; choice: ScheduleChangeChoice; option_id?: string | undefined },
): Promise<ScheduleChangeAnswerResponse> {
  const { recorded, outcome } = await runSupplierOperation(deps, { principal, context }, locator, {
    start: (_booking, operationId) => ({
      type: "StartScheduleChangeAnswer",
      operation_id: operationId,
      change_id: answer.change_id,
      choice: answer.choice,
      option_id: answer.choice === "exchange" ? (answer.option_id ?? null) : null,
      now: deps.now(),
    }),
  });
  assertSucceeded({ recorded, outcome });
  const refund = recorded.events.find((e) => e.type === "TicketsRefunded");
  return {
    locator,
    change_id: answer.change_id,
    choice: answer.choice,
    status: recorded.booking.status,
    credited: refund?.type === "TicketsRefunded" ? (refund.data.credited ?? null) : null,
    position: recorded.position,
  };
}
