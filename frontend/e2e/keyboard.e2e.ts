import { describe, expect, it, jest } from "@jest/globals";
import type { Locator, Page } from "playwright-core";
import { inDays, signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

/** What has the focus now, for a failure message that says where the Tab order went instead. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    if (!element) return "nothing";
    const name = element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 40) ?? "";
    return `${element.tagName.toLowerCase()}[${element.getAttribute("role") ?? ""}] "${name}"`;
  });

/**
 * Presses Tab (Shift+Tab backwards) until the target has the focus, and checks the focus is drawn: the agent who
 * works by keyboard always sees where they are.
 */
async function tabTo(page: Page, target: Locator, options: { backwards?: boolean; max?: number } = {}) {
  // Attached rather than visible: a segmented control's radios are visually hidden inputs under their labels.
  await target.waitFor({ state: "attached" });
  const path: string[] = [];
  for (let press = 0; press < (options.max ?? 120); press++) {
    await page.keyboard.press(options.backwards ? "Shift+Tab" : "Tab");
    if (await target.evaluate((element) => element === document.activeElement)) {
      const ring = await target.evaluate((element) => {
        const style = getComputedStyle(element);
        return { outline: `${style.outlineStyle} ${style.outlineWidth}`, shadow: style.boxShadow };
      });
      expect(ring.outline !== "none 0px" || ring.shadow !== "none").toBe(true);
      return;
    }
    path.push(await focused(page));
  }
  throw new Error(`Tab never reached ${target}; it went through:\n${path.slice(-40).join("\n")}`);
}

async function typeAndPick(page: Page, field: Locator, text: string, option: Locator): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.type(text);
  // Enter picks the highlighted option: wait until the list, filtered by the whole text, highlights this one (on a
  // loaded machine the highlight comes a render after the option shows, and an Enter before it picks nothing).
  await option.and(page.locator("[data-combobox-selected]")).waitFor();
  await page.keyboard.press("Enter");
}

/** A date field by keyboard: typed, confirmed, and its calendar closed. */
async function typeDate(page: Page, field: Locator, value: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.type(value);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
}

describe("keyboard only", () => {
  it("searches, books and issues without a mouse, with the focus visible at every step", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/search");
    await page.getByRole("heading", { level: 1, name: "Flight search" }).waitFor();

    await typeAndPick(
      page,
      page.getByRole("textbox", { name: "From", exact: true }),
      "KBP",
      page.getByRole("option", { name: /^KBP / }),
    );
    await typeAndPick(
      page,
      page.getByRole("textbox", { name: "To", exact: true }),
      "WAW",
      page.getByRole("option", { name: /^WAW / }),
    );
    await typeDate(page, page.getByRole("textbox", { name: "Departure", exact: true }), inDays(24));
    await tabTo(page, page.getByRole("button", { name: "Search", exact: true }));
    await page.keyboard.press("Enter");
    await page.getByTestId("results-count").waitFor();
    await checkScreen(page, "keyboard-results");

    // A fare held first and issued after (not one ticketed as it is booked).
    const heldFare = page
      .locator("section[data-fare-id]")
      .filter({ hasNot: page.getByText("Instant ticketing", { exact: true }) })
      .getByRole("button", { name: /^Select Economy/ })
      .first();
    await tabTo(page, heldFare);
    await page.keyboard.press("Enter");
    const passenger = page.getByRole("group", { name: "Passenger 1 · Adult" });
    await passenger.waitFor();
    // Forward: Tab enters a radio group with nothing chosen at its first radio (backwards, at its last).
    await tabTo(page, passenger.getByRole("radio", { name: "Male", exact: true }));
    await page.keyboard.press("Space");
    for (const [label, value] of [
      ["First name", "Ivan"],
      ["Last name", "Kovalenko"],
    ] as const) {
      await tabTo(page, passenger.getByRole("textbox", { name: label }));
      await page.keyboard.type(value);
    }
    await typeDate(
      page,
      passenger.getByRole("textbox", { name: "Date of birth", exact: true }),
      "14.02.1980",
    );
    await tabTo(page, passenger.getByRole("textbox", { name: "Document number" }));
    await page.keyboard.type("FK556677");
    await typeAndPick(
      page,
      passenger.getByLabel("Issued by", { exact: true }),
      "Ukraine",
      page.getByRole("option", { name: "Ukraine", exact: true }),
    );
    await typeDate(page, passenger.getByRole("textbox", { name: "Valid until", exact: true }), "01.01.2033");
    await tabTo(page, page.getByRole("textbox", { name: "E-mail" }));
    await page.keyboard.type("kovalenko@example.com");
    await tabTo(page, page.getByRole("textbox", { name: "Phone" }));
    await page.keyboard.type("+380501112244");
    await checkScreen(page, "keyboard-booking-form");
    await tabTo(page, page.getByRole("button", { name: /^Book for / }));
    await page.keyboard.press("Enter");

    await page.waitForURL(/\/bookings\?locator=[2-9A-HJKMNP-Z]{6}$/);
    const locator = new URL(page.url()).searchParams.get("locator") ?? "";
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    await drawer.locator('[data-status="held"]').first().waitFor();
    await tabTo(page, drawer.getByRole("button", { name: "Issue tickets" }));
    await page.keyboard.press("Enter");
    const confirm = page.getByRole("dialog", { name: `Issue booking ${locator}?` });
    await tabTo(page, confirm.getByRole("button", { name: "Issue", exact: true }));
    await page.keyboard.press("Enter");
    await page
      .getByRole("status")
      .filter({ hasText: new RegExp(`Booking ${locator} is issued: 1 ticket`) })
      .first()
      .waitFor();
    await drawer.locator('[data-status="issued"]').first().waitFor();
    expect(suite.session.problems).toEqual([]);
  });
});
