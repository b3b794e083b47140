import type { SearchContext } from "./search.machine.ts";

// Without XState: the page shows the search's start before the machine's code loads (use-search-machine.ts).

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
