import type { BookingEventInput } from "@skyward/contracts/booking-events";
import { allows } from "@skyward/contracts/booking-lifecycle";
import { refuse } from "@skyward/infra/refusal";
import type { ActiveBooking, BookingCommandOf } from "./booking-state.ts";

/*
 * The held phase of a booking (booking.ts dispatches here): the airline's late answer, cancel, expiry at the time
 * limit and reprice. Its issue is in booking-ticketing.ts.
 */

export function settleProviderStatus(
  state: ActiveBooking,
  command: BookingCommandOf<"SettleProviderStatus">,
): BookingEventInput[] {
  if (state.status !== "held" || state.provider_status !== "in_progress") return [];
  const status = command.supplier_booking.provider_status;
  if (status === "in_progress") return [];
  const data = { supplier_booking: command.supplier_booking, error: command.supplier_booking.error };
  return [{ type: status === "confirmed" ? "BookingConfirmedByProvider" : "BookingFailedByProvider", data }];
}

export function startCancel(
  state: ActiveBooking,
  command: BookingCommandOf<"StartCancel">,
): BookingEventInput[] {
  if (!allows(state.status, "cancel"))
    throw refuse.notAllowed(
      `Only held bookings can be cancelled; this booking is ${state.status}`,
      "not_held",
    );
  return [
    {
      type: "CancelStarted",
      data: { operation_id: command.operation_id, at: command.now.toISOString() },
    },
  ];
}

export function recordCancelOutcome(
  state: ActiveBooking,
  command: BookingCommandOf<"RecordCancelOutcome">,
): BookingEventInput[] {
  if (state.operation?.id !== command.operation_id || state.operation.kind !== "cancel") return [];
  const { outcome } = command;
  return outcome.ok
    ? [
        {
          type: "BookingCancelled",
          data: { operation_id: command.operation_id, at: command.now.toISOString() },
        },
      ]
    : [
        {
          type: "CancelFailed",
          data: { operation_id: command.operation_id, code: outcome.code, reason: outcome.reason },
        },
      ];
}

export function expireBooking(
  state: ActiveBooking,
  command: BookingCommandOf<"ExpireBooking">,
): BookingEventInput[] {
  if (!allows(state.status, "expire") || !state.time_limit || new Date(state.time_limit) > command.now)
    return [];
  return [{ type: "BookingExpired", data: { at: command.now.toISOString() } }];
}

export function repriceBooking(
  state: ActiveBooking,
  command: BookingCommandOf<"RepriceBooking">,
): BookingEventInput[] {
  if (!allows(state.status, "reprice"))
    throw refuse.notAllowed(
      `Only held bookings can be repriced; this booking is ${state.status}`,
      "not_held",
    );
  return [
    {
      type: "BookingRepriced",
      data: {
        price: command.price,
        price_detail: command.price_detail,
        supplier_booking: command.supplier_booking,
      },
    },
  ];
}
