import type { BookOfferRequest } from "@skyward/contracts/bookings";
import type { Money } from "@skyward/contracts/money";
import type { Ticket } from "@skyward/contracts/supplier";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export interface BookOfferResponse {
  locator: string;
  /** "issued" when an instant-payment fare was ticketed as it was booked. */
  status?: "held" | "issued";
  instant_payment?: boolean;
  tickets?: Ticket[];
  time_limit: string | null;
  fake_booking: boolean;
  provider_status: "confirmed" | "in_progress" | "failed";
  error: string | null;
  price: Money;
  position: string | null;
}

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
