import { describe, expect, it } from "@jest/globals";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite();

describe("the application shell", () => {
  it("starts in English, switches the interface to Ukrainian and remembers it", async () => {
    const { page } = suite.session;
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Welcome to Skyward" }).waitFor();
    await checkScreen(page, "home-en");

    await page.getByRole("button", { name: "Language: English" }).click();
    // The menu's code loads when the button is reached for: the menu opens a moment after the click.
    await page.getByRole("menu").waitFor();
    const offered = await page.getByRole("menuitem").allTextContents();
    expect(offered).toEqual(["English", "Українська", "Polski"]);
    await page.getByRole("menuitem", { name: "Українська" }).click();

    await page.getByRole("heading", { level: 1, name: "Ласкаво просимо до Skyward" }).waitFor();
    await page.getByRole("menu").waitFor({ state: "hidden" });
    expect(await page.locator("html").getAttribute("lang")).toBe("uk");
    expect(await page.evaluate(() => window.localStorage.getItem("skyward.locale"))).toBe("ua");
    await checkScreen(page, "home-ua");

    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Ласкаво просимо до Skyward" }).waitFor();
    await page.getByRole("button", { name: "Мова: Українська" }).waitFor();
    expect(suite.session.problems).toEqual([]);
  });

  it("checks a screen again once it changed after passing the accessibility check, and fails what it finds", async () => {
    const { page } = suite.session;
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Welcome to Skyward" }).waitFor();
    await checkScreen(page, "home-before-change");
    // An image without a text alternative (axe-core's image-alt, critical) appears on the screen that passed.
    await page.evaluate(() => {
      const image = document.createElement("img");
      image.src = "/favicon.ico";
      document.querySelector("main")?.append(image);
    });
    await expect(checkScreen(page, "home-changed")).rejects.toThrow(/critical image-alt/);
    await page.evaluate(() => document.querySelector("main img")?.remove());
  });

  it("finds text too faint in the dark scheme alone, where the dark run checks only colours", async () => {
    const { page } = suite.session;
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Welcome to Skyward" }).waitFor();
    // A sheet in the head: the body's markup stays the light scheme's, so the dark run is the colour rules alone.
    await page.evaluate(() => {
      const style = document.createElement("style");
      style.textContent = '[data-mantine-color-scheme="dark"] main h1 { color: #2a2a2a !important; }';
      document.head.append(style);
    });
    await expect(checkScreen(page, "home-faint-in-dark")).rejects.toThrow(
      /\[home-faint-in-dark, dark\] serious color-contrast/,
    );
    await page.evaluate(() => document.head.lastElementChild?.remove());
  });

  it("shows the notification the URL carries and keeps the rest of the address", async () => {
    const { page } = suite.session;
    await page.goto("/bookings?locator=ABC234&message=Booking%20ABC234%20was%20cancelled&type=error");

    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Booking ABC234 was cancelled");
    // The bookings need a signed-in agent: the visitor signs in first and then comes back to this booking.
    await page.getByRole("heading", { level: 1, name: "Sign in to Skyward" }).waitFor();
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/bookings?locator=ABC234");
    await checkScreen(page, "bookings-notification");

    await page.getByRole("button", { name: "Close notification" }).click();
    await alert.waitFor({ state: "detached" });
    // Chromium logs the refused suite.session check (401) that tells the page nobody is signed in.
    expect(suite.session.problems.filter((problem) => !problem.includes("status of 401"))).toEqual([]);
  });

  it("styles a first page with the base and its own components' sheets, not the whole component library", async () => {
    const { page } = suite.session;
    const sheets: Promise<string>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "stylesheet") sheets.push(response.text());
    });
    await page.goto("/sign_in");
    const next = page.getByRole("button", { name: "Continue" });
    await next.waitFor();
    const css = (await Promise.all(sheets)).join("\n");
    // The sign-in page's button and input are styled by their own sheets (Mantine's button: a 600 weight, rounded)...
    expect(css).toContain(".m_77c9d27d"); // Button's root
    expect(await next.evaluate((button) => getComputedStyle(button).fontWeight)).toBe("600");
    expect(await next.evaluate((button) => getComputedStyle(button).borderRadius)).not.toBe("0px");
    // ...while a drawer's sheet, which no part of this page uses, waits for the screens that do (the bookings').
    expect(css).not.toContain(".m_f11b401e"); // Drawer's root
    expect(css.length).toBeLessThan(120_000); // the whole library's sheet alone is 295 KB
  });

  it("sends a page's own code and sheet with the page, each fetched once and used", async () => {
    const { page } = suite.session;
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    // A page that needs a session, opened without one, preloads the sign-in page the visitor lands on.
    const response = await page.goto("/bookings");
    const html = (await response?.text()) ?? "";
    const preloaded = [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]* href="([^"]+)">/g)].map(
      (m) => m[1] ?? "",
    );
    expect(preloaded.some((href) => /\/sign_in-[\w-]+\.js$/.test(href))).toBe(true);
    expect(preloaded.some((href) => /\/bookings-[\w-]+\.js$/.test(href))).toBe(false);
    // The entry (one import and a call) is written into the page, allowed by its hash alone: no request of its own.
    expect(html).toMatch(
      /<script type="module">import\{\w+ as \w+\}from"\/packs\/assets\/shell-[\w-]+\.js";/,
    );
    // Two hashes: this entry, and the entry of a page sent with its first screen (scripts/src/first-screen.ts).
    expect(response?.headers()["content-security-policy"]).toMatch(
      /script-src 'self' 'sha256-[\w+/=]+' 'sha256-[\w+/=]+';/,
    );
    await page.getByRole("heading", { level: 1, name: "Sign in to Skyward" }).waitFor();
    expect(requested.filter((path) => /\/index-[\w-]+\.js$/.test(path))).toEqual([]);
    // Each once: a preload the page's own request did not match (another CORS mode) would be fetched twice.
    for (const href of preloaded)
      expect([href, requested.filter((path) => path === href).length]).toEqual([href, 1]);
    // The preloaded sheets are the ones the page applies.
    const applied = await page.evaluate(() =>
      [...document.styleSheets].map((sheet) => (sheet.href ? new URL(sheet.href).pathname : "")),
    );
    for (const href of preloaded.filter((h) => h.endsWith(".css"))) expect(applied).toContain(href);
    // The page now said which language it shows: its reload (the sign-in page it landed on) brings that language's
    // public catalogues with it, fetched once.
    expect(page.url()).toContain("/sign_in");
    requested.length = 0;
    const again = (await (await page.reload())?.text()) ?? "";
    expect(again).toMatch(
      /<link rel="modulepreload" crossorigin href="\/packs\/assets\/en-public-[\w-]+\.js">/,
    );
    await page.getByRole("heading", { level: 1, name: "Sign in to Skyward" }).waitFor();
    expect(requested.filter((path) => /\/en-public-[\w-]+\.js$/.test(path))).toHaveLength(1);
    expect(requested.filter((path) => /\/(en|ua|pl|fr|es)(-public)?-[\w-]+\.js$/.test(path))).toHaveLength(1);
    // The session check's 401 is how the page learns it has none; nothing else went wrong.
    expect(suite.session.problems.filter((problem) => !problem.includes("status of 401"))).toEqual([]);
  });

  it("serves the sign-in page with a translated heading, and the logo leads home", async () => {
    const { page } = suite.session;
    await page.goto("/sign_in");
    await page.getByRole("heading", { level: 1, name: "Sign in to Skyward" }).waitFor();
    await checkScreen(page, "sign-in");

    await page.getByRole("link", { name: "Skyward start page" }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome to Skyward" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(suite.session.problems).toEqual([]);
  });
});
