import { describe, expect, it, jest } from "@jest/globals";
import { demoId } from "@skyward/command-service/world/seed";
import type { Page } from "playwright-core";
import {
  csrfHeaders,
  holdStandardFare,
  inDays,
  isoInDays,
  navigationEntries,
  openFromNavigation,
  signInAsAgent,
} from "./flows.ts";
import { browserAppSuite, checkScreen, openSession } from "./harness.ts";

// Issue 21, "Screens that lose or hide work" (items 17 to 21), in a real Chromium against the whole product.
const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

async function issue(page: Page, locator: string): Promise<void> {
  const res = await page.request.post("/bookings/issue", {
    headers: await csrfHeaders(page),
    data: { locator },
  });
  expect(res.status()).toBe(201);
}

async function cancel(page: Page, locator: string): Promise<void> {
  const res = await page.request.post(`/bookings/${locator}`, {
    headers: { ...(await csrfHeaders(page)), "X-HTTP-Method-Override": "DELETE" },
  });
  expect(res.status()).toBe(200);
}

const params = (page: Page) => new URL(page.url()).searchParams;

describe("the bookings list keeps its place (item 21)", () => {
  it("keeps the tab and the text search over a reload, and searches only the tab chosen", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    // The same passenger name in a cancelled and an issued booking, a name of this attempt's own (a retry runs on
    // the same database as the attempt before).
    const letters = "abcdefghijklmnopqrstuvwxyz";
    const suffix = Array.from({ length: 4 }, () => letters[Math.floor(Math.random() * letters.length)]).join(
      "",
    );
    const name = `Zaporozhets${suffix}`;
    const query = name.toLowerCase();
    const cancelled = await holdStandardFare(page, name);
    await cancel(page, cancelled);
    const issued = await holdStandardFare(page, name);
    await issue(page, issued);

    await page.goto("/bookings");
    await page.getByRole("tab", { name: "Cancelled" }).click();
    await page.waitForURL((url) => url.searchParams.get("list") === "cancelled");
    await page.getByRole("textbox", { name: "Search bookings" }).fill(query);
    await page.waitForURL((url) => url.searchParams.get("q") === query);
    const rows = page.locator("tr[data-locator]");
    await page.locator(`tr[data-locator="${cancelled}"]`).waitFor();
    // The issued one is not in the cancelled list, whatever the text.
    await expect(rows.count()).resolves.toBe(1);

    await page.reload();
    await page.locator(`tr[data-locator="${cancelled}"]`).waitFor();
    await expect(page.getByRole("tab", { name: "Cancelled", selected: true }).count()).resolves.toBe(1);
    await expect(page.getByRole("textbox", { name: "Search bookings" }).inputValue()).resolves.toBe(query);
    await expect(rows.count()).resolves.toBe(1);
    expect(params(page).get("list")).toBe("cancelled");

    // Another tab, the same text: that tab's match only.
    await page.getByRole("tab", { name: "Issued" }).click();
    await page.locator(`tr[data-locator="${issued}"]`).waitFor();
    await page.locator(`tr[data-locator="${cancelled}"]`).waitFor({ state: "detached" });
    await expect(rows.count()).resolves.toBe(1);
    expect(params(page).get("q")).toBe(query);

    // An opened booking keeps the list and the search behind it; closing it comes back to them.
    await page.locator(`tr[data-locator="${issued}"]`).getByRole("link", { name: issued }).click();
    await page.getByRole("dialog", { name: `Booking ${issued}`, exact: true }).waitFor();
    expect(params(page).get("list")).toBe("issued");
    expect(params(page).get("q")).toBe(query);
    await page.getByRole("button", { name: "Close booking" }).click();
    await page.waitForURL((url) => !url.searchParams.has("locator"));
    expect(params(page).get("list")).toBe("issued");
    expect(params(page).get("q")).toBe(query);
    await checkScreen(page, "bookings: issued list searched");
    expect(suite.session.problems).toEqual([]);
  });
});

