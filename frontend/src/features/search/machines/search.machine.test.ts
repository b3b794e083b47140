import { afterEach, describe, expect, it } from "@jest/globals";
import type { JourneySearchRequest, SearchRequest, SearchResult } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import { createActor, fromPromise, waitFor } from "xstate";
import { ApiError } from "../../../lib/api-client.ts";
import { clearNotifications, currentNotifications } from "../../../lib/notifications.ts";
import type { FilteredResult } from "../api/search-offers.ts";
import { type FilterChange, searchMachine } from "./search.machine.ts";

const request: SearchRequest = {
  origin: "KBP",
  destination: "WAW",
  departure_date: "2026-12-12",
  passengers: { adults: 2, children: 0, infants: 0 },
  cabin: "economy",
};

const result = (id: string, options: string[]): SearchResult =>
  ({
    id,
    currency: "UAH",
    origin_destinations: options.map((od) => ({ id: od, flights: [], fares: [], ancillaries: [] })),
  }) as unknown as SearchResult;

type Reply<T> = T | Error;

function startSearch(script: { search?: Reply<SearchResult>[]; filters?: Reply<FilteredResult>[] }) {
  const calls: string[] = [];
  const answer = <T>(reply: Reply<T> | undefined): Promise<T> =>
    reply instanceof Error
      ? Promise.reject(reply)
      : reply
        ? Promise.resolve(reply)
        : Promise.reject(new Error("unscripted"));
  const machine = searchMachine.provide({
    actors: {
      searchOffers: fromPromise<{ result: SearchResult; traceId: string | null }, JourneySearchRequest>(
        async ({ input }) => {
          calls.push(`search ${input.origin}-${input.destination}`);
          return { result: await answer(script.search?.shift()), traceId: "trace-1" };
        },
      ),
      changeFilters: fromPromise<FilteredResult, { searchResultId: string; change: FilterChange }>(
        async ({ input }) => {
          calls.push(`filters ${input.searchResultId} ${JSON.stringify(input.change)}`);
          return answer(script.filters?.shift());
        },
      ),
    },
  });
  const actor = createActor(machine).start();
  const settled = () => waitFor(actor, (s) => !s.matches("searching") && !s.matches({ result: "filtering" }));
  return { actor, calls, settled };
}

afterEach(() => clearNotifications());

