import { afterEach, describe, expect, it } from "@jest/globals";
import type { SearchResult } from "@skyward/contracts/offers";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { setSiteLanguage } from "../../../lib/i18n.ts";
import { clearNotifications, currentNotifications } from "../../../lib/notifications.ts";
import { accountDetails } from "../../../test-utils/accounts.ts";
import {
  type FakeReply,
  type FakeServer,
  fakeServer,
  fieldRefusal,
} from "../../../test-utils/fake-server.ts";
import { renderApp } from "../../../test-utils/render-app.tsx";
import { optionKbpWaw } from "../../../test-utils/travel-fixtures.ts";

const kbp = { code: "KBP", name: "Kyiv Boryspil International Airport", city: "Kyiv", country: "UA" };
const waw = { code: "WAW", name: "Warsaw Chopin Airport", city: "Warsaw", country: "PL" };

/** Two itineraries: PS direct, and a LOT one made from the same fixture. */
function result(): SearchResult {
  const ps = optionKbpWaw();
  const lo = optionKbpWaw();
  lo.id = "lo-option";
  lo.flights = lo.flights.map((flight) => ({
    ...flight,
    id: "LO1580",
    segments: flight.segments.map((segment) => ({
      ...segment,
      id: "LO1580",
      carrier: "LO",
      carrier_name: "LOT Polish Airlines",
      operating_carrier: "LO",
      flight_number: "1580",
    })),
  }));
  lo.fares = lo.fares.map((fare) => ({ ...fare, fare_id: "lo-standard", validating_carrier: "LO" }));
  return { id: "result-1", currency: "UAH", origin_destinations: [ps, lo] };
}

