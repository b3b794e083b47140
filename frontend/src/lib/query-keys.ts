/** Query keys more than one feature touches: a booking made on the search page refreshes the bookings lists. */
export const queryKeys = {
  balances: ["balances"] as const,
  bookings: ["bookings"] as const,
  bookingLists: ["bookings", "list"] as const,
  booking: (locator: string) => ["bookings", "one", locator] as const,
};
