import type { BookingList } from "@skyward/contracts/bookings";

/** The booking lists the page offers, in its tabs' order (seed spec, section 4); "new" is the default. */
export const BOOKING_LISTS: readonly BookingList[] = ["new", "issued", "cancelled", "refunded"];

/** Rows per page of the booking lists (the route's loader asks for the first page the page shows). */
export const PER_PAGE = 20;

/** Which list a booking status shows under; issued and exchanged both belong to "issued" (seed spec, section 4). */
export function listOfStatus(status: string): BookingList {
  switch (status) {
    case "issued":
    case "exchanged":
      return "issued";
    case "voided":
    case "cancelled":
    case "expired":
      return "cancelled";
    case "refunded":
      return "refunded";
    default:
      return "new";
  }
}
