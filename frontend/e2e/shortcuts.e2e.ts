import { describe, expect, it, jest } from "@jest/globals";
import type { Locator, Page } from "playwright-core";
import { holdStandardFare, isoInDays, keepTraveller, signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

// Issue 27 item 6, the experienced agent: keys for the daily moves, a skip link from the search button to the first
// fare, printing the itinerary.
const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

/** Whether `target` has the focus, or gets it within 5 s (a key's screen may still be rendering on a loaded machine). */
const hasFocus = async (target: Locator) => {
  const element = await target.elementHandle();
  return target
    .page()
    .waitForFunction((el) => el === document.activeElement, element, { timeout: 5_000 })
    .then(
      () => true,
      () => false,
    );
};

/** Takes the focus off any field (as clicking beside it does). */
async function leaveFields(page: Page): Promise<void> {
  // The shortcuts' code loads after the first signed-in paint: a key pressed before it is a key pressed on a page
  // without shortcuts.
  await page.locator('html[data-shortcuts="on"]').waitFor({ state: "attached" });
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

describe("the experienced agent's keyboard", () => {
  it("skips from the search button to the first fare, and moves through the results with j, k and o", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(21)}`);
    await page.getByTestId("results-count").waitFor();

    // One Tab from the search button: the skip link; Enter: the first fare's choice has the focus.
    await page.getByRole("button", { name: "Search", exact: true }).focus();
    await page.keyboard.press("Tab");
    const skip = page.getByRole("button", { name: "Skip to the first fare" });
    await expect(hasFocus(skip)).resolves.toBe(true);
    await checkScreen(page, "search skip link");
    await page.keyboard.press("Enter");
    const firstFare = page.locator("[data-fare-id] [data-shortcut-open]").first();
    await expect(hasFocus(firstFare)).resolves.toBe(true);

    // Keys typed in a field stay in the field.
    const from = page.getByRole("textbox", { name: "From", exact: true });
    await from.focus();
    await page.keyboard.type("b");
    expect(new URL(page.url()).pathname).toBe("/search");
    await expect(from.inputValue()).resolves.toContain("b");
    await page.keyboard.press("Escape");

    await leaveFields(page);
    const cards = page.getByRole("article");
    await page.keyboard.press("j");
    await expect(hasFocus(cards.nth(0))).resolves.toBe(true);
    await page.keyboard.press("j");
    await expect(hasFocus(cards.nth(1))).resolves.toBe(true);
    await page.keyboard.press("k");
    await expect(hasFocus(cards.nth(0))).resolves.toBe(true);
    // o opens the focused itinerary's first fare: the booking form.
    await page.keyboard.press("o");
    await page.waitForURL(/[?&]fare=/);

    // ? lists the keys in a dialog.
    await leaveFields(page);
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.waitFor();
    await expect(help.getByRole("row").count()).resolves.toBe(10);
    await help.getByRole("row").filter({ hasText: "Alt + R" }).waitFor();
    await help.getByRole("row").filter({ hasText: "Alt + T" }).waitFor();
    await checkScreen(page, "keyboard shortcuts dialog");
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "detached" });
  });

  it("goes to the bookings with b, to their search box with /, opens a row with Enter, prints it, starts a new search with n, and reaches the latest recent search with r", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await holdStandardFare(page, "Keyson");
    await page.goto("/account");
    await page.getByRole("heading", { level: 1 }).first().waitFor();

    await leaveFields(page);
    await page.keyboard.press("b");
    await page.waitForURL(/\/bookings/);
    await page.getByRole("heading", { level: 1, name: "Bookings" }).waitFor();
    await page.keyboard.press("/");
    const box = page.getByRole("textbox", { name: "Search bookings" });
    await expect(hasFocus(box)).resolves.toBe(true);
    await page.keyboard.type(locator);
    // The list follows the box 300 ms after the last key, through the address: until then the row shown is the
    // unfiltered list's, which the searched list replaces (a row focused before that loses its focus).
    await page.waitForURL(new RegExp(`[?&]q=${locator}`));
    await page.locator(`tr[data-locator="${locator}"]`).waitFor();

    await leaveFields(page);
    await page.keyboard.press("j");
    const row = page.locator(`tr[data-locator="${locator}"]`);
    await expect(hasFocus(row)).resolves.toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`[?&]locator=${locator}`));
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}` });
    await drawer.getByTestId("booking-locator").waitFor();

    // The itinerary prints from the booking itself.
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await drawer.getByRole("button", { name: "Print the itinerary" }).click();
    await expect(page.evaluate(() => (window as unknown as { printed: number }).printed)).resolves.toBe(1);
    await expect(drawer.getByRole("button", { name: "Copy locator" }).count()).resolves.toBe(1);
    await checkScreen(page, "booking with print");
    await page.keyboard.press("Escape");
    // Keys wait while a dialog is on screen, its closing too.
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('[role="dialog"][aria-modal="true"]')].some(
          (element) => element.getClientRects().length > 0,
        ),
    );

    await leaveFields(page);
    await page.keyboard.press("n");
    await page.waitForURL(/\/search$/);
    await expect(hasFocus(page.getByRole("textbox", { name: "From", exact: true }))).resolves.toBe(true);

    // r: the latest recent search, one key away from anywhere.
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(24)}`);
    await page.getByTestId("results-count").waitFor();
    await page.goto("/account");
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await leaveFields(page);
    await page.keyboard.press("r");
    const latest = page.getByRole("navigation", { name: "Recent searches" }).getByRole("button").first();
    await latest.waitFor();
    await page.waitForFunction(
      () => document.activeElement?.closest('[data-shortcut="recent-searches"]') !== null,
    );
    await expect(latest.textContent()).resolves.toMatch(/KBP.*WAW/);
    await expect(hasFocus(latest)).resolves.toBe(true);
  });

  it("opens the user's recent searches with Alt+R in the search form (a pick fills the form and searches), and the company's recent travellers with Alt+T in a passenger's fields (a pick fills the passenger)", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await keepTraveller(page, {
      first_name: "Oksana",
      last_name: "Recentna",
      date_of_birth: "1990-02-03",
      gender: "F",
      documents: [
        {
          type: "passport",
          number: "FR770011",
          issuing_country: "UA",
          nationality: "UA",
          expires_on: "2034-01-01",
        },
      ],
    });

    // Two searches made: the latest is KBP to VIE, the one before KBP to WAW.
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(22)}`);
    await page.getByTestId("results-count").waitFor();
    await page.goto(`/search?from=KBP&to=VIE&depart=${isoInDays(23)}`);
    await page.getByTestId("results-count").waitFor();

    // Alt+R in a field of the form: the recent searches, the latest focused.
    await page.getByRole("textbox", { name: "To", exact: true }).focus();
    await page.keyboard.press("Alt+KeyR");
    const dialog = page.getByRole("dialog", { name: "Recent searches" });
    await dialog.waitFor();
    const picks = dialog.getByRole("button", { name: /KBP/ });
    await expect(picks.nth(0).textContent()).resolves.toMatch(/KBP.*VIE/);
    await expect(hasFocus(picks.nth(0))).resolves.toBe(true);
    await checkScreen(page, "recent searches dialog");
    // The one before: the form holds it and its results show.
    await page.keyboard.press("Tab");
    await expect(hasFocus(picks.nth(1))).resolves.toBe(true);
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    await page.waitForURL(/to=WAW/);
    // The address names the picked search a moment before the page searches it: until then the previous (VIE)
    // results are still on screen, so wait for the results of the search picked, not for any results.
    await page.getByText(/^KBP → WAW ·/).waitFor();
    await page.getByTestId("results-count").waitFor();
    await expect(page.getByRole("textbox", { name: "To", exact: true }).inputValue()).resolves.toMatch(/WAW/);

    // Recent searches are the user's own: another user's list is kept apart (the key names the user).
    const keys = await page.evaluate(() =>
      Object.keys(window.localStorage).filter((key) => key.startsWith("skyward.recent-searches")),
    );
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^skyward\.recent-searches\.\S+$/);

    // Alt+T in the passenger's first name: the company's recent travellers; Enter picks the latest in.
    await page
      .getByRole("article")
      .first()
      .getByRole("button", { name: /^Select / })
      .first()
      .click();
    await page.getByRole("heading", { name: "Passengers and contacts" }).waitFor();
    const block = page.getByRole("group", { name: "Passenger 1 · Adult" });
    await block.getByRole("textbox", { name: "First name" }).focus();
    await page.keyboard.press("Alt+KeyT");
    const recent = page.getByRole("listbox", { name: "Recent travellers" });
    await recent.getByRole("option", { name: /RECENTNA OKSANA/ }).waitFor();
    await checkScreen(page, "recent travellers");
    await page.keyboard.press("Enter");
    await expect(block.getByRole("textbox", { name: "First name" }).inputValue()).resolves.toBe("OKSANA");
    await expect(block.getByRole("textbox", { name: "Last name" }).inputValue()).resolves.toBe("RECENTNA");
    await expect(block.getByRole("textbox", { name: "Document number" }).inputValue()).resolves.toBe(
      "FR770011",
    );
  });
});
