import type { JourneySearchRequest, SearchResponse, SearchResult } from "@skyward/contracts/offers";
import type { FilteredSearchResponse, SearchFilters } from "@skyward/contracts/search";
import { api } from "../../../lib/api-client.ts";

export type FilterKey = keyof SearchFilters;

export type FilteredResult = FilteredSearchResponse;

/**
 * `POST /offers`: the search. The trace id helps support find a supplier's answer. Administrators and support have
 * no company of their own: they name the one they book for (`company_id`, seed spec's search call).
 */
export async function searchOffers(
  request: JourneySearchRequest,
  companyId?: string,
): Promise<{ result: SearchResult; traceId: string | null }> {
  const { data, traceId } = await api.post<SearchResponse>(
    "/offers",
    companyId ? { ...request, company_id: companyId } : request,
  );
  return { result: data.result, traceId };
}

/** `POST /search_results`: sets filters on a result; the server keeps them and answers the narrowed result. */
export async function applyFilters(searchResultId: string, filters: SearchFilters): Promise<FilteredResult> {
  const { data } = await api.post<FilteredSearchResponse>("/search_results", {
    search_result_id: searchResultId,
    filters,
  });
  return data;
}

/** `DELETE /search_results/{id}?filter_key=`: drops one filter. */
export async function removeFilter(searchResultId: string, key: FilterKey): Promise<FilteredResult> {
  const { data } = await api.delete<FilteredSearchResponse>(
    `/search_results/${encodeURIComponent(searchResultId)}`,
    {
      query: { filter_key: key },
    },
  );
  return data;
}
