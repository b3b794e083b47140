import type { SearchResult } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import { queryOptions } from "@tanstack/react-query";
import { applyFilters } from "./search-offers.ts";

export interface Restored {
  result: SearchResult;
  unfiltered: SearchResult;
  filters: SearchFilters;
}

/** A result the server still keeps (a reload, a link): the whole of it, then narrowed by the address's filters. */
export async function restoreResult(searchResultId: string, filters: SearchFilters): Promise<Restored> {
  const all = await applyFilters(searchResultId, {});
  const narrowed = Object.keys(filters).length > 0 ? await applyFilters(searchResultId, filters) : all;
  return { result: narrowed.result, unfiltered: all.result, filters: narrowed.filters };
}

/**
 * The same as a query: the /search route's loader starts it beside the page's code, and the page's search machine
 * takes the answer from it (the same result and filters always answer the same offers, hence the short freshness).
 */
export const restoredResultQueryOptions = (searchResultId: string, filters: SearchFilters) =>
  queryOptions({
    queryKey: ["search-result", searchResultId, filters],
    queryFn: () => restoreResult(searchResultId, filters),
    staleTime: 30_000,
    gcTime: 60_000,
    retry: false,
    // An expired result is searched again by the page: not an error to report.
    meta: { notifyErrors: false },
  });
