import { randomUUID } from "node:crypto";
import type { SupplierBooking } from "@skyward/contracts/supplier";
import { DomainError } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../deps.ts";
import { type SellingContext, sellingContext, supplierCall } from "../offers/selling-context.ts";
import { SYSTEM_PRINCIPAL } from "./supplier-operation.ts";

/**
 * Seats the supplier holds for a booking we have not recorded yet (issue 29). A hold is recorded right after the
 * supplier grants it and forgotten by our booking's append itself (EventStore.append's releasingHold: the same
 * statement, so no commit of its own, and no moment where both or neither exist); one left over a few minutes lost its
 * append (a full disk, a crash), and `releaseOrphanHolds` cancels it at the supplier unless the event store has a booking
 * holding it after all. Without this the airline keeps an orphan booking until its time limit.
 */

/** Records a hold before its booking's append; if even that cannot be written, the hold is released at once. */
export async function recordHold(
  deps: CommandDeps,
  held: SupplierBooking,
  ctx: SellingContext,
): Promise<string> {
  const attemptId = randomUUID();
  try {
    await deps.pool.query(
      "INSERT INTO app.supplier_holds (attempt_id, company_id, channel_id, supplier_booking) VALUES ($1, $2, $3, $4)",
      [attemptId, ctx.companyId, ctx.channelId, JSON.stringify(held)],
    );
  } catch (error) {
    await deps.supplier
      .cancel({ operation_id: attemptId, booking: held }, supplierCall(deps.now(), ctx))
      .catch((cancelError: unknown) =>
        deps.logger.error(
          { err: cancelError, supplier_locator: held.supplier_locator },
          "a supplier hold could be neither recorded nor released: it stays held until its time limit",
        ),
      );
    throw error;
  }
  return attemptId;
}

/**
 * Cancels at the supplier every hold recorded over `staleAfterMs` ago (by the database's clock) whose booking the
 * event store does not have; forgets those it has. Run by the `reconcile-operations` job.
 */
export async function releaseOrphanHolds(
  deps: CommandDeps,
  options: { staleAfterMs: number; traceId?: string },
): Promise<{ released: number; kept: number; failed: number }> {
  const { rows } = await deps.pool.query<{
    attempt_id: string;
    company_id: string;
    channel_id: string;
    supplier_booking: SupplierBooking;
  }>(
    `SELECT attempt_id, company_id, channel_id, supplier_booking FROM app.supplier_holds
      WHERE held_at <= now() - $1::double precision * interval '1 millisecond' ORDER BY held_at LIMIT 100`,
    [options.staleAfterMs],
  );
  const counts = { released: 0, kept: 0, failed: 0 };
  for (const hold of rows) {
    const held = hold.supplier_booking;
    try {
      // The event store, not a read model that may lag: a booking appended a moment ago holds its seats.
      const { rowCount } = await deps.pool.query(
        `SELECT 1 FROM es.events WHERE event_type = 'BookingHeld'
           AND data->'supplier_booking'->>'supplier_locator' = $1 AND data->'supplier_booking'->>'supplier' = $2 LIMIT 1`,
        [held.supplier_locator, held.supplier],
      );
      if (rowCount === 0) {
        const ctx = await sellingContext(deps, SYSTEM_PRINCIPAL, hold.company_id, hold.channel_id);
        await deps.supplier
          .cancel({ operation_id: hold.attempt_id, booking: held }, supplierCall(deps.now(), ctx))
          .catch((error: unknown) => {
            // Refused because it is no longer held (its time limit passed, cancelled already): nothing to release.
            if (!(error instanceof DomainError) || error.status >= 500) throw error;
          });
        deps.logger.warn(
          { supplier_locator: held.supplier_locator, company_id: hold.company_id, trace_id: options.traceId },
          "released a supplier hold whose booking was never recorded",
        );
        counts.released++;
      } else counts.kept++;
      await deps.pool.query("DELETE FROM app.supplier_holds WHERE attempt_id = $1", [hold.attempt_id]);
    } catch (error) {
      counts.failed++;
      deps.logger.error(
        { err: error, supplier_locator: held.supplier_locator, trace_id: options.traceId },
        "releasing an orphan supplier hold failed; the next run tries again",
      );
    }
  }
  return counts;
}
