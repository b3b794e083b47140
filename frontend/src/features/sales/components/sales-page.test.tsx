import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
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
