import { describe, expect, it, jest } from "@jest/globals";
import type { Page } from "playwright-core";
import { inDays, signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

/**
 * City names and fare families in the user's language (issue 9 item 6): the same KBP → WAW results read "Київ" and
 * "Варшава" in Ukrainian and "Kijów" and "Warszawa" in Polish; the airport field finds a city by its Ukrainian name.
 */
const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(240_000);

const isoInDays = (days: number) => {
  const [d, m, y] = inDays(days).split(".");
  return `${y}-${m}-${d}`;
};

/**
 * English words of the airport data (its names are English): none may show in another language. The cities come
 * from CLDR in the user's language; of the airport's name only its proper noun is kept ("Київ Boryspil").
 */
const ENGLISH_PLACE_WORDS = /\b(Kyiv|Warsaw|Ukraine|Poland|International|Airport)\b/;
/** Airlines keep their registered names ("Ukraine International Airlines"): those are left out of the check. */
const placesOnly = (text: string) => text.replace(/[\p{L} .]*\b(Airlines|Airways|Air Lines)\b/gu, "");

/** Waits until the page's main region shows all these texts (the city names arrive in their own chunk). */
async function shows(page: Page, ...texts: string[]) {
  await page.waitForFunction(
    (wanted) => wanted.every((w) => document.querySelector("main")?.textContent?.includes(w)),
    texts,
    { timeout: 20_000 },
  );
}

async function chooseLanguage(page: Page, name: string) {
  await page.getByRole("button", { name: "Language: English" }).click();
  await page.getByRole("menuitem", { name }).click();
  await page.waitForFunction(() => document.documentElement.lang !== "en");
}

describe("city names in the user's language", () => {
  it("shows KBP and WAW as Київ and Варшава in Ukrainian, and finds Варшава typed in the airport field", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/bookings");
    await chooseLanguage(page, "Українська");
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(21)}&adults=1`);
    await page.getByTestId("results-count").waitFor();
    const results = page.locator("main");
    await shows(page, "KBP Київ", "WAW Варшава");
    // Fare families read in Ukrainian too (the supplier sends "Economy Standard").
    await results
      .getByText(/^Економ (Лайт|Стандарт|Флекс)$/)
      .first()
      .waitFor();
    expect(placesOnly(await results.innerText())).not.toMatch(ENGLISH_PLACE_WORDS);
    // Nor in the tooltips of the flights' airports.
    const titles = await results
      .locator("[title]")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("title")));
    expect(titles.filter((title) => ENGLISH_PLACE_WORDS.test(title ?? ""))).toEqual([]);
    await checkScreen(page, "results-ua-city-names");

    // The offer's extras are named in Ukrainian too (the airline's titles are English).
    await results
      .getByRole("button", { name: /^Ціна й правила: / })
      .first()
      .click();
    const details = page.getByRole("dialog");
    await details.getByRole("tab", { name: "Послуги" }).click();
    await details
      .getByText(/^Зареєстрований багаж \d+ кг$/)
      .first()
      .waitFor();
    expect(await details.innerText()).not.toMatch(/Checked bag|Cabin bag/);
    await page.keyboard.press("Escape");
    await details.waitFor({ state: "hidden" });

    const to = page.getByRole("textbox", { name: "Куди", exact: true });
    await to.fill("Варшава");
    await page.getByRole("option", { name: /^WAW / }).waitFor();
    const option = await page.getByRole("option", { name: /^WAW / }).innerText();
    expect(option).toContain("Варшава");
    // The airport's own name and the country, in Ukrainian: "Chopin · Польща", not "Warsaw Chopin Airport · Poland".
    expect(option).toContain("Chopin · Польща");
    expect(option).not.toMatch(ENGLISH_PLACE_WORDS);
  });

  it("shows KBP and WAW as Kijów and Warszawa in Polish", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/bookings");
    await chooseLanguage(page, "Polski");
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(21)}&adults=1`);
    await page.getByTestId("results-count").waitFor();
    await shows(page, "KBP Kijów", "WAW Warszawa");
    expect(placesOnly(await page.locator("main").innerText())).not.toMatch(ENGLISH_PLACE_WORDS);
    const from = page.getByRole("textbox", { name: "Skąd", exact: true });
    await from.fill("KBP");
    const option = page.getByRole("option", { name: /^KBP / });
    await option.waitFor();
    expect(await option.innerText()).toContain("Boryspil · Ukraina");
    expect(await option.innerText()).not.toMatch(ENGLISH_PLACE_WORDS);
  });

  it("reads a Ukrainian line with declined city names and a time of day into chips, and searches with a departure-time filter", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/bookings");
    await chooseLanguage(page, "Українська");
    await page.goto("/search");
    const line = page.getByRole("textbox", { name: "Опишіть подорож" });
    await line.fill("з Києва до Варшави через 3 тижні ввечері");
    await line.press("Enter");
    const parts = page.getByRole("list", { name: "Розпізнані частини" });
    await parts.getByRole("listitem").first().waitFor();
    await shows(page, "Звідки: Київ (KBP)", "Куди: Варшава (WAW)", "Час вильоту: Вечір (17–24)");
    await page.getByRole("button", { name: "Шукати ці рейси" }).click();
    await page.getByTestId("results-count").waitFor();
    // The evening applies as the departure-time filter once the result is there (17:00-24:00 in minutes).
    await page.waitForFunction(() => {
      const filters = new URL(window.location.href).searchParams.get("filters");
      return Boolean(filters?.includes("departure_time") && filters.includes("1020"));
    });
  });
});
