import type { JourneySearchRequest } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import { createActor, fromPromise } from "xstate";
import type { Restored } from "../api/restore-result.ts";
import { searchMachine } from "./search.machine.ts";

/** How the page searches and restores (the company it searches for, the query cache it restores through). */
export interface SearchActors {
  searchOffers: (
    request: JourneySearchRequest,
  ) => ReturnType<typeof import("../api/search-offers.ts").searchOffers>;
  restoreResult: (input: { searchResultId: string; filters: SearchFilters }) => Promise<Restored>;
}

/** The search machine, started with the page's own ways to search and restore. */
export function startSearchActor(actors: SearchActors) {
  return createActor(
    searchMachine.provide({
      actors: {
        // A failure is said beside the form (with a Retry), not in a notification.
        searchOffers: fromPromise(({ input }: { input: JourneySearchRequest }) => actors.searchOffers(input)),
        restoreResult: fromPromise(
          ({ input }: { input: { searchResultId: string; filters: SearchFilters } }) =>
            actors.restoreResult(input),
        ),
      },
    }),
  ).start();
}

export type SearchActor = ReturnType<typeof startSearchActor>;
