import { afterEach, describe, expect, it } from "@jest/globals";
import { bookingActions } from "@skyward/contracts/booking-actions";
import type { BookingDetails, BookingRow } from "@skyward/contracts/bookings";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { resetApiClient } from "../../../lib/api-client.ts";
import { clearNotifications, currentNotifications } from "../../../lib/notifications.ts";
import { accountDetails } from "../../../test-utils/accounts.ts";
import { type FakeReply, type FakeServer, fakeServer } from "../../../test-utils/fake-server.ts";
import { renderApp } from "../../../test-utils/render-app.tsx";
import { flightKbpWaw, priceDetail, standardFare, uah } from "../../../test-utils/travel-fixtures.ts";

const LOCATOR = "E426RA";

/** A booking as the server sends it, its "what can I do now" decided by the server's own rule. */
function booking(overrides: Partial<BookingDetails> = {}): BookingDetails {
  const details = bookingWithout(overrides);
  return {
    ...details,
    actions:
      details.actions ??
      bookingActions(
        {
          ...details,
          auto_cancel: false,
          refunded_passengers: details.refunded_passengers ?? [],
          ancillaries: details.ancillaries ?? [],
        },
        new Date(),
      ),
  };
}

function bookingWithout(overrides: Partial<BookingDetails>): BookingDetails {
  const fare = standardFare();
  return {
    locator: LOCATOR,
    status: "held",
    list: "new",
    cancel_before: "2099-11-22T13:28:50.081Z",
    price: fare.price_detail.total,
    price_detail: fare.price_detail,
    pending_price: null,
    time_limit: "2099-11-22T13:28:50.081Z",
    provider_status: "confirmed",
    fake_booking: false,
    tickets_present: false,
    tickets: [],
    async_emd_issue: false,
    error: null,
    fare: {
      fare_id: fare.fare_id,
      carrier: "PS",
      route: "KBP-WAW",
      departure_at: flightKbpWaw.departure_at,
      fare,
      flights: [flightKbpWaw],
    },
    passengers: ["Ivan", "Olena"].map((first, index) => ({
      type: "adult" as const,
      gender: index === 0 ? ("M" as const) : ("F" as const),
      first_name: first,
      last_name: "Petrenko",
      date_of_birth: "1985-04-12",
      document: {
        type: "passport" as const,
        number: `FN12345${index}`,
        issuing_country: "UA",
        nationality: "UA",
        expires_on: "2032-01-01",
      },
    })),
    contacts: { email: "petrenko@example.com", phone: "+380501112233" },
    comments: [],
    issued_at: null,
    void_until: null,
    operation: null,
    created_at: "2026-11-21T13:28:50.087Z",
    company_id: "c-kyiv",
    agent_id: "u-taras",
    ...overrides,
  };
}

const issued = (): Partial<BookingDetails> => ({
  status: "issued",
  list: "issued",
  tickets_present: true,
  issued_at: "2026-11-21T13:30:00.000Z",
  void_until: "2099-11-21T21:59:59.000Z",
  tickets: [0, 1].map((index) => ({
    ticket_number: `566541176738${index}`,
    passenger_index: index,
    passenger_name: index === 0 ? "PETRENKO/IVAN" : "PETRENKO/OLENA",
    validating_carrier: "PS",
    base_fare: uah(435800),
    taxes: uah(128826),
    total: uah(564626),
  })),
});

function row(locator: string): BookingRow {
  return {
    locator,
    status: "held",
    list: "new",
    fake_booking: false,
    provider_status: "confirmed",
    route: "KBP-WAW",
    carrier: "PS",
    departure_at: "2026-12-12T19:55:00+02:00",
    passenger_names: "PETRENKO/IVAN, PETRENKO/OLENA",
    ticket_numbers: "",
    price: uah(1129252),
    time_limit: "2099-11-22T13:28:50.081Z",
    created_at: "2026-11-21T13:28:50.087Z",
    company_id: "c-kyiv",
    agent_id: "u-taras",
    booked_by: "Taras Shevchuk",
    company_name: "Dnipro Travel Kyiv",
  };
}