describe("each role's navigation offers what that role may use (item 20)", () => {
  const ALL = [
    "Search",
    "Bookings",
    "Sales",
    "Analytics",
    "Channels",
    "Administration",
    "Assistant",
    "Audit",
  ];
  const expected: Record<string, string[]> = {
    "agent@dnipro.test": ["Search", "Bookings", "Sales", "Analytics", "Audit"],
    "supervisor@dnipro.test": ALL,
    "admin@skyward.test": ALL,
    "support@skyward.test": ALL,
    // Read-only: nothing to search or book, nothing to run.
    "auditor@skyward.test": ["Bookings", "Sales", "Analytics", "Audit"],
  };

  it("shows every role its screens, and an auditor no Search", async () => {
    for (const [email, links] of Object.entries(expected)) {
      const session = await openSession(suite.browser, suite.app.url);
      try {
        const { page } = session;
        await signInAsAgent(page, email);
        await page.goto("/bookings");
        const nav = page.getByRole("navigation");
        await nav.getByRole("link", { name: "Bookings", exact: true }).waitFor();
        // Beside the logo or, for what does not fit the header, in its menu (issue 27).
        const shown = await navigationEntries(page);
        expect({ email, shown }).toEqual({ email, shown: links });
        // Every screen offered opens as itself, not as "not available" or an unknown address.
        for (const name of links) {
          await openFromNavigation(page, name);
          await page.waitForURL((url) => url.pathname !== "/bookings" || name === "Bookings");
          await page.getByRole("heading", { level: 1 }).first().waitFor();
          await expect(page.getByText("The server does not know this address").count()).resolves.toBe(0);
        }
        expect({ email, problems: session.problems }).toEqual({ email, problems: [] });
      } finally {
        await session.close();
      }
    }
    // The auditor who types the address anyway is told, and no search is sent.
    const { page } = suite.session;
    await signInAsAgent(page, "auditor@skyward.test");
    const offers: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/offers") offers.push(request.method());
    });
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(21)}`);
    await page.getByText("Search and booking are for agents, supervisors and administrators.").waitFor();
    await expect(page.getByRole("button", { name: "Search", exact: true }).count()).resolves.toBe(0);
    expect(offers).toEqual([]);
    expect(suite.session.problems).toEqual([]);
  });
});

describe("the channel history says what changed, in words (item 19)", () => {
  it("shows each change's before → after as a switch, a form of payment, a card, a created channel", async () => {
    const { page } = suite.session;
    await signInAsAgent(page, "supervisor@dnipro.test");
    const channelId = demoId("channel", "dnipro");
    const headers = await csrfHeaders(page);
    const patch = { ...headers, "X-HTTP-Method-Override": "PATCH" };
    const added = await page.request.post("/credit_cards/", {
      headers,
      data: {
        credit_card: { number: "4242 4242 4242 4242", exp_month: 9, exp_year: 31, holder: "IVAN PETRENKO" },
      },
    });
    expect(added.status()).toBe(201);
    const card = ((await added.json()) as { data: { id: string; brand: string } }).data;
    const attached = await page.request.post(`/ticketing/agency_channels/${channelId}/credit_cards`, {
      headers,
      data: { credit_card_id: card.id },
    });
    expect(attached.status()).toBe(201);
    const byCard = await page.request.post(`/ticketing/agency_channels/${channelId}`, {
      headers: patch,
      data: { form_of_payment: "card", ticketing_credit_card_id: card.id },
    });
    expect(byCard.status()).toBe(200);
    const off = await page.request.post(`/ticketing/agency_channels/${channelId}`, {
      headers: patch,
      data: { on_by_supervisor: false },
    });
    expect(off.status()).toBe(200);
    const channel = await page.request.get(`/ticketing/agency_channels/${channelId}`);
    const title = ((await channel.json()) as { data: { title: string } }).data.title;

    await page.goto(`/channels?channel_id=${channelId}`);
    const history = page.getByRole("region", { name: "Change history" });
    const changes = history.locator("tbody tr td:nth-child(5)");
    await history.getByText("On → Off", { exact: true }).waitFor();
    const texts = (await changes.allTextContents()).map((text) => text.trim());
    const cardText = `${card.brand} ·4242`;
    expect(texts).toEqual(
      expect.arrayContaining(["On → Off", "Balance → Card", `— → ${cardText}`, `— → ${title}, On`]),
    );
    expect(texts.filter((text) => text === `— → ${cardText}`)).toHaveLength(2);
    for (const text of texts) {
      expect(text).not.toMatch(/object|true|false/);
      expect(text).not.toContain(card.id);
    }
    await checkScreen(page, "channels: history in words");
    // The channel sells again from the balance for the tests after this one.
    for (const data of [{ on_by_supervisor: true }, { form_of_payment: "balance" }])
      expect(
        (
          await page.request.post(`/ticketing/agency_channels/${channelId}`, { headers: patch, data })
        ).status(),
      ).toBe(200);
    expect(suite.session.problems).toEqual([]);
  });
});

describe("an administrator searches for a company they choose (item 18)", () => {
  it("offers the companies with their balances, keeps the choice in the address, and never shows the raw refusal", async () => {
    const { page } = suite.session;
    await signInAsAgent(page, "admin@skyward.test");
    const offers: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/offers") offers.push(request.postData() ?? "");
    });
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(21)}`);
    const picker = page.getByRole("combobox", { name: "Company", exact: true });
    await picker.waitFor();
    // The search waits for the company: asked for on the field, nothing sent, no raw server text.
    await page.getByText("Choose the company you book for before searching.").waitFor();
    await expect(page.getByText(/company_id/).count()).resolves.toBe(0);
    expect(offers).toEqual([]);
    await checkScreen(page, "search: administrator chooses the company");

    await picker.click();
    const kyiv = page.getByRole("option", { name: /^Dnipro Travel Kyiv · / });
    // Each company comes with its balance, formatted as money.
    await expect(kyiv.textContent()).resolves.toMatch(/^Dnipro Travel Kyiv · .*\d/);
    await kyiv.click();
    await page.waitForURL((url) => url.searchParams.has("company"));
    const company = params(page).get("company");
    await page.getByTestId("results-count").waitFor();
    expect(offers).toHaveLength(1);
    expect(JSON.parse(offers[0] ?? "{}")).toMatchObject({ company_id: company, origin: "KBP" });
    await page.waitForURL((url) => url.searchParams.has("result"));

    await page.reload();
    await page.getByTestId("results-count").waitFor();
    expect(params(page).get("company")).toBe(company);
    await expect(page.getByRole("combobox", { name: "Company", exact: true }).inputValue()).resolves.toMatch(
      /^Dnipro Travel Kyiv · /,
    );
    await expect(page.getByText(/company_id/).count()).resolves.toBe(0);
    expect(suite.session.problems).toEqual([]);
  });
});

