import type { BookingDetails, BookingDetailsResponse } from "@skyward/contracts/bookings";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** `GET /bookings/{locator}`: 416 when the booking expired, 404 when it is not the caller's to see. */
export async function fetchBooking(locator: string): Promise<BookingDetails> {
  const { data } = await api.get<BookingDetailsResponse>(`/bookings/${encodeURIComponent(locator)}`);
  return data.data;
}

export const bookingQueryOptions = (locator: string) =>
  queryOptions({
    queryKey: queryKeys.booking(locator),
    queryFn: () => fetchBooking(locator),
    staleTime: 5_000,
    // While a supplier operation is being completed (a crash or a slow airline), the page updates by itself.
    refetchInterval: (query) => (query.state.data?.operation ? 3_000 : false),
    // The page decides what a failure means (spec section 8: 416, 400, the rest).
    meta: { notifyErrors: false },
    retry: false,
  });
