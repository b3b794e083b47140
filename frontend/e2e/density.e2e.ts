import { describe, expect, it, jest } from "@jest/globals";
import { searchFlights, signInAsAgent } from "./flows.ts";
import { browserAppSuite } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(180_000);

describe("results density", () => {
  it("shows at least three whole itineraries at 1280×720", async () => {
    const { page } = suite.session;
    await page.setViewportSize({ width: 1280, height: 720 });
    await signInAsAgent(page);
    await page.goto("/search");
    await searchFlights(page, 1);
    const cards = page.getByRole("article");
    await cards.nth(2).waitFor();
    // The first card brought up just under the page header, as the agent reads down the list.
    const whole = await cards.evaluateAll((all) => {
      const header = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
      const first = all[0]?.getBoundingClientRect().top ?? 0;
      window.scrollBy({ top: first - header - 8, behavior: "instant" });
      return all.filter((card) => {
        const box = card.getBoundingClientRect();
        return box.top >= header - 1 && box.bottom <= window.innerHeight + 1;
      }).length;
    });
    expect(whole).toBeGreaterThanOrEqual(3);
  });
});
