import type { BookingEventInput } from "@skyward/contracts/booking-events";
import { allows } from "@skyward/contracts/booking-lifecycle";
import { refuse } from "@skyward/infra/refusal";
import { type ActiveBooking, type BookingCommandOf, minus } from "./booking-state.ts";

/* The issued phase of a booking (booking.ts dispatches here): void within its window. */

export function startVoid(state: ActiveBooking, command: BookingCommandOf<"StartVoid">): BookingEventInput[] {
  if (!allows(state.status, "void"))
    throw refuse.notAllowed(
      `Only issued tickets can be voided; this booking is ${state.status}`,
      "not_issued",
    );
  if (state.refunded_passengers.length > 0)
    throw refuse.notAllowed(
      "Some tickets of this booking were refunded: refund the others instead",
      "partly_refunded",
    );
  if (!state.void_until || new Date(state.void_until) < command.now) {
    throw refuse.notAllowed(
      "The void window of these tickets has closed; request a refund instead",
      "void_window_closed",
    );
  }
  return [
    { type: "VoidStarted", data: { operation_id: command.operation_id, at: command.now.toISOString() } },
  ];
}

export function recordVoidOutcome(
  state: ActiveBooking,
  command: BookingCommandOf<"RecordVoidOutcome">,
): BookingEventInput[] {
  if (state.operation?.id !== command.operation_id || state.operation.kind !== "void") return [];
  const { outcome } = command;
  return outcome.ok
    ? [
        {
          type: "BookingVoided",
          data: {
            operation_id: command.operation_id,
            at: command.now.toISOString(),
            // Less what EMD refunds gave back already (a refunded ticket closes the void before this).
            credited: minus(state.charged, state.refunded),
          },
        },
      ]
    : [
        {
          type: "VoidFailed",
          data: { operation_id: command.operation_id, code: outcome.code, reason: outcome.reason },
        },
      ];
}

/** Void is allowed until the end of the issue day (UTC) within the channel's window; low-cost carriers allow none. */
export function voidUntil(issuedAt: Date, windowHours: number, lowCost: boolean): Date | null {
  if (lowCost || windowHours === 0) return null;
  const endOfDay = new Date(
    Date.UTC(issuedAt.getUTCFullYear(), issuedAt.getUTCMonth(), issuedAt.getUTCDate(), 23, 59, 59),
  );
  const byWindow = new Date(issuedAt.getTime() + windowHours * 3600_000);
  return byWindow < endOfDay ? byWindow : endOfDay;
}
