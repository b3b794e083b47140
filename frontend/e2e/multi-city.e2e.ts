import { describe, expect, it, jest } from "@jest/globals";
import type { Flight } from "@skyward/contracts/offers";
import type { Locator, Page } from "playwright-core";
import { csrfHeaders, holdStandardFare, inDays, isoInDays, signInAsAgent, typeDate } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

// Issue 23.1 and 23.3: the search form's multi-city slices (added, removed, kept in the address) and city codes;
// exchanging one slice of an issued multi-city booking.
const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(180_000);

const slice = (page: Page, number: number) =>
  page.getByRole("group", { name: `Flight ${number}`, exact: true });

async function chooseIn(
  scope: Locator,
  page: Page,
  label: string,
  text: string,
  code: string,
): Promise<void> {
  await scope.getByRole("textbox", { name: label, exact: true }).fill(text);
  await page.getByRole("option", { name: new RegExp(`^${code} `) }).click();
}

describe("the multi-city search form", () => {
  it("adds and removes slices, searches a city code, keeps the slices in the address over a reload, and shows each offer's flights in order", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/search");
    await page.getByRole("heading", { level: 1, name: "Flight search" }).waitFor();
    await page.getByText("Multi-city", { exact: true }).click();
    await slice(page, 2).waitFor();
    // Two slices to start with; a third is added, a fourth added and removed again.
    await page.getByRole("button", { name: "Add a flight" }).click();
    await page.getByRole("button", { name: "Add a flight" }).click();
    await slice(page, 4).waitFor();
    await page.getByRole("button", { name: "Remove flight 4" }).click();
    await expect(slice(page, 4).count()).resolves.toBe(0);

    await chooseIn(slice(page, 1), page, "From", "KBP", "KBP");
    await chooseIn(slice(page, 1), page, "To", "WAW", "WAW");
    await typeDate(slice(page, 1), "Departure", inDays(20));
    // The next slice leaves from where the one before lands.
    await expect(
      slice(page, 2).getByRole("textbox", { name: "From", exact: true }).inputValue(),
    ).resolves.toMatch(/WAW/);
    // A city code is a choice of its own, first in the list.
    await slice(page, 2).getByRole("textbox", { name: "To", exact: true }).fill("Paris");
    const first = page.getByRole("option").first();
    await expect(first.textContent()).resolves.toMatch(/PAR/);
    await expect(first.textContent()).resolves.toMatch(/All airports/);
    await checkScreen(page, "multi-city form: city code suggested");
    await first.click();
    await typeDate(slice(page, 2), "Departure", inDays(23));
    await chooseIn(slice(page, 3), page, "To", "KBP", "KBP");
    await expect(
      slice(page, 3).getByRole("textbox", { name: "From", exact: true }).inputValue(),
    ).resolves.toMatch(/PAR/);
    await typeDate(slice(page, 3), "Departure", inDays(28));
    await checkScreen(page, "multi-city form");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByTestId("results-count").waitFor();
    await page.waitForURL(/[?&]slices=/);
    expect(new URL(page.url()).searchParams.get("slices")).toBe(
      `KBP-WAW-${isoInDays(20)}_WAW-PAR-${isoInDays(23)}_PAR-KBP-${isoInDays(28)}`,
    );
    await page
      .getByText(/KBP → WAW → PAR → KBP/)
      .first()
      .waitFor();
    // The cards come with the results list's code (loaded beside the heading): waited for, not counted at once.
    await page
      .getByRole("article")
      .first()
      .getByText(/Onward/)
      .first()
      .waitFor();

    await page.reload();
    await page.getByTestId("results-count").waitFor();
    await expect(slice(page, 3).count()).resolves.toBe(1);
    await expect(
      slice(page, 2).getByRole("textbox", { name: "To", exact: true }).inputValue(),
    ).resolves.toMatch(/PAR/);
  });

  it("refuses a slice dated before the one before it on its field, and sends nothing", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/search");
    await page.getByRole("heading", { level: 1, name: "Flight search" }).waitFor();
    await page.getByText("Multi-city", { exact: true }).click();
    await chooseIn(slice(page, 1), page, "From", "KBP", "KBP");
    await chooseIn(slice(page, 1), page, "To", "WAW", "WAW");
    await typeDate(slice(page, 1), "Departure", inDays(25));
    await chooseIn(slice(page, 2), page, "To", "LHR", "LHR");
    await typeDate(slice(page, 2), "Departure", inDays(22));
    let searched = false;
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/offers") searched = true;
    });
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await slice(page, 2).getByText("Cannot be before the previous flight's date").waitFor();
    expect(searched).toBe(false);
    // The refused field takes the focus and may open its date picker: closed before the end-of-test screen check.
    await page.keyboard.press("Escape");
    await page.locator(".mantine-DateInput-day").first().waitFor({ state: "detached" });
  });
});

