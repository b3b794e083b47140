import { describe, expect, it, jest } from "@jest/globals";
import { clearOfUtcMidnight } from "@skyward/scripts/testing/clock";
import type { Page } from "playwright-core";
import { searchFlights, signInAsAgent, typeDate } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
// Whole flows with every screen checked by axe-core in two schemes.
jest.setTimeout(300_000);

/** Narrows the result to full-service carriers, whose tickets can be voided on the day of issue. */
async function keepOnlyPsAndLo(page: Page): Promise<void> {
  await page.getByRole("checkbox", { name: "Ukraine International Airlines PS" }).click();
  await page.getByText(/ options of \d+/).waitFor();
  await page.getByRole("checkbox", { name: "LOT Polish Airlines LO" }).click();
  await page.locator('input[aria-label="LOT Polish Airlines LO"]:checked').waitFor();
  await page.locator('[aria-busy="true"]').waitFor({ state: "detached" });
}

async function fillPassenger(
  page: Page,
  number: number,
  traveller: { gender: "Male" | "Female"; first: string; last: string; born: string; document: string },
): Promise<void> {
  const block = page.getByRole("group", { name: `Passenger ${number} · Adult` });
  await block.getByText(traveller.gender, { exact: true }).click();
  await block.getByRole("textbox", { name: "First name" }).fill(traveller.first);
  await block.getByRole("textbox", { name: "Last name" }).fill(traveller.last);
  await typeDate(block, "Date of birth", traveller.born);
  await block.getByRole("textbox", { name: "Document number" }).fill(traveller.document);
  const issuedBy = block.getByLabel("Issued by", { exact: true });
  await issuedBy.fill("Ukraine");
  await page.getByRole("option", { name: "Ukraine", exact: true }).click();
  await typeDate(block, "Valid until", "01.01.2032");
}

/** Reads until the value is the expected one (the read models catch up within moments), then asserts it. */
async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!Object.is(last, expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    last = await read();
  }
  expect(last).toBe(expected);
}

async function balance(page: Page): Promise<number> {
  const amount = page.getByTestId("balance-amount");
  await amount.waitFor();
  return Number(await amount.getAttribute("data-amount"));
}

async function expectBalance(page: Page, expected: number): Promise<void> {
  await eventually(() => balance(page), expected);
}

async function notification(page: Page, text: RegExp): Promise<void> {
  await page.getByRole("status").filter({ hasText: text }).first().waitFor();
}

