import { describe, expect, it, jest } from "@jest/globals";
import type { Page } from "playwright-core";
import { signInAsAgent, typeDate } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
// A whole flow with every screen checked by axe-core in two schemes.
jest.setTimeout(300_000);

async function fillPassenger(page: Page, number: number, first: string, last: string, document: string) {
  const block = page.getByRole("group", { name: `Passenger ${number} · Adult` });
  await block.getByText("Female", { exact: true }).click();
  await block.getByRole("textbox", { name: "First name" }).fill(first);
  await block.getByRole("textbox", { name: "Last name" }).fill(last);
  await typeDate(block, "Date of birth", "03.09.1987");
  await block.getByRole("textbox", { name: "Document number" }).fill(document);
  await block.getByLabel("Issued by", { exact: true }).fill("Ukraine");
  await page.getByRole("option", { name: "Ukraine", exact: true }).click();
  await typeDate(block, "Valid until", "01.01.2032");
}

describe("text search", () => {
  it("an agent types one line, sees and edits its parts as chips, searches, and books", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/search");
    await page.getByRole("heading", { level: 1, name: "Flight search" }).waitFor();

    const line = page.getByRole("textbox", { name: "Describe the trip" });
    await line.fill("Kyiv to Warsaw in 3 weeks, two adults, business class, direct, window seat");
    await line.press("Enter");
    const parts = page.getByRole("list", { name: "Recognised parts" });
    await parts.getByRole("listitem").first().waitFor();
    const chips = await parts.getByRole("listitem").allInnerTexts();
    expect(chips.map((c) => c.trim())).toEqual([
      "From: Kyiv (KBP)",
      "To: Warsaw (WAW)",
      expect.stringMatching(/^Departure: /),
      "Adults: 2",
      "Cabin: Business",
      "Direct flights only: yes",
    ]);
    await page.getByText("Not understood: window, seat").waitFor();
    await checkScreen(page, "text-search-chips");

    // The agent changes its mind about the cabin: the chip goes, the search falls back to economy.
    await page.getByRole("button", { name: "Remove Cabin: Business" }).click();
    await expect(parts.getByRole("listitem").count()).resolves.toBe(5);
    // And edits the adults by keyboard in the chip's editor.
    await page.getByRole("button", { name: "Change Adults: 2" }).click();
    const adults = page.getByRole("textbox", { name: "Adults" });
    await adults.fill("2");
    await page.getByRole("button", { name: "Apply" }).click();

    await page.getByRole("button", { name: "Search these flights" }).click();
    await page.getByTestId("results-count").waitFor();
    const url = new URL(page.url());
    expect(url.searchParams.get("from")).toBe("KBP");
    expect(url.searchParams.get("to")).toBe("WAW");
    expect(url.searchParams.get("adults")).toBe("2");
    // Direct only became the result's stops filter once the result was there.
    await page.getByRole("list", { name: "Active filters" }).getByRole("listitem").first().waitFor();
    await page.locator('[aria-busy="true"]').waitFor({ state: "detached" });
    await checkScreen(page, "text-search-results");

    const options = page.getByRole("article");
    expect(await options.count()).toBeGreaterThan(0);
    await options
      .first()
      .getByRole("button", { name: /^Select / })
      .first()
      .click();
    await page.getByRole("heading", { name: "Passengers and contacts" }).waitFor();
    await fillPassenger(page, 1, "Iryna", "Koval", "FT123451");
    await fillPassenger(page, 2, "Oksana", "Koval", "FT123452");
    await page.getByRole("textbox", { name: "E-mail" }).fill("koval@example.com");
    await page.getByRole("textbox", { name: "Phone" }).fill("+380 50 111 22 44");
    // A low-cost fare is booked and issued at once ("Book and issue for"); either way the booking opens.
    await page.getByRole("button", { name: /^Book (?:and issue )?for / }).click();
    await page.waitForURL(/\/bookings\?locator=[2-9A-HJKMNP-Z]{6}$/);
    const locator = new URL(page.url()).searchParams.get("locator") ?? "";
    // The booking exists for this agent (the bookings screen itself is booking.e2e.ts's subject). The drawer reads it
    // after its read models caught up with the booking (the page's client waits for its position; this request cannot).
    await page
      .getByRole("dialog", { name: `Booking ${locator}`, exact: true })
      .getByTestId("booking-locator")
      .filter({ hasText: locator })
      .waitFor();
    const booking = await page.request.get(`/bookings/${locator}`);
    expect(booking.status()).toBe(200);
    expect(
      ((await booking.json()) as { locator?: string }).locator ?? JSON.stringify(await booking.json()),
    ).toContain(locator);
    expect(suite.session.problems).toEqual([]);
  });
});
