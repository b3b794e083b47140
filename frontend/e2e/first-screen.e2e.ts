import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import { signInAsAgent } from "./flows.ts";
import { browserAppSuite } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });

/** One string of a language's catalogue namespace (`frontend/src/locales/<language>/<namespace>.json`). */
function text(language: string, namespace: string, key: string): string {
  const catalogue = JSON.parse(
    readFileSync(new URL(`../src/locales/${language}/${namespace}.json`, import.meta.url), "utf8"),
  ) as Record<string, unknown>;
  const found = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
  if (typeof found !== "string") throw new Error(`no ${language}/${namespace}:${key}`);
  return found;
}

/** A phone (Lighthouse's mobile screen) whose browser shows `language`, signed in as the demo agent. */
async function phone(language: string, javaScriptEnabled: boolean): Promise<Page> {
  const context = await suite.browser.newContext({
    baseURL: suite.app.url,
    viewport: { width: 412, height: 823 },
    javaScriptEnabled,
  });
  const { hostname } = new URL(suite.app.url);
  // The language as the page keeps it (local storage) and mirrors it for the server (its cookie).
  await context.addCookies([{ name: "skyward_lang", value: language, domain: hostname, path: "/" }]);
  await context.addInitScript((stored) => window.localStorage.setItem("skyward.locale", stored), language);
  const page = await context.newPage();
  await signInAsAgent(page);
  return page;
}

/** Where an element stands and how large it is, rounded to the pixel. */
async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not shown`);
  return {
    x: Math.round(found.x),
    y: Math.round(found.y),
    width: Math.round(found.width),
    height: Math.round(found.height),
  };
}

// Issue 27, mobile LCP: the page's largest text (the search's empty state) paints from the HTML the server sends, in
// the browser's language, before any script runs; the app then renders the same text at the same size over it.
describe("the first screen the server sends", () => {
  it("given JavaScript off, when an agent whose browser shows Polish opens /search, then the translated heading and empty state are on the screen", async () => {
    const page = await phone("pl", false);
    try {
      await page.goto("/search");
      // Inert until the app renders over it (no click goes nowhere), so found by its text, not its role.
      expect(await page.locator("h1").textContent()).toBe(text("pl", "search", "title"));
      expect(await page.locator("[data-first-screen]").getAttribute("inert")).toBe("");
      const emptyText = page.getByText(text("pl", "search", "empty.text"), { exact: true });
      expect(await emptyText.isVisible()).toBe(true);
      expect(await page.getByText(text("pl", "search", "empty.title"), { exact: true }).isVisible()).toBe(
        true,
      );
      expect(await page.locator("html").getAttribute("lang")).toBe("pl");
      // Styled by the page's own sheets from the start: the empty state's frame has its border and padding.
      const placeholder = await box(page, `p:text-is("${text("pl", "search", "empty.text")}")`);
      expect(placeholder.width).toBeLessThanOrEqual(420);
      expect(placeholder.height).toBeGreaterThan(0);
    } finally {
      await page.context().close();
    }
  });

  it("given JavaScript on, when the app has started on /search, then its empty state's text stands where the server's did, at the same size", async () => {
    const selector = `p:text-is("${text("ua", "search", "empty.text")}")`;
    const before = await phone("ua", false);
    let sent: Awaited<ReturnType<typeof box>>;
    try {
      await before.goto("/search");
      sent = await box(before, selector);
    } finally {
      await before.context().close();
    }
    const page = await phone("ua", true);
    try {
      const fetched: string[] = [];
      page.on("request", (request) => {
        if (["stylesheet", "script"].includes(request.resourceType()))
          fetched.push(new URL(request.url()).pathname);
      });
      await page.goto("/search");
      // The app's own form is there: what stands now is the app's render, not the server's.
      await page.getByRole("button", { name: text("ua", "search", "form.submit") }).waitFor();
      expect(await page.locator("[data-first-screen]").count()).toBe(0);
      // The page's sheet, applied from the start, is the one the app uses, and the scripts its entry preloads once
      // painted are the ones the app imports: each fetched once.
      expect(fetched.filter((path) => /\/search-[\w-]+\.css$/.test(path))).toHaveLength(1);
      for (const name of ["shell", "search", "ua"])
        expect([
          name,
          fetched.filter((path) => new RegExp(`/${name}-[\\w-]+\\.js$`).test(path)).length,
        ]).toEqual([name, 1]);
      const rendered = await box(page, selector);
      // No larger (the largest paint stays the server's: LCP), and where it was, within a few pixels.
      expect({
        notLarger: rendered.width * rendered.height <= sent.width * sent.height,
        dx: Math.abs(rendered.x - sent.x) <= 4,
        dy: Math.abs(rendered.y - sent.y) <= 4,
        dw: Math.abs(rendered.width - sent.width) <= 4,
        dh: Math.abs(rendered.height - sent.height) <= 4,
        sent,
        rendered,
      }).toEqual({ notLarger: true, dx: true, dy: true, dw: true, dh: true, sent, rendered });
    } finally {
      await page.context().close();
    }
  });

  it("given JavaScript off, when an agent opens /bookings in English, then the page's heading and list tabs are on the screen", async () => {
    const page = await phone("en", false);
    try {
      await page.goto("/bookings");
      expect(await page.locator("h1").textContent()).toBe(text("en", "bookings", "title"));
      expect(await page.getByText(text("en", "bookings", "lead"), { exact: true }).isVisible()).toBe(true);
      expect(
        await page.locator('[role="tab"]', { hasText: text("en", "bookings", "lists.issued") }).isVisible(),
      ).toBe(true);
    } finally {
      await page.context().close();
    }
  });
});
