import type { JourneySearchRequest, SearchResult } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";

// Without XState: the page shows the search's start before the machine's code loads (use-search-machine.ts).

export interface SearchContext {
  request: JourneySearchRequest | null;
  /** What the agent sees: the result narrowed by the filters. */
  result: SearchResult | null;
  /** The whole answer, which the filter choices (carriers, prices) are drawn from. */
  unfiltered: SearchResult | null;
  filters: SearchFilters;
  traceId: string | null;
  /** The fare the booking form is open for. */
  selectedFareId: string | null;
  /** Why the last search failed (the server's words), said beside the form with a Retry. */
  failure: string[] | null;
  /** The results shown before a search that failed, kept on screen under its error. */
  last: LastResult | null;
}

/** A search's results as the agent last saw them. */
export interface LastResult {
  request: JourneySearchRequest;
  result: SearchResult;
  unfiltered: SearchResult;
}

export const emptySearch = {
  result: null,
  unfiltered: null,
  filters: {},
  traceId: null,
  selectedFareId: null,
  failure: null,
} satisfies Omit<SearchContext, "request" | "last">;

/** What the search holds before its first event (use-search-machine.ts shows it until the machine's code loads). */
export const START_CONTEXT: SearchContext = { request: null, last: null, ...emptySearch };
