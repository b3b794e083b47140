import type { CommandDeps } from "../deps.ts";
import { sellingContext, supplierCall } from "../offers/selling-context.ts";
import { bookingStream, evolveBooking, initialBooking } from "./booking.ts";
import { onBooking, systemActor } from "./execute.ts";
import { SYSTEM_PRINCIPAL } from "./supplier-operation.ts";

/**
 * What the time-driven jobs (command-service/src/jobs/registry.ts) do to bookings. The read model only finds
 * candidates; every decision is made on the booking's own stream, so running one twice changes nothing.
 */

/** Held bookings whose time limit falls before `horizon`, soonest first, and those the supplier is still confirming. */
export async function bookingsDue(
  deps: CommandDeps,
  horizon: Date,
): Promise<{ expiring: { locator: string; time_limit: Date }[]; confirming: string[] }> {
  const [expiring, confirming] = await Promise.all([
    deps.pool.query<{ locator: string; time_limit: Date }>(
      "SELECT locator, time_limit FROM read.bookings WHERE status = 'held' AND time_limit <= $1 ORDER BY time_limit LIMIT 500",
      [horizon],
    ),
    deps.pool.query<{ locator: string }>(
      "SELECT locator FROM read.bookings WHERE provider_status = 'in_progress' AND status = 'held' LIMIT 200",
    ),
  ]);
  return { expiring: expiring.rows, confirming: confirming.rows.map((r) => r.locator) };
}

/** Expires a held booking whose time limit has passed; true when it did (false: not due, or no longer held). */
export async function expireBooking(deps: CommandDeps, locator: string, traceId: string): Promise<boolean> {
  const { events } = await onBooking(deps, systemActor(traceId), locator, () => ({
    type: "ExpireBooking",
    now: deps.now(),
  }));
  return events.length > 0;
}

/**
 * Asks the supplier about a booking it is still confirming and records its answer. `in_progress`: ask again
 * later; `settled`: confirmed or failed, recorded; `not_pending`: nothing to ask (anymore).
 */
export async function confirmBooking(
  deps: CommandDeps,
  locator: string,
  traceId: string,
): Promise<"settled" | "in_progress" | "not_pending"> {
  const { state: booking } = await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking);
  if (booking.status !== "held" || booking.provider_status !== "in_progress" || !booking.supplier_booking)
    return "not_pending";
  const ctx = await sellingContext(deps, SYSTEM_PRINCIPAL, booking.company_id, booking.channel_id);
  const current = await deps.supplier.retrieve(
    { booking: booking.supplier_booking },
    supplierCall(deps.now(), ctx),
  );
  if (current.provider_status === "in_progress") return "in_progress";
  // Decided again on the latest state: a write meanwhile (a comment, an expiry) makes it re-read, never lost.
  await onBooking(deps, systemActor(traceId), locator, () => ({
    type: "SettleProviderStatus",
    supplier_booking: current,
  }));
  return "settled";
}
