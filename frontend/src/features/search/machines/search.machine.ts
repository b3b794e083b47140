import type { JourneySearchRequest, SearchResult } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import { assign, fromPromise, setup } from "xstate";
import { errorMessages, notifyingErrors } from "../../../lib/api-client.ts";
import { type Restored, restoreResult } from "../api/restore-result.ts";
import {
  applyFilters,
  type FilteredResult,
  type FilterKey,
  removeFilter,
  searchOffers,
} from "../api/search-offers.ts";
import { emptySearch, type LastResult, type SearchContext, START_CONTEXT } from "./search-start.ts";

export type { LastResult, SearchContext };

export type SearchEvent =
  | { type: "search.submit"; request: JourneySearchRequest }
  | {
      type: "search.restore";
      request: JourneySearchRequest;
      searchResultId: string;
      filters: SearchFilters;
      fareId: string | null;
    }
  | { type: "filter.apply"; filters: SearchFilters }
  | { type: "filter.remove"; keys: FilterKey[] }
  | { type: "fare.select"; fareId: string }
  | { type: "booking.close" };

export type FilterChange = { apply: SearchFilters } | { remove: FilterKey[] };

/** Filters are removed one call per key; the last answer is the result with none of them. */
async function changeFilters(searchResultId: string, change: FilterChange): Promise<FilteredResult> {
  if ("apply" in change) return applyFilters(searchResultId, change.apply);
  let last: FilteredResult | null = null;
  for (const key of change.remove) last = await removeFilter(searchResultId, key);
  if (!last) throw new Error("no filter to remove");
  return last;
}

const hasFare = (result: SearchResult, fareId: string | null) =>
  fareId !== null &&
  result.origin_destinations.some((option) => option.fares.some((f) => f.fare_id === fareId));

/**
 * The search (seed spec, section 4): start → searching → result on success; on error `failed`, which says why
 * beside the form (the page offers a Retry) and keeps the results shown before it. Inside a result the agent
 * filters it and opens the booking form for a fare.
 */
export const searchMachine = setup({
  types: {
    context: {} as SearchContext,
    events: {} as SearchEvent,
  },
  actors: {
    // Quiet on failure: the page says it beside the form, with a Retry.
    searchOffers: fromPromise<{ result: SearchResult; traceId: string | null }, JourneySearchRequest>(
      ({ input }) => searchOffers(input),
    ),
    // Quiet on failure: an expired result is searched again.
    restoreResult: fromPromise<Restored, { searchResultId: string; filters: SearchFilters }>(({ input }) =>
      restoreResult(input.searchResultId, input.filters),
    ),
    changeFilters: fromPromise<FilteredResult, { searchResultId: string; change: FilterChange }>(
      ({ input }) => notifyingErrors(changeFilters(input.searchResultId, input.change)),
    ),
  },
  actions: {
    // The results on screen stay as the last ones until the new search answers (or fails).
    startSearch: assign(({ context }, params: { request: JourneySearchRequest }) => ({
      ...emptySearch,
      request: params.request,
      last:
        context.request && context.result && context.unfiltered
          ? { request: context.request, result: context.result, unfiltered: context.unfiltered }
          : context.last,
    })),
    showResult: assign((_, params: { result: SearchResult; traceId: string | null }) => ({
      result: params.result,
      unfiltered: params.result,
      filters: {},
      traceId: params.traceId,
      last: null,
    })),
    showFailure: assign((_, params: { error: unknown }) => ({
      ...emptySearch,
      failure: errorMessages(params.error),
    })),
    showRestored: assign((_, params: Restored) => ({ ...params, traceId: null })),
    showFiltered: assign((_, params: FilteredResult) => ({
      result: params.result,
      filters: params.filters,
      selectedFareId: null,
    })),
    selectFare: assign((_, params: { fareId: string }) => ({ selectedFareId: params.fareId })),
    closeBooking: assign({ selectedFareId: null }),
  },
  guards: {
    restoredFare: ({ context }, params: Restored) => hasFare(params.result, context.selectedFareId),
    hasFilters: (_, params: { keys: FilterKey[] }) => params.keys.length > 0,
  },
}).createMachine({
  id: "search",
  context: START_CONTEXT,
  initial: "start",
  on: {
    "search.submit": {
      target: ".searching",
      reenter: true,
      actions: { type: "startSearch", params: ({ event }) => ({ request: event.request }) },
    },
    "search.restore": {
      target: ".restoring",
      reenter: true,
      actions: assign(({ event }) => ({
        ...emptySearch,
        request: event.request,
        selectedFareId: event.fareId,
      })),
    },
  },
  states: {
    start: {},
    failed: {},
    restoring: {
      invoke: {
        src: "restoreResult",
        input: ({ event }) =>
          event.type === "search.restore"
            ? { searchResultId: event.searchResultId, filters: event.filters }
            : { searchResultId: "", filters: {} },
        onDone: [
          {
            guard: { type: "restoredFare", params: ({ event }) => event.output },
            target: "result.booking",
            actions: { type: "showRestored", params: ({ event }) => event.output },
          },
          {
            target: "result",
            actions: [{ type: "showRestored", params: ({ event }) => event.output }, "closeBooking"],
          },
        ],
        onError: { target: "searching", actions: "closeBooking" },
      },
    },
    searching: {
      invoke: {
        src: "searchOffers",
        input: ({ context }) => context.request as JourneySearchRequest,
        onDone: {
          target: "result",
          actions: { type: "showResult", params: ({ event }) => event.output },
        },
        onError: {
          target: "failed",
          actions: { type: "showFailure", params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    result: {
      initial: "browsing",
      states: {
        browsing: {
          on: {
            "filter.apply": { target: "filtering" },
            "filter.remove": {
              guard: { type: "hasFilters", params: ({ event }) => ({ keys: event.keys }) },
              target: "filtering",
            },
            "fare.select": {
              target: "booking",
              actions: { type: "selectFare", params: ({ event }) => ({ fareId: event.fareId }) },
            },
          },
        },
        filtering: {
          invoke: {
            src: "changeFilters",
            input: ({ context, event }) => ({
              searchResultId: context.unfiltered?.id ?? "",
              change:
                event.type === "filter.apply"
                  ? { apply: { ...context.filters, ...event.filters } }
                  : { remove: event.type === "filter.remove" ? event.keys : [] },
            }),
            onDone: {
              target: "browsing",
              actions: { type: "showFiltered", params: ({ event }) => event.output },
            },
            onError: { target: "browsing" },
          },
        },
        booking: {
          on: {
            "booking.close": { target: "browsing", actions: "closeBooking" },
            "fare.select": {
              actions: { type: "selectFare", params: ({ event }) => ({ fareId: event.fareId }) },
            },
          },
        },
      },
    },
  },
});
