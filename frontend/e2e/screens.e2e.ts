import { describe, expect, it, jest } from "@jest/globals";
import type { Page } from "playwright-core";
import { englishOnly, untranslated } from "./catalogue-text.ts";
import { signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

/** Elements whose text is cut off: wider inside than their box, with the overflow hidden. */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      if (element.closest("[aria-hidden='true'], [hidden], script, style, svg")) continue;
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden") continue;
      const hides = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
      if (!hides || element.scrollWidth <= element.clientWidth + 1) continue;
      if (!element.textContent?.trim()) continue;
      found.push(`${element.tagName.toLowerCase()}: "${element.textContent.trim().slice(0, 60)}"`);
    }
    return found;
  });
}

const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("one language at a time", () => {
  for (const language of ["ua", "pl"]) {
    it(`shows no English on the agent's screens in ${language}`, async () => {
      const { page } = suite.session;
      const phrases = englishOnly(language);
      expect(phrases.length).toBeGreaterThan(100);
      await signInAsAgent(page);
      await page.goto("/bookings");
      // The header's picker: for a signed-in agent it changes the account's language too.
      await page.getByRole("button", { name: "Language: English" }).click();
      await page.getByRole("menuitem", { name: language === "ua" ? "Українська" : "Polski" }).click();
      await page.getByTestId("balance-amount").waitFor();
      // The language's strings arrive in their own chunk: the page says its language once they are in.
      await page.waitForFunction(() => document.documentElement.lang !== "en", undefined, {
        timeout: 20_000,
      });
      expect({ screen: "bookings", english: await untranslated(page, phrases) }).toEqual({
        screen: "bookings",
        english: [],
      });
      await page.goto("/account");
      await page.locator("main h1").first().waitFor();
      expect({ screen: "account", english: await untranslated(page, phrases) }).toEqual({
        screen: "account",
        english: [],
      });
      await page.goto("/search");
      await page.locator("main h1").first().waitFor();
      expect({ screen: "search", english: await untranslated(page, phrases) }).toEqual({
        screen: "search",
        english: [],
      });
      await checkScreen(page, `search-${language}`);
    });
  }
});

describe("layouts", () => {
  it("leaves no page overflow at 390 px", async () => {
    const { page } = suite.session;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/sign_in");
    await page.locator("main h1").first().waitFor();
    expect({ screen: "sign_in", overflow: await pageOverflow(page) }).toEqual({
      screen: "sign_in",
      overflow: 0,
    });
    await signInAsAgent(page);
    for (const path of ["/bookings", "/search", "/account"]) {
      await page.goto(path);
      await page.locator("main h1").first().waitFor();
      expect({ screen: path, overflow: await pageOverflow(page) }).toEqual({ screen: path, overflow: 0 });
    }
    await checkScreen(page, "account-390");
  });

  it("clips nothing at 1024 px in Ukrainian, the longest language", async () => {
    const { page } = suite.session;
    await page.setViewportSize({ width: 1024, height: 768 });
    await signInAsAgent(page);
    await page.goto("/bookings");
    await page.getByRole("button", { name: "Language: English" }).click();
    await page.getByRole("menuitem", { name: "Українська" }).click();
    await page.locator("html[lang='uk']").waitFor({ state: "attached" });
    for (const path of ["/bookings", "/account", "/search"]) {
      await page.goto(path);
      await page.locator("main h1").first().waitFor();
      expect({ screen: path, clipped: await clipped(page) }).toEqual({ screen: path, clipped: [] });
      expect({ screen: path, overflow: await pageOverflow(page) }).toEqual({ screen: path, overflow: 0 });
    }
  });
});
