import { describe, expect, it, jest } from "@jest/globals";
import type { Page } from "playwright-core";
import { holdStandardFare, inDays, signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
// Whole flows with every screen checked by axe-core in two schemes.
jest.setTimeout(300_000);

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

async function notification(page: Page, text: RegExp): Promise<void> {
  await page.getByRole("status").filter({ hasText: text }).first().waitFor();
}

/** Opens the held booking and issues it on screen; answers the drawer and the balance once charged. */
async function issueOnScreen(page: Page, locator: string) {
  await page.goto(`/bookings?locator=${locator}`);
  const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
  await drawer.locator('[data-status="held"]').first().waitFor();
  const before = await balance(page);
  const total = Number(await drawer.getByTestId("booking-total").getAttribute("data-amount"));
  await drawer.getByRole("button", { name: "Issue tickets" }).click();
  await page
    .getByRole("dialog", { name: `Issue booking ${locator}?` })
    .getByRole("button", { name: "Issue", exact: true })
    .click();
  await notification(page, new RegExp(`Booking ${locator} is issued`));
  await drawer.locator('[data-status="issued"]').first().waitFor();
  await eventually(() => balance(page), before - total);
  return { drawer, charged: before - total };
}

describe("after sales", () => {
  it("refunds an issued ticket: the quote shows the penalty and the total to credit, and the balance gets exactly that back", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await holdStandardFare(page, "Refundable");
    const { drawer, charged } = await issueOnScreen(page, locator);
    // What the server says can be done now: refund allowed (an estimate), exchange allowed with its fee.
    const now = drawer.getByTestId("booking-now");
    await now.locator('[data-action="refund"][data-allowed="true"]').waitFor();
    await now.locator('[data-action="exchange"][data-allowed="true"]').waitFor();
    await now.locator('[data-action="issue"][data-allowed="false"]').waitFor();
    await checkScreen(page, "booking-issued-actions");

    await drawer.getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Refund booking ${locator}` });
    await dialog.getByRole("checkbox", { name: /^REFUNDABLE\/IVAN · ticket \d{13}$/ }).waitFor();
    await checkScreen(page, "refund-request");
    await dialog.getByRole("button", { name: "Get refund quote" }).click();
    const quote = dialog.getByTestId("refund-quote");
    await quote.waitFor();
    const credit = Number(await quote.getByTestId("refund-credit-total").getAttribute("data-amount"));
    const penalty = Number(await quote.getByTestId("refund-penalty-total").getAttribute("data-amount"));
    // Standard fare: refundable for a penalty; what comes back is positive and less than what was charged.
    expect(penalty).toBeGreaterThan(0);
    expect(credit).toBeGreaterThan(0);
    expect(credit).toBeLessThan(charged);
    await quote.getByRole("columnheader", { name: "Penalty" }).waitFor();
    await quote.getByText(/^Quote valid until /).waitFor();
    await checkScreen(page, "refund-quote");

    await dialog.getByRole("button", { name: /^Refund / }).click();
    // Spec: the refunded booking leaves the open list with a success notice.
    await page.waitForURL((url) => url.pathname === "/bookings" && !url.searchParams.has("locator"));
    await notification(page, new RegExp(`Booking ${locator}: tickets refunded`));
    await eventually(() => balance(page), charged + credit);
    await page.getByRole("tab", { name: "Issued" }).click();
    await page.locator(`tr[data-locator="${locator}"]`).waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Refunded" }).click();
    await page.locator(`tr[data-locator="${locator}"] [data-status="refunded"]`).waitFor();
    await checkScreen(page, "bookings-refunded");

    // The booking page keeps the refund: per ticket, with what was credited.
    await page.locator(`tr[data-locator="${locator}"]`).getByRole("link", { name: locator }).click();
    const refunded = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    await refunded.getByTestId("booking-refunds").waitFor();
    await refunded.getByTestId("booking-history").locator('[data-operation="refund"]').waitFor();
    await refunded
      .getByTestId("booking-now")
      .locator('[data-action="refund"][data-allowed="false"]')
      .waitFor();
    await checkScreen(page, "booking-refunded");
    expect(suite.session.problems).toEqual([]);
  });

  it("exchanges an issued ticket to another date: priced offers, confirmation, new tickets, and the balance charged the total", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await holdStandardFare(page, "Changing");
    const { drawer, charged } = await issueOnScreen(page, locator);
    const oldTickets = await drawer
      .getByRole("table", { name: "Tickets" })
      .locator("[data-ticket-number]")
      .allTextContents();
    expect(oldTickets).toHaveLength(1);

    await drawer.getByRole("button", { name: "Exchange", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `Exchange booking ${locator}` });
    await dialog.waitFor();
    // Typed, then Tab away: Escape (which closes a calendar elsewhere) would close this dialog.
    const date = dialog.getByRole("textbox", { name: "New departure date", exact: true });
    await date.fill(inDays(28));
    await date.press("Enter");
    await date.press("Tab");
    await checkScreen(page, "exchange-search");
    await dialog.getByRole("button", { name: "Find offers" }).click();
    const offers = dialog.getByTestId("reshop-offer");
    await offers.first().waitFor();
    await dialog.getByRole("columnheader", { name: "Fare difference" }).waitFor();
    await dialog.getByRole("columnheader", { name: "Change fee" }).waitFor();
    await dialog.getByRole("columnheader", { name: "Residual value" }).waitFor();
    // Nothing is chosen for the agent, and nothing can be confirmed until an offer is.
    const count = await offers.count();
    for (let i = 0; i < count; i++)
      await expect(offers.nth(i).getByRole("radio").isChecked()).resolves.toBe(false);
    await expect(dialog.getByRole("button", { name: /^Exchange for / }).count()).resolves.toBe(0);
    await expect(dialog.getByRole("button", { name: "Choose an offer" }).isDisabled()).resolves.toBe(true);
    // Each offer names its carrier and flight number and its times, and what its fare gives up against the
    // Standard fare booked: the cheapest (a Light fare) loses the refund and the changes.
    for (let i = 0; i < count; i++) {
      const offer = offers.nth(i);
      expect(await offer.getByTestId("reshop-flight-numbers").first().textContent()).toMatch(
        /^[A-Z0-9]{2} \d{1,4}/,
      );
      expect(await offer.getByTestId("reshop-flight-times").first().textContent()).toMatch(
        /\d{2}:\d{2} → \d{2}:\d{2}/,
      );
    }
    const light = offers.filter({ hasText: /light/i }).first();
    await light.locator('[data-loss="no_refund"]').waitFor();
    expect(await light.locator('[data-loss="no_refund"]').textContent()).toBe("no refund");
    await light.locator('[data-loss="no_changes"]').waitFor();
    // At 1280 px the money columns fit: no sideways scrolling, every total inside the dialog.
    expect(page.viewportSize()?.width).toBe(1280);
    // The table's own scrolling region (inside the offers' section, which has the same name).
    const region = dialog
      .getByTestId("reshop-offers")
      .getByRole("region", { name: "Offers for the new dates" });
    const fits = await region.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits).toBe(true);
    const box = await dialog.boundingBox();
    for (let i = 0; i < count; i++) {
      const total = await offers.nth(i).getByTestId("reshop-total-due").boundingBox();
      expect(total && box && total.x + total.width <= box.x + box.width).toBe(true);
    }
    // The agent chooses; the offer's total to pay is what the balance will be charged.
    await offers.first().getByRole("radio").check();
    const due = Number(await offers.first().getByTestId("reshop-total-due").getAttribute("data-amount"));
    expect(due).toBeGreaterThan(0);
    await checkScreen(page, "exchange-offers");

    await dialog.getByRole("button", { name: /^Exchange for / }).click();
    // Spec: the confirmation takes the agent to the booking.
    await page.waitForURL(
      (url) => url.pathname === "/bookings" && url.searchParams.get("locator") === locator,
    );
    await notification(page, new RegExp(`Booking ${locator} is exchanged`));
    await drawer.locator('[data-status="exchanged"]').first().waitFor();
    const tickets = drawer.getByRole("table", { name: "Tickets" }).locator("[data-ticket-number]");
    const newTickets = await tickets.allTextContents();
    expect(newTickets).toHaveLength(1);
    expect(newTickets[0]).toMatch(/^\d{13}$/);
    expect(newTickets[0]).not.toBe(oldTickets[0]);
    await eventually(() => balance(page), charged - due);
    await drawer.getByTestId("booking-history").locator('[data-operation="exchange"]').waitFor();
    await checkScreen(page, "booking-exchanged");
    // Exchanged bookings are shown in the issued list.
    await page.keyboard.press("Escape");
    await page.getByRole("tab", { name: "Issued" }).click();
    await page.locator(`tr[data-locator="${locator}"] [data-status="exchanged"]`).waitFor();
    expect(suite.session.problems).toEqual([]);
  });
});
