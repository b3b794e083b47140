import { bookingStream, evolveBooking, initialBooking } from "../bookings/booking.ts";
import { onBooking, systemActor } from "../bookings/execute.ts";
import { SYSTEM_PRINCIPAL } from "../bookings/supplier-operation.ts";
import type { CommandDeps } from "../deps.ts";
import { sellingContext, supplierCall } from "../offers/selling-context.ts";

/**
 * EMDs the airline issues asynchronously: asks it for the booking and records the numbers it has issued since.
 * "pending" while some are still coming (the job retries with backoff), "done" when none waits.
 */
export async function confirmEmds(
  deps: CommandDeps,
  locator: string,
  traceId?: string,
): Promise<"done" | "pending"> {
  const { state } = await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking);
  if (state.status === "none" || !state.supplier_booking) return "done";
  const pending = state.ancillaries.filter((l) => l.status === "pending");
  if (pending.length === 0) return "done";
  const ctx = await sellingContext(deps, SYSTEM_PRINCIPAL, state.company_id, state.channel_id);
  const supplierBooking = await deps.supplier.retrieve(
    { booking: state.supplier_booking },
    supplierCall(deps.now(), ctx),
  );
  const emds = pending.flatMap((line) => {
    const booked = supplierBooking.ancillaries.find(
      (a) =>
        a.ancillary_id === line.ancillary_id &&
        a.passenger_index === line.passenger_index &&
        (a.seat ?? null) === line.seat &&
        a.emd_number,
    );
    return booked?.emd_number ? [{ line_id: line.line_id, emd_number: booked.emd_number }] : [];
  });
  if (emds.length > 0)
    await onBooking(deps, systemActor(traceId), locator, () => ({
      type: "RecordEmdsIssued",
      now: deps.now(),
      emds,
      supplier_booking: supplierBooking,
    }));
  return emds.length === pending.length ? "done" : "pending";
}

/** Bookings whose EMDs wait for the airline, for the sweep that queues their confirmation. */
export async function bookingsAwaitingEmds(deps: CommandDeps): Promise<string[]> {
  const { rows } = await deps.pool.query<{ locator: string }>(
    "SELECT locator FROM read.bookings WHERE async_emd_issue ORDER BY updated_at LIMIT 500",
  );
  return rows.map((r) => r.locator);
}
