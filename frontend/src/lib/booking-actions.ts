import type { BookingActionName, BookingDetails } from "@skyward/contracts/bookings";

/**
 * Whether the server allows an action on the booking now ("what can I do now": one rule, decided there, never
 * copied here). Every feature that offers a booking action asks this.
 */
export const allows = (booking: Pick<BookingDetails, "actions">, action: BookingActionName): boolean =>
  booking.actions?.some((a) => a.action === action && a.allowed) ?? false;