const listOf = (...locators: string[]) => ({
  body: { data: locators.map(row), meta: { page: 1, per_page: 20, total: locators.length, list: "new" } },
});

const failure = (status: number, code: string, detail: string): FakeReply => ({
  status,
  body: { errors: [{ status: String(status), code, title: code, detail }] },
});

let server: FakeServer | null = null;
/** The URLs asked, with their queries (the fake server records paths only). */
let urls: string[] = [];

function serve(routes: Record<string, FakeReply | FakeReply[]>) {
  server = fakeServer({
    "GET /account/details": { body: accountDetails() },
    "GET /balances": {
      body: {
        data: [{ company_id: "c-kyiv", company_name: "Dnipro Travel Kyiv", balance_amount: uah(5_000_000) }],
      },
    },
    "GET /bookings": listOf(LOCATOR, "Y857RG"),
    ...routes,
  });
  const answer = globalThis.fetch;
  urls = [];
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(input));
    return answer(input, init);
  }) as typeof fetch;
  return server;
}

const drawer = () => screen.findByRole("dialog", { name: `Booking ${LOCATOR}` });
const notices = () => currentNotifications().map((notification) => [notification.type, notification.text]);

afterEach(() => {
  server?.restore();
  server = null;
  clearNotifications();
  resetApiClient();
  window.localStorage.clear();
});