const inDays = (days: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${String(date.getDate()).padStart(2, "0")}.${String(date.getMonth() + 1).padStart(2, "0")}.${date.getFullYear()}`;
};

let server: FakeServer | null = null;
let headers: Headers[] = [];

function serve(routes: Record<string, FakeReply | FakeReply[]>) {
  server = fakeServer({
    "GET /account/details": { body: accountDetails() },
    ...routes,
  });
  const answer = globalThis.fetch;
  headers = [];
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    headers.push(new Headers(init?.headers));
    return answer(input, init);
  }) as typeof fetch;
  return server;
}

async function chooseAirport(label: string, code: string) {
  fireEvent.change(screen.getByRole("textbox", { name: label }), { target: { value: code } });
  fireEvent.click(await screen.findByRole("option", { name: new RegExp(`^${code} `) }));
}

function typeDate(scope: HTMLElement, label: string, value: string) {
  const input = within(scope).getByRole("textbox", { name: label });
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

async function search() {
  await screen.findByRole("heading", { level: 1, name: "Flight search" });
  await chooseAirport("From", "KBP");
  await chooseAirport("To", "WAW");
  typeDate(document.body, "Departure", inDays(21));
  fireEvent.click(screen.getByRole("button", { name: /^Passengers:/ }));
  fireEvent.click(await screen.findByRole("button", { name: "More adults" }));
  fireEvent.click(screen.getByRole("button", { name: "Search" }));
}

const notices = () => currentNotifications().map((notification) => [notification.type, notification.text]);

afterEach(() => {
  server?.restore();
  server = null;
  clearNotifications();
  resetApiClient();
  window.localStorage.clear();
});

// The results are a lazy chunk (results-parts.ts): its first import under Jest can outlast findBy's default 1 s.
const LAZY = { timeout: 15_000 };

describe("search page", () => {
  it("searches with the form's route, date and passengers, then lists the itineraries", async () => {
    const server = serve({
      "GET /airports": [{ body: { data: [kbp] } }, { body: { data: [waw] } }],
      "POST /offers": { body: { result: result() } },
    });
    renderApp("/search");
    await search();
    expect(await screen.findByTestId("results-count", {}, LAZY)).toHaveTextContent("2 options");
    expect(screen.getAllByRole("article")).toHaveLength(2);
    expect(server.bodies["POST /offers"]?.[0]).toMatchObject({
      origin: "KBP",
      destination: "WAW",
      passengers: { adults: 2, children: 0, infants: 0 },
      cabin: "economy",
    });
    expect(server.bodies["POST /offers"]?.[0]).not.toHaveProperty("return_date");
  });

  it("names airports in Ukrainian by the city and the airport's own name, with no English words", async () => {
    serve({ "GET /airports": { body: { data: [kbp] } } });
    await act(() => setSiteLanguage("ua"));
    try {
      renderApp("/search");
      await screen.findByRole("heading", { level: 1, name: "Пошук авіарейсів" });
      fireEvent.change(screen.getByRole("textbox", { name: "Звідки" }), { target: { value: "KBP" } });
      const option = await screen.findByRole("option", { name: /^KBP / });
      await waitFor(() => expect(option).toHaveTextContent("Київ"));
      expect(option).toHaveTextContent("Boryspil · Україна");
      expect(option.textContent).not.toMatch(/Kyiv|International|Airport|Ukraine/);
    } finally {
      await act(() => setSiteLanguage("en"));
    }
  });

  it("names what is missing before searching, and puts the focus on the first field to fix", async () => {
    const server = serve({});
    renderApp("/search");
    fireEvent.click(await screen.findByRole("button", { name: "Search" }));
    expect(await screen.findByText("Choose the departure airport")).toBeInTheDocument();
    expect(screen.getByText("Choose the departure date")).toBeInTheDocument();
    const origin = screen.getByRole("textbox", { name: "From" });
    expect(origin).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(origin).toHaveFocus());
    expect(server.calls).not.toContain("POST /offers");
  });

  it("says a failed search beside the form with a Retry, keeping the form and the results shown before it", async () => {
    const unavailable = {
      status: 502,
      body: {
        errors: [
          {
            status: "502",
            code: "supplier_unavailable",
            title: "Supplier unavailable",
            detail: "The airline did not answer",
          },
        ],
      },
    };
    const server = serve({
      "GET /airports": [{ body: { data: [kbp] } }, { body: { data: [waw] } }],
      "POST /offers": [{ body: { result: result() } }, unavailable, { body: { result: result() } }],
    });
    renderApp("/search");
    await search();
    expect(await screen.findByTestId("results-count", {}, LAZY)).toHaveTextContent("2 options");

    // The search just made moves into the address: on a slow machine the form re-renders after the count shows.
    await screen.findByRole("textbox", { name: "Departure" }, LAZY);
    typeDate(document.body, "Departure", inDays(22));
    fireEvent.click(screen.getByRole("button", { name: "Search" }));
    const alert = await screen.findByRole("alert", {}, LAZY);
    expect(alert).toHaveTextContent("The search failed");
    expect(alert).toHaveTextContent("The airline system is not responding, try again later");
    expect(notices()).toEqual([]);
    // The form keeps the failed search; the results of the one before stay, under its error.
    expect(screen.getByRole("textbox", { name: "Departure" })).toHaveValue(inDays(22));
    const previous = screen.getByRole("region", { name: /^Your previous search: KBP → WAW/ });
    expect(within(previous).getAllByRole("article")).toHaveLength(2);

    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByTestId("results-count", {}, LAZY)).toHaveTextContent("2 options");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    // The Retry asks for the failed search again, not the one before it.
    const dates = (server.bodies["POST /offers"] ?? []).map(
      (body) => (body as { departure_date: string }).departure_date,
    );
    expect(dates).toHaveLength(3);
    expect(dates[1]).not.toBe(dates[0]);
    expect(dates[2]).toBe(dates[1]);
  });

  it("filters by airline on the server and removes the filter again", async () => {
    const all = result();
    const onlyLo = { ...all, origin_destinations: all.origin_destinations.slice(1) };
    const server = serve({
      "GET /airports": [{ body: { data: [kbp] } }, { body: { data: [waw] } }],
      "POST /offers": { body: { result: all } },
      "POST /search_results": { body: { result: onlyLo, filters: { carriers: ["LO"] } } },
      "DELETE /search_results/result-1": { body: { result: all, filters: {} } },
    });
    renderApp("/search");
    await search();
    await screen.findByTestId("results-count", {}, LAZY);
    // The filter panel is its own lazy part: it may come just after the count.
    fireEvent.click(await screen.findByRole("checkbox", { name: "LOT Polish Airlines LO" }, LAZY));
    await waitFor(() => expect(screen.getByTestId("results-count")).toHaveTextContent("1 option of 2"));
    expect(server.bodies["POST /search_results"]).toEqual([
      { search_result_id: "result-1", filters: { carriers: ["LO"] } },
    ]);

    fireEvent.click(screen.getByRole("button", { name: "Reset all" }));
    await waitFor(() => expect(screen.getByTestId("results-count")).toHaveTextContent("2 options"));
    expect(server.calls).toContain("DELETE /search_results/result-1");
  });

  // The longest jsdom walk (about 38 s alone): twice the default time limit, so a loaded machine does not cut it short.
  it("books the chosen fare: checks the form, shows the server's field errors and never books twice", async () => {
    const refused = fieldRefusal(
      "/passengers/1/last_name",
      "must use Latin letters as in the travel document",
      "Invalid",
    );
    const server = serve({
      "GET /airports": [{ body: { data: [kbp] } }, { body: { data: [waw] } }],
      "POST /offers": { body: { result: result() } },
      "POST /bookings": [
        refused,
        refused,
        {
          status: 201,
          body: {
            locator: "E426RA",
            time_limit: "2099-11-22T13:28:50.081Z",
            fake_booking: false,
            provider_status: "confirmed",
            error: null,
            price: { amount: 1129252, currency: "UAH" },
            position: "5-1",
          },
        },
      ],
      "GET /bookings": { body: { data: [], meta: { page: 1, per_page: 20, total: 0, list: "new" } } },
      "GET /bookings/E426RA": {
        status: 404,
        body: { errors: [{ status: "404", code: "booking_not_found", title: "No such booking" }] },
      },
      "GET /balances": { body: { data: [] } },
    });
    const { router } = renderApp("/search");
    await search();
    const [first] = await screen.findAllByRole("article", {}, LAZY);
    // The card's fares may draw a moment after the card itself on a loaded machine.
    fireEvent.click(
      await within(first as HTMLElement).findByRole("button", { name: "Select Economy Standard" }, LAZY),
    );
    await screen.findByRole("heading", { name: "Passengers and contacts" }, LAZY);
    expect(screen.getByRole("group", { name: "Passenger 1 · Adult" })).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Passenger 2 · Adult" })).toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: /^Book for UAH/ }));
    expect(await screen.findByText("Check 18 fields marked in red")).toBeInTheDocument();
    expect(server.calls).not.toContain("POST /bookings");

    for (const [number, first, last, gender] of [
      [1, "Ivan", "Petrenko", "Male"],
      [2, "Olena", "Petrenko", "Female"],
    ] as const) {
      const block = screen.getByRole("group", { name: `Passenger ${number} · Adult` });
      fireEvent.click(within(block).getByText(gender));
      fireEvent.change(within(block).getByRole("textbox", { name: "First name" }), {
        target: { value: first },
      });
      fireEvent.change(within(block).getByRole("textbox", { name: "Last name" }), {
        target: { value: last },
      });
      typeDate(block, "Date of birth", "12.04.1985");
      fireEvent.change(within(block).getByRole("textbox", { name: "Document number" }), {
        target: { value: `FN12345${number}` },
      });
      const issuedBy = within(block).getByLabelText("Issued by", { selector: "input" });
      fireEvent.click(issuedBy);
      fireEvent.change(issuedBy, {
        target: { value: "Ukraine" },
      });
      fireEvent.click(await screen.findByRole("option", { name: "Ukraine" }));
      typeDate(block, "Valid until", "01.01.2032");
    }
    fireEvent.change(screen.getByRole("textbox", { name: "E-mail" }), {
      target: { value: "petrenko@example.com" },
    });
    fireEvent.change(screen.getByRole("textbox", { name: "Phone" }), {
      target: { value: "+380 50 111 22 33" },
    });

    const book = screen.getByRole("button", { name: /^Book for UAH/ });
    fireEvent.click(book);
    const passenger2 = screen.getByRole("group", { name: "Passenger 2 · Adult" });
    expect(
      await within(passenger2).findByText("must use Latin letters as in the travel document"),
    ).toBeInTheDocument();
    // The same data again is the same booking attempt: the server sees the same key.
    fireEvent.click(book);
    await waitFor(() => expect(server.bodies["POST /bookings"]).toHaveLength(2));
    fireEvent.change(within(passenger2).getByRole("textbox", { name: "Last name" }), {
      target: { value: "Petrenko-Koval" },
    });
    fireEvent.click(book);
    await waitFor(() => expect(router.state.location.pathname).toBe("/bookings"));

    const keys = headers.filter((h) => h.has("Idempotency-Key")).map((h) => h.get("Idempotency-Key"));
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(server.bodies["POST /bookings"]?.[2]).toMatchObject({
      search_result_id: "result-1",
      fare_id: "SBX1-KBPWAW-20261212-OW-200-Y-ALL-UAH-1-ST",
      contacts: { email: "petrenko@example.com", phone: "+380501112233" },
      passengers: [
        {
          type: "adult",
          gender: "M",
          first_name: "Ivan",
          last_name: "Petrenko",
          date_of_birth: "1985-04-12",
        },
        {
          type: "adult",
          gender: "F",
          last_name: "Petrenko-Koval",
          document: {
            number: "FN123452",
            issuing_country: "UA",
            nationality: "UA",
            expires_on: "2032-01-01",
          },
        },
      ],
    });
    expect(router.state.location.search).toEqual({ locator: "E426RA" });
    expect(notices()).toContainEqual(["success", expect.stringMatching(/^Booking E426RA is held until /)]);
  }, 120_000);
});