describe("the fare calendar", () => {
  it("opens a 7 × 7 grid of the cheapest totals around a round trip's dates, kept in the address, and a cell searches its dates", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(30)}&return=${isoInDays(32)}`);
    await page.getByTestId("results-count").waitFor();
    await page.getByRole("button", { name: "Fare calendar" }).click();
    await page.waitForURL(/[?&]calendar=open/);
    const grid = page.getByRole("region", { name: "Cheapest total per date" });
    await grid.getByRole("table").waitFor();
    await expect(grid.getByRole("row").count()).resolves.toBe(8);
    await expect(grid.getByRole("cell").count()).resolves.toBe(49);
    const asked = grid.locator('[aria-current="date"]');
    await expect(asked.count()).resolves.toBe(1);
    await checkScreen(page, "fare calendar");

    // A priced cell other than the asked one: its dates become the search's.
    const other = grid.locator("button:not([aria-current])").first();
    const label = (await other.getAttribute("aria-label")) ?? "";
    await other.click();
    await page.waitForURL(
      (url) =>
        url.searchParams.get("depart") !== isoInDays(30) || url.searchParams.get("return") !== isoInDays(32),
    );
    await page.getByTestId("results-count").waitFor();
    const url = new URL(page.url());
    expect(url.searchParams.get("calendar")).toBe("open");
    await grid.getByRole("table").waitFor();
    await expect(grid.locator('[aria-current="date"]').getAttribute("aria-label")).resolves.toBe(label);
  });
});

describe("per-slice filters of a multi-city result", () => {
  it("filters the second flight alone to direct ones, keeps it in the address over a reload, and every offer's second flight is direct", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const journey = `KBP-WAW-${isoInDays(20)}_WAW-PAR-${isoInDays(23)}_PAR-KBP-${isoInDays(28)}`;
    await page.goto(`/search?slices=${journey}`);
    await page.getByTestId("results-count").waitFor();
    const filters = page.getByRole("complementary", { name: "Filters" });
    await expect(filters.getByTestId("slice-filters").count()).resolves.toBe(3);
    const second = filters.getByRole("group", { name: /^Flight 2: WAW → / });
    const direct = second.getByRole("checkbox", { name: /Direct$/ });
    const filtered = page.waitForResponse(
      (res) => res.request().method() === "POST" && new URL(res.url()).pathname === "/search_results",
    );
    // Clicked, not checked: the box shows the filter the server keeps, once it answers.
    await direct.click();
    const answer = (await (await filtered).json()) as {
      result: { origin_destinations: { flights: Flight[] }[] };
      filters: Record<string, unknown>;
    };
    expect(answer.filters).toEqual({ slices: [{ slice: 1, stops: [0] }] });
    expect(answer.result.origin_destinations.length).toBeGreaterThan(0);
    for (const od of answer.result.origin_destinations) expect(od.flights[1]?.stops).toBe(0);
    await page.waitForURL((url) => (url.searchParams.get("filters") ?? "").includes('"slices"'));
    expect(JSON.parse(new URL(page.url()).searchParams.get("filters") ?? "{}")).toEqual({
      slices: [{ slice: 1, stops: [0] }],
    });
    await page
      .getByRole("list", { name: "Active filters" })
      .getByRole("listitem")
      .filter({ hasText: "Per flight: Flight 2" })
      .waitFor();
    await checkScreen(page, "multi-city results: second flight filtered");

    await page.reload();
    await page.getByTestId("results-count").waitFor();
    await expect(
      page
        .getByRole("complementary", { name: "Filters" })
        .getByRole("group", { name: /^Flight 2: WAW → / })
        .getByRole("checkbox", { name: /Direct$/ })
        .isChecked(),
    ).resolves.toBe(true);
    // The first flight's filters are untouched.
    await expect(
      page
        .getByRole("complementary", { name: "Filters" })
        .getByRole("group", { name: /^Flight 1: KBP → WAW/ })
        .getByRole("checkbox", { checked: true })
        .count(),
    ).resolves.toBe(0);
  });
});

describe("exchanging one slice of a multi-city booking", () => {
  it("lets the agent pick the second flight and its new date; every offer keeps the first and third flights, and the confirm charges the offer's total", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await holdStandardFare(page, "Slicechange", {
      slices: [
        { origin: "KBP", destination: "WAW", departure_date: isoInDays(20) },
        { origin: "WAW", destination: "PAR", departure_date: isoInDays(23) },
        { origin: "PAR", destination: "KBP", departure_date: isoInDays(28) },
      ],
    });
    const headers = await csrfHeaders(page);
    const issued = await page.request.post("/bookings/issue", { headers, data: { locator } });
    expect(issued.status()).toBe(201);
    const { position } = (await issued.json()) as { position: string };
    const read = await page.request.get(`/bookings/${locator}`, { headers: { "x-min-position": position } });
    const booked = ((await read.json()) as { data: { fare: { flights: Flight[] } } }).data.fare.flights;
    const numbers = (f: Flight | undefined) =>
      (f?.segments ?? []).map((s) => `${s.carrier} ${s.flight_number}`).join(" · ");

    await page.goto(`/bookings?locator=${locator}`);
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    await drawer.locator('[data-status="issued"]').first().waitFor();
    const balance = page.getByTestId("balance-amount");
    await balance.waitFor();
    const before = Number(await balance.getAttribute("data-amount"));
    await drawer.getByRole("button", { name: "Exchange", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Exchange booking ${locator}` });
    await dialog.waitFor();
    // A multi-city journey changes one flight: the first is picked to start with, no "whole journey" choice.
    const picker = dialog.getByRole("radiogroup", { name: "Flight to change" });
    await expect(picker.getByRole("radio").count()).resolves.toBe(3);
    await expect(picker.getByRole("radio", { name: /^Flight 1: KBP → WAW/ }).isChecked()).resolves.toBe(true);
    await picker.getByRole("radio", { name: /^Flight 2: WAW → / }).check();
    const date = dialog.getByRole("textbox", { name: "New date of flight 2", exact: true });
    await expect(date.inputValue()).resolves.not.toBe("");
    await date.fill(inDays(24));
    await date.press("Enter");
    await date.press("Tab");
    await checkScreen(page, "exchange one slice: flight picked");
    await dialog.getByRole("button", { name: "Find offers" }).click();
    const offers = dialog.getByTestId("reshop-offer");
    await offers.first().waitFor();
    const count = await offers.count();
    for (let i = 0; i < count; i++) {
      const flights = offers.nth(i).getByTestId("reshop-flight-numbers");
      await expect(flights.count()).resolves.toBe(3);
      await expect(flights.nth(0).textContent()).resolves.toBe(numbers(booked[0]));
      await expect(flights.nth(2).textContent()).resolves.toBe(numbers(booked[2]));
    }
    // The dearest offer, so that money moves.
    let dearest = 0;
    let due = -1;
    for (let i = 0; i < count; i++) {
      const amount = Number(await offers.nth(i).getByTestId("reshop-total-due").getAttribute("data-amount"));
      if (amount > due) [dearest, due] = [i, amount];
    }
    expect(due).toBeGreaterThan(0);
    await offers.nth(dearest).getByRole("radio").check();
    await checkScreen(page, "exchange one slice: offers");
    await dialog.getByRole("button", { name: /^Exchange for / }).click();
    await drawer.locator('[data-status="exchanged"]').first().waitFor();
    const deadline = Date.now() + 10_000;
    while (Number(await balance.getAttribute("data-amount")) !== before - due && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 150));
    expect(Number(await balance.getAttribute("data-amount"))).toBe(before - due);
    expect(suite.session.problems).toEqual([]);
  });
});