describe("bookings page", () => {
  it("shows the new list by default, with the company balance", async () => {
    serve({});
    const { router } = renderApp("/bookings");
    expect(await screen.findByRole("heading", { level: 1, name: "Bookings" })).toBeInTheDocument();
    expect(await screen.findByText("Y857RG")).toBeInTheDocument();
    // Departures read as the airport's wall clock (19:55 in Kyiv), whatever the agent's own zone.
    expect(screen.getAllByText("12 Dec 2026, 19:55")).toHaveLength(2);
    expect(screen.getByRole("tab", { name: "New", selected: true })).toBeInTheDocument();
    expect(urls.find((url) => url.startsWith("/bookings?"))).toBe("/bookings?list=new&page=1&per_page=20");
    expect((await screen.findByTestId("balance-amount")).dataset.amount).toBe("5000000");
    expect(router.state.location.search).toEqual({});
  });

  it("says a list that failed to load in its place, with a Retry that loads it, and no notification", async () => {
    const down = failure(503, "service_unavailable", "The service is busy, try again in a moment");
    // A server in trouble is asked three times by the route's loader, and three times by the page, before it says so.
    serve({ "GET /bookings": [down, down, down, down, down, down, listOf(LOCATOR, "Y857RG")] });
    renderApp("/bookings");
    const alert = await screen.findByRole("alert", {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent("This could not be loaded");
    expect(alert).toHaveTextContent("The service is busy, try again in a moment");
    expect(notices()).toEqual([]);
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Y857RG")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("opens the booking the locator names, upper-cased, in a drawer", async () => {
    serve({ [`GET /bookings/${LOCATOR}`]: { body: { data: booking() } } });
    const { router } = renderApp(`/bookings?locator=%20${LOCATOR.toLowerCase()}`);
    const opened = await drawer();
    expect(await within(opened).findByTestId("booking-locator")).toHaveTextContent(LOCATOR);
    expect(within(opened).getByTestId("booking-total").dataset.amount).toBe("1129252");
    expect(within(opened).getByText("PETRENKO/OLENA")).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ locator: LOCATOR });
  });

  it("names the agency's automatic cancellation as a held booking's deadline", async () => {
    const lost = "2099-11-22T13:18:50.081Z";
    serve({
      [`GET /bookings/${LOCATOR}`]: {
        body: { data: booking({ cancel_before: lost, auto_cancel_at: lost }) },
      },
    });
    renderApp(`/bookings?locator=${LOCATOR}`);
    const opened = await drawer();
    expect(await within(opened).findByText("Cancelled automatically at")).toBeInTheDocument();
    expect(within(opened).queryByText("Time limit")).toBeNull();
    expect(
      within(opened).getByText(/Your agency cancels unissued bookings automatically/),
    ).toBeInTheDocument();
  });

  it("says when the agency's setting cancelled a booking, and why", async () => {
    const cancelled = booking({
      status: "cancelled",
      list: "cancelled",
      auto_cancelled_at: "2099-11-22T13:18:51.000Z",
    });
    serve({ [`GET /bookings/${LOCATOR}`]: { body: { data: cancelled } } });
    renderApp(`/bookings?locator=${LOCATOR}`);
    const again = await drawer();
    expect(await within(again).findByTestId("auto-cancelled")).toHaveTextContent(
      /Cancelled automatically at .* by your agency's setting/,
    );
  });

  it("sends an anonymous visitor to sign in and back to the booking afterwards", async () => {
    serve({
      "GET /account/details": {
        status: 401,
        body: { errors: [{ status: "401", code: "unauthorized", title: "Unauthorized" }] },
      },
    });
    const { router } = renderApp(`/bookings?locator=${LOCATOR}`);
    await waitFor(() => expect(router.state.location.pathname).toBe("/sign_in"));
    expect(router.state.location.search).toEqual({ redirect: `/bookings?locator=${LOCATOR}` });
  });

  it("drops an expired booking (416) from the list and returns to /bookings", async () => {
    serve({
      [`GET /bookings/${LOCATOR}`]: failure(
        416,
        "booking_expired",
        "The time limit of this booking has passed",
      ),
    });
    const { router } = renderApp(`/bookings?locator=${LOCATOR}`);
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(notices()).toContainEqual(["error", "The time limit of this booking has passed"]);
    await screen.findByText("Y857RG");
    expect(screen.queryByText(LOCATOR)).not.toBeInTheDocument();
  });

  it("returns to /bookings when the booking cannot be asked for (400)", async () => {
    serve({ [`GET /bookings/${LOCATOR}`]: failure(400, "invalid", "Bad locator") });
    const { router } = renderApp(`/bookings?locator=${LOCATOR}`);
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByText(LOCATOR)).toBeInTheDocument();
  });

  it("keeps a booking that failed to open on screen with its error, to try again", async () => {
    serve({
      [`GET /bookings/${LOCATOR}`]: [
        failure(404, "booking_not_found", "No such booking"),
        { body: { data: booking() } },
      ],
    });
    const { router } = renderApp(`/bookings?locator=${LOCATOR}`);
    const opened = await drawer();
    expect(await within(opened).findByText("The booking could not be opened")).toBeInTheDocument();
    expect(within(opened).getByText("No such booking")).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ locator: LOCATOR });
    fireEvent.click(within(opened).getByRole("button", { name: "Retry" }));
    expect(await within(opened).findByTestId("booking-locator")).toHaveTextContent(LOCATOR);
  });

  it("issues at the airline's new price after a price change, with reshop", async () => {
    const changed = priceDetail(609796);
    const server = serve({
      [`GET /bookings/${LOCATOR}`]: [
        { body: { data: booking() } },
        { body: { data: booking({ pending_price: { price: changed.total, price_detail: changed } }) } },
        { body: { data: booking({ ...issued(), price: changed.total, price_detail: changed }) } },
      ],
      "POST /bookings/issue": [
        failure(409, "price_changed", "The airline's price changed from 11292.52 UAH to 12195.92 UAH."),
        {
          status: 201,
          body: {
            locator: LOCATOR,
            status: "issued",
            tickets: issued().tickets,
            void_until: null,
            position: "9-1",
          },
        },
      ],
    });
    renderApp(`/bookings?locator=${LOCATOR}`);
    const opened = await drawer();
    fireEvent.click(await within(opened).findByRole("button", { name: "Issue tickets" }));
    const confirm = await screen.findByRole("dialog", { name: `Issue booking ${LOCATOR}?` });
    expect(within(confirm).getByText(/UAH\s11,292\.52 will be charged/)).toBeInTheDocument();
    fireEvent.click(within(confirm).getByRole("button", { name: "Issue" }));

    expect(await within(opened).findByText("The airline changed the price")).toBeInTheDocument();
    expect(
      await within(opened).findByText(/It was UAH\s11,292\.52, now it is UAH\s12,195\.92\./),
    ).toBeInTheDocument();
    fireEvent.click(within(opened).getByRole("button", { name: "Issue at the new price" }));

    await waitFor(() =>
      expect(notices()).toContainEqual(["success", `Booking ${LOCATOR} is issued: 2 tickets`]),
    );
    expect(server.bodies["POST /bookings/issue"]).toEqual([
      { locator: LOCATOR },
      { locator: LOCATOR, reshop: true },
    ]);
    expect(await within(opened).findAllByText("5665411767381")).toHaveLength(2);
  });

  it("voids an issued booking, takes it out of the list and returns to /bookings", async () => {
    const server = serve({
      [`GET /bookings/${LOCATOR}`]: { body: { data: booking(issued()) } },
      [`DELETE /bookings/${LOCATOR}`]: { body: { locator: LOCATOR, status: "voided", position: "9-2" } },
    });
    const { router } = renderApp(`/bookings?locator=${LOCATOR}`);
    const opened = await drawer();
    fireEvent.click(await within(opened).findByRole("button", { name: "Void" }));
    const confirm = await screen.findByRole("dialog", { name: `Void booking ${LOCATOR}?` });
    fireEvent.click(within(confirm).getByRole("button", { name: "Void tickets" }));

    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(notices()).toContainEqual(["success", `Booking ${LOCATOR} is voided`]);
    expect(server.calls).toContain(`DELETE /bookings/${LOCATOR}`);
  });

  it("asks to confirm a void with what the server says it gives back, not the fare's price", async () => {
    const details = booking(issued());
    // As the server decides it after an EMD refund: the charge less what was credited already.
    const actions = (details.actions ?? []).map((a) =>
      a.action === "void" ? { ...a, money: uah(1_234_56) } : a,
    );
    serve({ [`GET /bookings/${LOCATOR}`]: { body: { data: { ...details, actions } } } });
    renderApp(`/bookings?locator=${LOCATOR}`);
    const opened = await drawer();
    fireEvent.click(await within(opened).findByRole("button", { name: "Void" }));
    const confirm = await screen.findByRole("dialog", { name: `Void booking ${LOCATOR}?` });
    expect(within(confirm).getByText(/returns to the company balance/).textContent).toMatch(
      /1[\s,.\u00a0\u202f]?234[.,]56/,
    );
  });

  it("shows the server's words when a comment is refused", async () => {
    const server = serve({
      [`GET /bookings/${LOCATOR}`]: { body: { data: booking() } },
      "POST /bookings/comment": failure(422, "invalid", "Comment must be at most 2000 characters"),
    });
    renderApp(`/bookings?locator=${LOCATOR}`);
    const opened = await drawer();
    fireEvent.change(await within(opened).findByRole("textbox", { name: "New comment" }), {
      target: { value: "Window seats, please" },
    });
    fireEvent.click(within(opened).getByRole("button", { name: "Add comment" }));
    expect(await within(opened).findByText("Comment must be at most 2000 characters")).toBeInTheDocument();
    expect(server.bodies["POST /bookings/comment"]).toEqual([
      { locator: LOCATOR, comment: "Window seats, please" },
    ]);
  });
});
