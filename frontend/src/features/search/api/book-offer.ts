import type { BookOfferRequest, BookOfferResponse } from "@skyward/contracts/bookings";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** The answer's shape is the contract's: `status` "issued" when an instant-payment fare was ticketed as booked. */
export type { BookOfferResponse };

/** `POST /bookings`: holds the seats. One key per filled-in form, so a second click books nothing more. */
export async function bookOffer(
  request: BookOfferRequest,
  idempotencyKey: string,
): Promise<BookOfferResponse> {
  const { data } = await api.post<BookOfferResponse>("/bookings", request, { idempotencyKey });
  return data;
}

export function useBookOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: BookOfferRequest; idempotencyKey: string }) =>
      bookOffer(request, idempotencyKey),
    onSuccess: (booking) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.bookingLists }),
        // An instant-payment fare is paid as it is booked.
        booking.status === "issued" ? queryClient.invalidateQueries({ queryKey: queryKeys.balances }) : null,
      ]),
  });
}