describe("Escape closes the innermost layer only (item 17)", () => {
  it("closes the add-bags dialog, then the exchange date's calendar, and asks before discarding a typed date", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await holdStandardFare(page, "Escapenko");
    await issue(page, locator);
    await page.goto(`/bookings?locator=${locator}`);
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    await drawer.locator('[data-status="issued"]').first().waitFor();

    // A dialog opened from the booking: one Escape closes the dialog, the booking stays open.
    await drawer.getByRole("button", { name: "Add bags" }).click();
    const bags = page.getByRole("dialog", { name: "Add bags" });
    await bags.getByRole("checkbox").first().waitFor();
    await page.keyboard.press("Escape");
    await bags.waitFor({ state: "detached" });
    await drawer.waitFor();
    expect(params(page).get("locator")).toBe(locator);

    // A calendar inside a dialog inside the booking: Escape closes the calendar only.
    await drawer.getByRole("button", { name: "Exchange", exact: true }).click();
    const exchange = page.getByRole("dialog", { name: `Exchange booking ${locator}` });
    const date = exchange.getByRole("textbox", { name: "New departure date", exact: true });
    await date.click();
    const calendar = page.locator("[data-dates-dropdown]");
    await calendar.waitFor();
    const typed = inDays(30);
    await date.fill(typed);
    await date.press("Escape");
    await calendar.waitFor({ state: "hidden" });
    await exchange.waitFor();
    await drawer.waitFor();
    await expect(date.inputValue()).resolves.toBe(typed);

    // The dialog holds a typed date: Escape asks first; Escape on the question goes back to the dialog.
    await page.keyboard.press("Escape");
    const confirm = page.getByRole("dialog", { name: "Discard what you typed?" });
    await confirm.waitFor();
    await checkScreen(page, "exchange: discard what you typed?");
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "detached" });
    await exchange.waitFor();
    await expect(date.inputValue()).resolves.toBe(typed);
    // The focus went back to the date field, whose calendar opened again: the first Escape closes it.
    await calendar.waitFor();
    await page.keyboard.press("Escape");
    await calendar.waitFor({ state: "hidden" });
    await exchange.waitFor();
    // Asked again, "Discard" closes the dialog and only it.
    await page.keyboard.press("Escape");
    await confirm.getByRole("button", { name: "Discard", exact: true }).click();
    await exchange.waitFor({ state: "detached" });
    await drawer.waitFor();
    expect(params(page).get("locator")).toBe(locator);

    // Nothing above it: Escape closes the booking.
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    await page.waitForURL((url) => !url.searchParams.has("locator"));
    // The closed dialogs finish their exit before the end-of-test screen check: a closing exchange dialog keeps its
    // section a moment after its named title is gone (axe once read it mid-exit as a dialog without a name).
    await page.locator('[role="dialog"]').first().waitFor({ state: "detached" });
    expect(suite.session.problems).toEqual([]);
  });
});
