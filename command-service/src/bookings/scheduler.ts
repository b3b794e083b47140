import { systemMetadata } from "@skyward/infra/event-store/metadata";
import type { CommandDeps } from "../deps.ts";
import { sellingContext, supplierCall } from "../offers/selling-context.ts";
import { bookingStream, decideExpire, evolveBooking, initialBooking } from "./booking.ts";
import { decideOnBooking } from "./handlers.ts";

/**
 * Scheduled commands: held bookings past their time limit expire, and bookings the supplier is still confirming
 * are asked again; expired search pages are dropped. The read model only finds candidates; each decision is made on the booking's stream.
 */
export async function runBookingSchedule(deps: CommandDeps): Promise<{ expired: number; settled: number }> {
  const now = deps.now();
  const metadata = systemMetadata();
  let expired = 0;
  const due = await deps.pool.query<{ locator: string }>(
    "SELECT locator FROM read.bookings WHERE status = 'held' AND time_limit <= $1 LIMIT 500",
    [now],
  );
  for (const { locator } of due.rows) {
    const { append } = await decideOnBooking(deps.store, locator, (state) =>
      decideExpire(state, { now }, metadata),
    );
    if (append.position) expired++;
  }

  let settled = 0;
  const pending = await deps.pool.query<{ locator: string }>(
    "SELECT locator FROM read.bookings WHERE provider_status = 'in_progress' AND status = 'held' LIMIT 200",
  );
  for (const { locator } of pending.rows) {
    const events = await deps.store.readStream(bookingStream(locator));
    const booking = events.reduce(evolveBooking, initialBooking);
    if (booking.status !== "held" || booking.provider_status !== "in_progress" || !booking.supplier_booking)
      continue;
    const system = {
      userId: "system",
      userType: "Admin" as const,
      agencyId: null,
      companyIds: [],
      demo: false,
      sessionId: null,
    };
    const ctx = await sellingContext(deps, system, booking.company_id, booking.channel_id);
    const current = await deps.supplier.retrieve(
      { booking: booking.supplier_booking },
      supplierCall(deps.now(), ctx),
    );
    if (current.provider_status === "in_progress") continue;
    const type =
      current.provider_status === "confirmed" ? "BookingConfirmedByProvider" : "BookingFailedByProvider";
    await deps.store
      .append({
        streamId: bookingStream(locator),
        expected: events.at(-1)?.streamPosition ?? 0,
        events: [{ type, data: { supplier_booking: current, error: current.error }, metadata }],
      })
      .then(() => settled++)
      .catch(() => {}); // someone else moved the booking meanwhile: the next round looks again
  }
  await deps.searches.purge();
  return { expired, settled };
}

/** Runs the schedule every `everyMs` until stopped. */
export function startBookingSchedule(deps: CommandDeps, everyMs = 5000): () => Promise<void> {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    if (stopped) return;
    running = runBookingSchedule(deps).catch((error: unknown) =>
      deps.logger.error({ err: error }, "booking schedule failed"),
    );
  }, everyMs);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
