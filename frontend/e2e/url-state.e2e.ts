import { describe, expect, it, jest } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { TERMS_VERSION } from "@skyward/contracts/account";
import type { Page } from "playwright-core";
import { browserAppSuite } from "./harness.ts";

// Issue 9, "keeps its place": the search, its sort and filters and the booking form live in the page's address.
const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(180_000);

/** Signs the demo agent in through the page's cookie jar, onboarding and terms done (as booking.e2e.ts does). */
async function signInAsAgent(page: Page): Promise<void> {
  const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
  const headers = { "X-CSRF-Token": token };
  const signIn = await page.request.post("/sign_in", {
    headers,
    data: { account: { email: "agent@dnipro.test", password: DEMO_PASSWORD } },
  });
  expect(signIn.status()).toBe(200);
  if (((await signIn.json()) as { onboarding: string }).onboarding === "done") return;
  const put = { ...headers, "X-HTTP-Method-Override": "PUT" };
  await page.request.post("/onboarding", {
    headers: put,
    data: { account: { first_name: "Taras", last_name: "Shevchuk" } },
  });
  await page.request.post("/account/terms", { headers: put, data: { terms: { version: TERMS_VERSION } } });
}

const isoInDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const params = (page: Page) => new URL(page.url()).searchParams;

async function results(page: Page): Promise<string> {
  const count = page.getByTestId("results-count");
  await count.waitFor();
  return (await count.textContent()) ?? "";
}

describe("the search in the address", () => {
  it("opens a search from a link, keeps sort and result over a reload, and goes back to the previous search", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const first = `/search?from=KBP&to=WAW&depart=${isoInDays(21)}&adults=2`;
    await page.goto(first);
    await results(page);
    await expect(
      page
        .getByText(/KBP → WAW/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);
    await expect(page.getByRole("textbox", { name: "From", exact: true }).inputValue()).resolves.toBe("KBP");
    await page.waitForURL(/[?&]result=/);
    const resultId = params(page).get("result");
    expect(params(page).get("adults")).toBe("2");

    await page.getByText("Fastest", { exact: true }).click();
    await page.waitForURL(/[?&]sort=duration/);

    await page.reload();
    await results(page);
    expect(params(page).get("result")).toBe(resultId);
    expect(params(page).get("sort")).toBe("duration");
    await expect(page.getByRole("radio", { name: "Fastest" }).isChecked()).resolves.toBe(true);

    await page.goto(`/search?from=KBP&to=LHR&depart=${isoInDays(28)}`);
    await results(page);
    await expect(
      page
        .getByText(/KBP → LHR/)
        .first()
        .isVisible(),
    ).resolves.toBe(true);

    await page.goBack();
    await results(page);
    await page
      .getByText(/KBP → WAW/)
      .first()
      .waitFor();
    expect(params(page).get("to")).toBe("WAW");
  });

  it("drops what does not parse instead of failing the page", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto("/search?from=K1&to=WAW&depart=not-a-date&adults=99&filters=%7Bbroken");
    await page.getByRole("heading", { level: 1, name: "Flight search" }).waitFor();
    expect(suite.session.problems).toEqual([]);
  });

  it("gives the booking form its own address and keeps its draft over a reload; back closes it", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(22)}`);
    await results(page);
    await page
      .getByRole("article")
      .first()
      .getByRole("button", { name: /^Select / })
      .first()
      .click();
    await page.getByRole("heading", { name: "Passengers and contacts" }).waitFor();
    await page.waitForURL(/[?&]fare=/);
    const fare = params(page).get("fare");
    await page.getByRole("textbox", { name: "Last name" }).first().fill("PETRENKO");
    await page.getByRole("textbox", { name: "E-mail" }).fill("traveller@example.com");

    await page.reload();
    await page.getByRole("heading", { name: "Passengers and contacts" }).waitFor();
    expect(params(page).get("fare")).toBe(fare);
    await expect(page.getByRole("textbox", { name: "Last name" }).first().inputValue()).resolves.toBe(
      "PETRENKO",
    );
    await expect(page.getByRole("textbox", { name: "E-mail" }).inputValue()).resolves.toBe(
      "traveller@example.com",
    );

    await page.goBack();
    await results(page);
    expect(params(page).get("fare")).toBeNull();
    await expect(page.getByRole("heading", { name: "Passengers and contacts" }).isVisible()).resolves.toBe(
      false,
    );
  });

  it("lists recent searches, and one click opens one again", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(23)}`);
    await results(page);
    await page.goto("/search");
    const recent = page.getByRole("navigation", { name: "Recent searches" });
    await recent
      .getByRole("button", { name: /KBP → WAW/ })
      .first()
      .click();
    await results(page);
    expect(params(page).get("from")).toBe("KBP");
    expect(params(page).get("to")).toBe("WAW");
  });
});

describe("/bookings?locator=", () => {
  it("asks for exactly the locator written, numeric-looking ones included", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const asked: string[] = [];
    page.on("request", (request) => asked.push(new URL(request.url()).pathname));
    for (const locator of ["012345", "123456", "1E5", "ABC234"]) {
      await page.goto(`/bookings?locator=${locator}`);
      for (let i = 0; i < 40 && !asked.includes(`/bookings/${locator}`); i++) await page.waitForTimeout(250);
      expect({
        locator,
        asked: asked.includes(`/bookings/${locator}`) ? `/bookings/${locator}` : asked.join(" "),
      }).toEqual({
        locator,
        asked: `/bookings/${locator}`,
      });
      expect(params(page).get("locator")).toBe(locator);
    }
  });
});
