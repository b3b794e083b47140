import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { createQueryClient } from "../../../lib/query-client.ts";
import { type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import type { SalesFilter } from "../api/sales-list.ts";
import { SalesPage } from "./sales-page.tsx";

let server: FakeServer | undefined;
let changes: { filter: SalesFilter; page: number }[] = [];

beforeEach(() => {
  resetApiClient();
  changes = [];
  server = fakeServer({
    "GET /sales/": { body: { data: [], meta: { page: 1, per_page: 20, total: 0, totals: [] } } },
  });
});
afterEach(() => server?.restore());

function renderSales(filter: SalesFilter = { text: "", dateFrom: null, dateTo: null }) {
  renderWithProviders(
    <QueryClientProvider client={createQueryClient()}>
      <SalesPage filter={filter} page={1} onChange={(next) => changes.push(next)} />
    </QueryClientProvider>,
  );
}

describe("the sales list failing to load", () => {
  it("says so in its place, with a Retry that loads it", async () => {
    server?.restore();
    const denied = {
      status: 403,
      body: {
        errors: [{ status: "403", code: "forbidden", title: "forbidden", detail: "Not for this role" }],
      },
    };
    server = fakeServer({
      "GET /sales/": [
        denied,
        { body: { data: [ticketLine], meta: { page: 1, per_page: 20, total: 1, totals: [] } } },
      ],
    });
    renderSales();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("This could not be loaded");
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("5665411767380")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});

describe("the sales filters", () => {
  it("when the end date is before the start, then says so at the end's field and keeps the URL's filter", async () => {
    renderSales({ text: "", dateFrom: "2026-01-10", dateTo: null });
    fireEvent.change(screen.getByRole("textbox", { name: "To date" }), { target: { value: "09.01.2026" } });
    expect(await screen.findByText("Cannot be before the start")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "To date" })).toHaveAttribute("aria-invalid", "true");
    expect(changes).toEqual([]);
  });

  it("when the text is longer than the filter takes, then says so and does not search", async () => {
    renderSales();
    fireEvent.change(screen.getByRole("textbox", { name: "Ticket, locator, passenger or route" }), {
      target: { value: "k".repeat(101) },
    });
    expect(await screen.findByText("At most 100 characters")).toBeInTheDocument();
    // Past the search box's pause, nothing went to the URL.
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(changes).toEqual([]);
  });

  it("when valid, then puts the dates at once and the typed text after a pause in the URL, from page 1", async () => {
    renderSales();
    fireEvent.change(screen.getByRole("textbox", { name: "From date" }), { target: { value: "01.01.2026" } });
    expect(changes).toEqual([{ filter: { text: "", dateFrom: "2026-01-01", dateTo: null }, page: 1 }]);
    fireEvent.change(screen.getByRole("textbox", { name: "Ticket, locator, passenger or route" }), {
      target: { value: "kovalchuk" },
    });
    await waitFor(() =>
      expect(changes.at(-1)).toEqual({
        filter: { text: "kovalchuk", dateFrom: "2026-01-01", dateTo: null },
        page: 1,
      }),
    );
    expect(screen.queryByText("Cannot be before the start")).not.toBeInTheDocument();
  });
});

const ticketLine = {
  id: "5665411767380-ticket",
  kind: "ticket",
  status: "issued",
  locator: "E426RA",
  document_number: "5665411767380",
  original_document: null,
  passenger_name: "PETRENKO/IVAN",
  carrier: "PS",
  route: "KBP-WAW",
  departure_at: "2026-12-12T19:55:00+02:00",
  sold_at: "2026-11-21T13:30:00.000Z",
  sale_date: "2026-11-21",
  agent_id: "u-taras",
  agent_name: "Taras Shevchuk",
  company_id: "c-kyiv",
  company_name: "Dnipro Travel Kyiv",
  agency_id: "a-dnipro",
  agency_name: "Dnipro Travel",
  channel_id: "ch1",
  fake_booking: false,
  base_fare: 435800,
  taxes: 128826,
  agency_markup: 0,
  company_markup: 0,
  transaction_fee: 0,
  penalty: 0,
  total: 564626,
  currency: "UAH",
};

describe("the receipt's own prices", () => {
  let urls: string[] = [];
  beforeEach(() => {
    server?.restore();
    server = fakeServer({
      "GET /sales/": { body: { data: [ticketLine], meta: { page: 1, per_page: 20, total: 1, totals: [] } } },
      [`GET /sales/${ticketLine.id}`]: { body: "%PDF" },
    });
    urls = [];
    const answer = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input));
      return answer(input, init);
    }) as typeof fetch;
  });
  const openPrices = async () => {
    renderSales();
    fireEvent.click(await screen.findByRole("button", { name: "Own prices" }));
    return screen.findByRole("button", { name: "Download with these prices" });
  };

  it("when the fare is left empty, then says it is required and downloads nothing", async () => {
    fireEvent.click(await openPrices());
    expect(await screen.findByText("Required")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Fare" })).toHaveAttribute("aria-invalid", "true");
    expect(urls.filter((url) => url.startsWith(`/sales/${ticketLine.id}`))).toEqual([]);
  });

  it("when valid, then asks for the receipt with the prices in minor units, empty ones as 0", async () => {
    const download = await openPrices();
    fireEvent.change(screen.getByRole("textbox", { name: "Fare" }), { target: { value: "1000.5" } });
    fireEvent.change(screen.getByRole("textbox", { name: "Markups and fees" }), { target: { value: "25" } });
    fireEvent.click(download);
    await waitFor(() => expect(urls.some((url) => url.startsWith(`/sales/${ticketLine.id}?`))).toBe(true));
    const query = new URLSearchParams(
      urls.find((url) => url.startsWith(`/sales/${ticketLine.id}?`))?.split("?")[1],
    );
    expect(query.get("custom_prices[fare]")).toBe("100050");
    expect(query.get("custom_prices[taxes]")).toBe("0");
    expect(query.get("custom_prices[fees]")).toBe("2500");
  });
});
