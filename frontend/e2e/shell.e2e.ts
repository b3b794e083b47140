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
