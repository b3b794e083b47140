import type { ItineraryMail, SendItineraryRequest } from "@skyward/contracts/itinerary";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

const path = (locator: string) => `/bookings/${encodeURIComponent(locator)}/itinerary_mails`;
const key = (locator: string) => ["bookings", "one", locator, "itinerary-mails"] as const;

/** `GET /bookings/{locator}/itinerary_mails`: who sent the itinerary, to whom and when. */
export const itineraryMailsQueryOptions = (locator: string) =>
  queryOptions({
    queryKey: key(locator),
    queryFn: async () => (await api.get<{ data: ItineraryMail[] }>(path(locator))).data.data,
  });

/** `POST /bookings/{locator}/itinerary_mails`: the itinerary e-mailed now; the list of sends follows. */
export function useSendItinerary(locator: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (itinerary: SendItineraryRequest["itinerary"]) =>
      (await api.post<{ data: ItineraryMail }>(path(locator), { itinerary })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key(locator) }),
  });
}