describe("booking and ticketing", () => {
  it("books two passengers on a filtered search, issues, sees the tickets and the balance, then voids", async () => {
    await clearOfUtcMidnight(150_000); // it voids on the day of issue, a couple of minutes after signing in
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/bookings");
    await page.getByRole("heading", { level: 1, name: "Bookings" }).waitFor();
    const before = await balance(page);
    expect(before).toBeGreaterThan(0);
    await checkScreen(page, "bookings-list");

    await searchFlights(page, 2);
    await checkScreen(page, "search-results");
    await keepOnlyPsAndLo(page);
    const options = page.getByRole("article");
    expect(await options.count()).toBeGreaterThan(0);
    for (const label of await options.evaluateAll((cards) =>
      cards.map((card) => card.getAttribute("aria-label")),
    ))
      expect(label).toMatch(/^(?:(?:PS|LO) \d+(?:, )?)+$/);
    await checkScreen(page, "search-filtered");

    // The first option that sells the fare: which flights offer which fare families changes with the travel date.
    const standard = page.getByRole("button", { name: "Select Economy Standard" });
    await options.filter({ has: standard }).first().locator(standard).click();
    await page.getByRole("heading", { name: "Passengers and contacts" }).waitFor();
    await fillPassenger(page, 1, {
      gender: "Male",
      first: "Ivan",
      last: "Petrenko",
      born: "12.04.1985",
      document: "FN123451",
    });
    await fillPassenger(page, 2, {
      gender: "Female",
      first: "Olena",
      last: "Petrenko",
      born: "03.09.1987",
      document: "FN123452",
    });
    await page.getByRole("textbox", { name: "E-mail" }).fill("petrenko@example.com");
    await page.getByRole("textbox", { name: "Phone" }).fill("+380 50 111 22 33");
    await checkScreen(page, "booking-form");
    await page.getByRole("button", { name: /^Book for / }).click();

    await page.waitForURL(/\/bookings\?locator=[2-9A-HJKMNP-Z]{6}$/);
    const locator = new URL(page.url()).searchParams.get("locator") ?? "";
    await notification(page, new RegExp(`Booking ${locator} is held until`));
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    await drawer.getByTestId("booking-locator").filter({ hasText: locator }).waitFor();
    await drawer.locator('[data-status="held"]').first().waitFor();
    const total = Number(await drawer.getByTestId("booking-total").getAttribute("data-amount"));
    expect(total).toBeGreaterThan(0);
    await checkScreen(page, "booking-held");

    await drawer.getByRole("button", { name: "Issue tickets" }).click();
    const confirm = page.getByRole("dialog", { name: `Issue booking ${locator}?` });
    await confirm.waitFor();
    await checkScreen(page, "issue-confirmation");
    await confirm.getByRole("button", { name: "Issue", exact: true }).click();
    await notification(page, new RegExp(`Booking ${locator} is issued: 2 tickets`));
    const tickets = drawer.getByRole("table", { name: "Tickets" }).locator("[data-ticket-number]");
    await tickets.nth(1).waitFor();
    expect(await tickets.count()).toBe(2);
    for (const number of await tickets.allTextContents()) expect(number).toMatch(/^\d{13}$/);
    await drawer.locator('[data-status="issued"]').first().waitFor();
    await expectBalance(page, before - total);
    await checkScreen(page, "booking-issued");

    await drawer.getByRole("button", { name: "Void" }).click();
    const voidDialog = page.getByRole("dialog", { name: `Void booking ${locator}?` });
    await voidDialog.waitFor();
    await checkScreen(page, "void-confirmation");
    await voidDialog.getByRole("button", { name: "Void tickets" }).click();
    await page.waitForURL((url) => url.pathname === "/bookings" && !url.searchParams.has("locator"));
    await notification(page, new RegExp(`Booking ${locator} is voided`));
    await expectBalance(page, before);
    await page.getByRole("tab", { name: "Cancelled" }).click();
    await page.locator(`tr[data-locator="${locator}"] [data-status="voided"]`).waitFor();
    await checkScreen(page, "bookings-after-void");
    expect(suite.session.problems).toEqual([]);
  });

  it("cancels a held booking: it leaves the new list and no money moves", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/bookings");
    const before = await balance(page);

    await searchFlights(page, 1);
    await keepOnlyPsAndLo(page);
    await page
      .getByRole("article")
      .first()
      .getByRole("button", { name: /^Select Economy/ })
      .first()
      .click();
    // Sent empty: the form marks its fields and says how many to check, in text that reads in both schemes.
    await page.getByRole("button", { name: /^Book for / }).click();
    await page.getByText(/^Check \d+ fields marked in red$/).waitFor();
    await checkScreen(page, "booking-form-invalid");
    await fillPassenger(page, 1, {
      gender: "Female",
      first: "Oksana",
      last: "Koval",
      born: "21.06.1990",
      document: "KC765432",
    });
    await page.getByRole("textbox", { name: "E-mail" }).fill("koval@example.com");
    await page.getByRole("textbox", { name: "Phone" }).fill("+380671234567");
    await page.getByRole("button", { name: /^Book for / }).click();
    await page.waitForURL(/\/bookings\?locator=[2-9A-HJKMNP-Z]{6}$/);
    const locator = new URL(page.url()).searchParams.get("locator") ?? "";
    const row = page.locator(`tr[data-locator="${locator}"]`);
    await row.waitFor();
    // Team views: who booked it and for which company; the queue puts the nearest time limit first.
    await row.getByText("Taras Shevchuk", { exact: true }).waitFor();
    await row.getByText("Dnipro Travel Kyiv", { exact: true }).waitFor();
    await page
      .getByRole("columnheader", { name: /^Time limit/ })
      .getByText(/^times in /)
      .waitFor();
    await page.keyboard.press("Escape");
    await page.waitForURL((url) => url.pathname === "/bookings" && !url.searchParams.has("locator"));
    await page.getByRole("switch", { name: "Nearest time limit first" }).check();
    await row.waitFor();
    await checkScreen(page, "bookings-queue");
    await row.getByRole("link", { name: locator }).click();

    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    await drawer.getByRole("button", { name: "Cancel booking" }).click();
    await page
      .getByRole("dialog", { name: `Cancel booking ${locator}?` })
      .getByRole("button", { name: "Cancel booking" })
      .click();
    await page.waitForURL((url) => url.pathname === "/bookings" && !url.searchParams.has("locator"));
    await notification(page, new RegExp(`Booking ${locator} is cancelled`));
    await page.getByRole("tab", { name: "New" }).click();
    await page.locator(`tr[data-locator="${locator}"]`).waitFor({ state: "detached" });
    await expectBalance(page, before);
    await page.getByRole("tab", { name: "Cancelled" }).click();
    await page.locator(`tr[data-locator="${locator}"] [data-status="cancelled"]`).waitFor();
    await checkScreen(page, "bookings-after-cancel");
    expect(suite.session.problems).toEqual([]);
  });
});
