import type { BookOfferRequest } from "@skyward/contracts/bookings";
import type { Money } from "@skyward/contracts/money";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

export interface BookOfferResponse {
  locator: string;
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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bookingLists }),
  });
}
