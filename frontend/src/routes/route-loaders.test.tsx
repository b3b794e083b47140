import { afterEach, describe, expect, it } from "@jest/globals";
import type { SearchResult } from "@skyward/contracts/offers";
import { act, screen, waitFor } from "@testing-library/react";
import { resetApiClient } from "../lib/api-client.ts";
import { setSiteLanguage } from "../lib/i18n.ts";
import { clearNotifications } from "../lib/notifications.ts";
import { accountDetails } from "../test-utils/accounts.ts";
import { type FakeReply, type FakeServer, fakeServer } from "../test-utils/fake-server.ts";
import { renderApp } from "../test-utils/render-app.tsx";
import { optionKbpWaw } from "../test-utils/travel-fixtures.ts";

let server: FakeServer | null = null;

afterEach(async () => {
  server?.restore();
  server = null;
  resetApiClient();
  clearNotifications();
  window.localStorage.clear();
  await act(() => setSiteLanguage("en"));
});

/** The fake server, with the answers of `held` routes kept back until `release()`. */
function serveHolding(routes: Record<string, FakeReply | FakeReply[]>, held: string[]) {
  server = fakeServer({ "GET /account/details": { body: accountDetails() }, ...routes });
  const answer = globalThis.fetch;
  const waiting: (() => void)[] = [];
  /** Every request as it leaves, held or not. */
  const asked: string[] = [];
  let released = false;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = new Headers(init?.headers).get("X-HTTP-Method-Override") ?? init?.method ?? "GET";
    const route = `${method} ${String(input).split("?")[0]}`;
    asked.push(route);
    if (held.includes(route) && !released) await new Promise<void>((resume) => waiting.push(resume));
    return answer(input, init);
  }) as typeof fetch;
  return {
    server,
    asked,
    release: () => {
      released = true;
      for (const resume of waiting.splice(0)) resume();
    },
  };
}

const emptySales = { data: [], meta: { page: 1, per_page: 20, total: 0, totals: [] } };

describe("route loaders", () => {
  it("shows the page's outline, not a blank page, while the session loads, then the search form", async () => {
    const { release } = serveHolding({}, ["GET /account/details"]);
    renderApp("/search");
    expect(await screen.findByRole("status", { name: "Loading the page…" })).toHaveAttribute(
      "aria-busy",
      "true",
    );
    expect(screen.queryByRole("heading", { level: 1, name: "Flight search" })).toBeNull();
    release();
    expect(await screen.findByRole("heading", { level: 1, name: "Flight search" })).toBeInTheDocument();
    expect(screen.queryByTestId("page-skeleton")).toBeNull();
  });

  it("asks for a result named by the address once, beside the page's code, and the page shows it", async () => {
    const result: SearchResult = { id: "result-1", currency: "UAH", origin_destinations: [optionKbpWaw()] };
    const { server: fake } = serveHolding({ "POST /search_results": { body: { result, filters: {} } } }, []);
    renderApp("/search?from=KBP&to=WAW&depart=2026-12-12&result=result-1");
    expect(await screen.findByTestId("results-count")).toHaveTextContent("1");
    // The loader's request is the page's too: the search machine takes its answer from the cache.
    expect(fake.calls.filter((call) => call === "POST /search_results")).toHaveLength(1);
    expect(fake.calls).not.toContain("POST /offers");
  });

  it("waits for the first page of sales with the page's outline on screen, and asks for it once", async () => {
    const { asked, release } = serveHolding({ "GET /sales/": { body: emptySales } }, ["GET /sales/"]);
    renderApp("/sales");
    await screen.findByRole("status", { name: "Loading the page…" });
    await waitFor(() => expect(asked).toContain("GET /sales/"));
    expect(screen.queryByRole("heading", { level: 1, name: "Sales" })).toBeNull();
    release();
    expect(await screen.findByRole("heading", { level: 1, name: "Sales" })).toBeInTheDocument();
    expect(await screen.findByText("No sales for this filter.")).toBeInTheDocument();
    expect(asked.filter((call) => call === "GET /sales/")).toHaveLength(1);
  });

  it("says the page is loading in the site language", async () => {
    await act(() => setSiteLanguage("pl"));
    const { release } = serveHolding({}, ["GET /account/details"]);
    renderApp("/bookings");
    expect(await screen.findByRole("status", { name: "Wczytywanie strony…" })).toBeInTheDocument();
    release();
  });
});
