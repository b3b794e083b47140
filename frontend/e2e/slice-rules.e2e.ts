import { describe, expect, it, jest } from "@jest/globals";
import type { Page } from "playwright-core";
import { csrfHeaders, holdFare, inDays, isoInDays, signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

// Issue 23: the fare rules of each slice of a multi-city booking on its screens. The refund quote shows each slice's
// part (a non-refundable slice gives none of its fare back); exchanging a slice whose fare allows no change is
// refused on the flight picker, in words.
const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(180_000);

interface Rule {
  allowed: boolean;
}
interface SliceRule {
  slice: number;
  penalty: { change_before_departure: Rule; refund_before_departure: Rule };
}

/**
 * An issued three-slice booking on a network fare whose slices are sold in different families: one slice neither
 * changeable nor refundable, another refundable. Answers its locator and its slices' rules.
 */
async function issuedMixedJourney(page: Page, lastName: string) {
  const headers = await csrfHeaders(page);
  for (let start = 20; start < 60; start += 2) {
    const search = await page.request.post("/offers", {
      headers,
      data: {
        slices: [
          { origin: "KBP", destination: "WAW", departure_date: isoInDays(start) },
          { origin: "WAW", destination: "PAR", departure_date: isoInDays(start + 3) },
          { origin: "PAR", destination: "KBP", departure_date: isoInDays(start + 8) },
        ],
        passengers: { adults: 1, children: 0, infants: 0 },
        carriers: ["PS", "LO"],
      },
    });
    expect(search.status()).toBe(200);
    const { result } = (await search.json()) as {
      result: {
        id: string;
        origin_destinations: { fares: { fare_id: string; instant_payment: boolean }[] }[];
      };
    };
    for (const fare of result.origin_destinations.flatMap((od) => od.fares)) {
      if (fare.instant_payment) continue;
      const rules = await page.request.get(
        `/offers/${encodeURIComponent(fare.fare_id)}/fare_rules?search_result_id=${encodeURIComponent(result.id)}`,
        { headers },
      );
      const slices = ((await rules.json()) as { data: { slices: SliceRule[] } }).data.slices;
      const fixed = slices.find(
        (s) => !s.penalty.change_before_departure.allowed && !s.penalty.refund_before_departure.allowed,
      );
      if (!fixed || !slices.some((s) => s.penalty.refund_before_departure.allowed)) continue;
      const locator = await holdFare(page, headers, result.id, fare.fare_id, lastName);
      const issued = await page.request.post("/bookings/issue", { headers, data: { locator } });
      expect(issued.status()).toBe(201);
      const { position } = (await issued.json()) as { position: string };
      await page.request.get(`/bookings/${locator}`, { headers: { "x-min-position": position } });
      return { locator, slices, fixed: fixed.slice, start };
    }
  }
  throw new Error("no multi-city fare of mixed families in the searches");
}

describe("fare rules per slice on the after-sales screens", () => {
  it("shows each slice's part of the refund quote, none of a non-refundable slice's fare back; refuses the exchange of a slice that allows no change on the flight picker", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const { locator, slices, fixed, start } = await issuedMixedJourney(page, "Slicerules");

    await page.goto(`/bookings?locator=${locator}`);
    const drawer = page.getByRole("dialog", { name: `Booking ${locator}`, exact: true });
    await drawer.locator('[data-status="issued"]').first().waitFor();
    await drawer.getByRole("button", { name: "Refund", exact: true }).click();
    const refund = page.getByRole("dialog", { name: `Refund booking ${locator}` });
    await refund.getByRole("button", { name: "Get refund quote" }).click();
    const quote = refund.getByTestId("refund-quote");
    await quote.waitFor();
    const rows = quote.getByTestId("refund-slice");
    await expect(rows.count()).resolves.toBe(3);
    for (const slice of slices) {
      const row = rows.nth(slice.slice);
      await expect(row.getAttribute("data-refundable")).resolves.toBe(
        String(slice.penalty.refund_before_departure.allowed),
      );
      if (!slice.penalty.refund_before_departure.allowed)
        await row.getByText("Non-refundable: only its taxes come back").waitFor();
    }
    await quote.getByText("Per flight, under each flight's fare rules").waitFor();
    await checkScreen(page, "refund quote per slice");
    await refund.getByRole("button", { name: "Close", exact: true }).last().click();
    await refund.waitFor({ state: "hidden" });

    await drawer.getByRole("button", { name: "Exchange", exact: true }).click();
    const exchange = page.getByRole("dialog", { name: `Exchange booking ${locator}` });
    const picker = exchange.getByRole("radiogroup", { name: "Flight to change" });
    await picker.getByRole("radio", { name: new RegExp(`^Flight ${fixed + 1}: `) }).check();
    const date = exchange.getByRole("textbox", { name: `New date of flight ${fixed + 1}`, exact: true });
    const days = [start + 1, start + 4, start + 8][fixed] ?? start;
    await date.fill(inDays(days));
    await date.press("Enter");
    await date.press("Tab");
    await exchange.getByRole("button", { name: "Find offers" }).click();
    // On the flight picker itself, in words (the notification says it too).
    await exchange
      .getByTestId("exchange-slice")
      .getByText("The fare of this flight does not allow changes: choose another flight of the journey.")
      .waitFor();
    await expect(exchange.getByTestId("reshop-offer").count()).resolves.toBe(0);
    await checkScreen(page, "exchange of a slice that allows no change");
  });
});
