import type { CommandDeps } from "../deps.ts";
import { bookingStream, evolveBooking, initialBooking } from "./booking.ts";
import { systemActor } from "./execute.ts";
import { reconcileOperation } from "./supplier-operation.ts";

/** An operation still open this long after it started has lost its caller (a crash, a timeout). */
export const OPERATION_STALE_AFTER_MS = 60_000;

/**
 * Completes or undoes every supplier operation left in flight (crash, timeout, lost race) by asking the supplier
 * for the operation's outcome. Run by the `reconcile-operations` job (command-service/src/jobs/registry.ts),
 * periodically and on demand. The read model only finds candidates; each is decided on the booking's stream.
 */
export async function reconcileOperations(
  deps: CommandDeps,
  options: { staleAfterMs?: number; traceId?: string } = {},
): Promise<{ completed: number; undone: number; failed: number }> {
  // Stale by the database's clock, which every process shares: by this process's own, a clock hours behind would
  // find nothing stale for hours (issue 29).
  const { rows } = await deps.pool.query<{ locator: string; before: Date }>(
    `WITH stale AS (SELECT now() - $1::double precision * interval '1 millisecond' AS before)
     SELECT locator, stale.before FROM read.bookings, stale
      WHERE operation_id IS NOT NULL AND operation_started_at <= stale.before
      ORDER BY operation_started_at LIMIT 200`,
    [options.staleAfterMs ?? OPERATION_STALE_AFTER_MS],
  );
  const counts = { completed: 0, undone: 0, failed: 0 };
  for (const { locator, before } of rows) {
    const { state } = await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking);
    if (state.status === "none" || !state.operation || new Date(state.operation.started_at) > before)
      continue;
    try {
      const result = await reconcileOperation(deps, systemActor(options.traceId), locator, state);
      if (result === "completed") counts.completed++;
      if (result === "undone") counts.undone++;
    } catch (error) {
      // One booking the supplier cannot answer for now must not hold up the others; the next run asks again.
      counts.failed++;
      deps.logger.error(
        { err: error, locator, trace_id: options.traceId },
        "reconciling a supplier operation failed",
      );
    }
  }
  return counts;
}