describe("search machine", () => {
  it("starts at the search form", () => {
    const { actor } = startSearch({});
    expect(actor.getSnapshot().value).toBe("start");
    expect(actor.getSnapshot().context.result).toBeNull();
  });

  it("shows that it is searching, then the result", async () => {
    const { actor, calls, settled } = startSearch({ search: [result("r-1", ["a", "b"])] });
    actor.send({ type: "search.submit", request });
    expect(actor.getSnapshot().value).toBe("searching");
    expect(actor.getSnapshot().context.request).toEqual(request);
    await settled();
    expect(actor.getSnapshot().value).toEqual({ result: "browsing" });
    expect(actor.getSnapshot().context).toMatchObject({ traceId: "trace-1", filters: {} });
    expect(actor.getSnapshot().context.result?.origin_destinations).toHaveLength(2);
    expect(calls).toEqual(["search KBP-WAW"]);
  });

  it("fails beside the form: says why, keeps the results shown before it, and a retry of the search shows its results", async () => {
    const failure = new ApiError(502, [
      {
        status: "502",
        code: "supplier_unavailable",
        title: "Supplier unavailable",
        detail: "The airline did not answer",
      },
    ]);
    const { actor, calls, settled } = startSearch({
      search: [result("r-1", ["a"]), failure, result("r-2", ["b", "c"])],
    });
    actor.send({ type: "search.submit", request });
    await settled();
    const failing = { ...request, destination: "ERR" };
    actor.send({ type: "search.submit", request: failing });
    await settled();
    expect(actor.getSnapshot().value).toBe("failed");
    expect(actor.getSnapshot().context).toMatchObject({
      request: failing,
      result: null,
      failure: ["The airline system is not responding, try again later"],
      last: { request, result: { id: "r-1" }, unfiltered: { id: "r-1" } },
    });

    actor.send({ type: "search.submit", request: failing });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ result: "browsing" });
    expect(actor.getSnapshot().context).toMatchObject({ failure: null, last: null, result: { id: "r-2" } });
    expect(calls).toEqual(["search KBP-WAW", "search KBP-ERR", "search KBP-ERR"]);
  });

  it("says a failed search's errors in its state, not as notifications", async () => {
    const machine = searchMachine;
    const { fetch: realFetch } = globalThis;
    globalThis.fetch = (async () => ({
      ok: false,
      status: 502,
      headers: new Headers(),
      text: async () =>
        JSON.stringify({
          errors: [
            {
              status: "502",
              code: "supplier_unavailable",
              title: "Supplier unavailable",
              detail: "No answer",
            },
          ],
        }),
    })) as unknown as typeof fetch;
    try {
      const actor = createActor(machine).start();
      actor.send({ type: "search.submit", request });
      await waitFor(actor, (s) => s.matches("failed"));
      expect(actor.getSnapshot().context.failure).toEqual([
        "The airline system is not responding, try again later",
      ]);
      expect(currentNotifications()).toEqual([]);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it("sends every filter set so far, and removes filters one key at a time", async () => {
    const stops: SearchFilters = { stops: [0] };
    const both: SearchFilters = { stops: [0], carriers: ["PS", "LO"] };
    const { actor, calls, settled } = startSearch({
      search: [result("r-1", ["a", "b", "c"])],
      filters: [
        { result: result("r-1", ["a", "b"]), filters: stops },
        { result: result("r-1", ["a"]), filters: both },
        { result: result("r-1", ["a", "b", "c"]), filters: {} },
      ],
    });
    actor.send({ type: "search.submit", request });
    await settled();
    actor.send({ type: "filter.apply", filters: stops });
    expect(actor.getSnapshot().value).toEqual({ result: "filtering" });
    await settled();
    actor.send({ type: "filter.apply", filters: { carriers: ["PS", "LO"] } });
    await settled();
    expect(actor.getSnapshot().context.filters).toEqual(both);
    expect(actor.getSnapshot().context.result?.origin_destinations).toHaveLength(1);
    expect(actor.getSnapshot().context.unfiltered?.origin_destinations).toHaveLength(3);

    actor.send({ type: "filter.remove", keys: ["stops", "carriers"] });
    await settled();
    expect(actor.getSnapshot().context.filters).toEqual({});
    expect(calls).toEqual([
      "search KBP-WAW",
      'filters r-1 {"apply":{"stops":[0]}}',
      'filters r-1 {"apply":{"stops":[0],"carriers":["PS","LO"]}}',
      'filters r-1 {"remove":["stops","carriers"]}',
    ]);
  });

  it("keeps the result when a filter cannot be applied", async () => {
    const { actor, settled } = startSearch({
      search: [result("r-1", ["a", "b"])],
      filters: [new ApiError(404, [])],
    });
    actor.send({ type: "search.submit", request });
    await settled();
    actor.send({ type: "filter.apply", filters: { baggage: "checked" } });
    await settled();
    expect(actor.getSnapshot().value).toEqual({ result: "browsing" });
    expect(actor.getSnapshot().context.result?.origin_destinations).toHaveLength(2);
    expect(actor.getSnapshot().context.filters).toEqual({});
  });

  it("opens the booking form for a fare and closes it; a new search forgets it", async () => {
    const { actor, settled } = startSearch({ search: [result("r-1", ["a"]), result("r-2", ["b"])] });
    actor.send({ type: "search.submit", request });
    await settled();
    actor.send({ type: "fare.select", fareId: "F-1" });
    expect(actor.getSnapshot().value).toEqual({ result: "booking" });
    expect(actor.getSnapshot().context.selectedFareId).toBe("F-1");
    actor.send({ type: "booking.close" });
    expect(actor.getSnapshot().value).toEqual({ result: "browsing" });
    actor.send({ type: "fare.select", fareId: "F-2" });
    actor.send({ type: "search.submit", request });
    await settled();
    expect(actor.getSnapshot().context.selectedFareId).toBeNull();
    expect(actor.getSnapshot().context.result?.id).toBe("r-2");
  });
});
