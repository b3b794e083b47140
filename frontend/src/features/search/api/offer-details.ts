import type { OfferDetails, OfferDetailsResponse } from "@skyward/contracts/offers";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

/** `GET /offers/{fare_id}/details?search_result_id=`: the fare priced again, with its rules and ancillaries. */
export async function fetchOfferDetails(fareId: string, searchResultId: string): Promise<OfferDetails> {
  const { data } = await api.get<OfferDetailsResponse>(`/offers/${encodeURIComponent(fareId)}/details`, {
    query: { search_result_id: searchResultId },
  });
  return data.data;
}

export const offerDetailsQueryOptions = (fareId: string, searchResultId: string) =>
  queryOptions({
    queryKey: ["offers", fareId, "details", searchResultId],
    queryFn: () => fetchOfferDetails(fareId, searchResultId),
    staleTime: 5 * 60_000,
  });
