import { expect } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { TERMS_VERSION } from "@skyward/contracts/account";
import type { Locator, Page } from "playwright-core";
import { checkScreen } from "./harness.ts";

/** The steps the browser tests share: signing the demo agent in, typing dates, choosing airports, searching. */

const AGENT = "agent@dnipro.test";

/**
 * Signs in by password through the page's own cookie jar (the sign-in screens are tested elsewhere) and finishes the
 * demo agent's onboarding, so the product's pages open directly.
 */
export async function signInAsAgent(page: Page, email = AGENT): Promise<void> {
  const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
  const headers = { "X-CSRF-Token": token };
  const signIn = await page.request.post("/sign_in", {
    headers,
    data: { account: { email, password: DEMO_PASSWORD } },
  });
  expect(signIn.status()).toBe(200);
  const { onboarding } = (await signIn.json()) as { onboarding: string };
  if (onboarding === "done") return;
  const put = { ...headers, "X-HTTP-Method-Override": "PUT" };
  expect(
    (
      await page.request.post("/onboarding", {
        headers: put,
        data: { account: { first_name: "Taras", last_name: "Shevchuk" } },
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await page.request.post("/account/terms", { headers: put, data: { terms: { version: TERMS_VERSION } } })
    ).status(),
  ).toBe(200);
}

export const inDays = (days: number) => {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${String(date.getDate()).padStart(2, "0")}.${String(date.getMonth() + 1).padStart(2, "0")}.${date.getFullYear()}`;
};

export async function typeDate(scope: Page | Locator, label: string, value: string): Promise<void> {
  const input = scope.getByRole("textbox", { name: label, exact: true });
  await input.fill(value);
  await input.press("Enter");
  await input.press("Escape");
}

export async function chooseAirport(page: Page, label: string, code: string): Promise<void> {
  await page.getByRole("textbox", { name: label, exact: true }).fill(code);
  await page.getByRole("option", { name: new RegExp(`^${code} `) }).click();
}

export async function searchFlights(page: Page, adults: number): Promise<void> {
  const heading = page.getByRole("heading", { level: 1, name: "Flight search" });
  // A click that lands while the signed-in page is still settling (the session read re-renders the navigation) can be
  // swallowed by the router's own navigation; a user clicks again, and so does the test, once.
  await page.getByRole("navigation").getByRole("link", { name: "Search", exact: true }).click();
  if (
    !(await heading.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    ))
  )
    await page.getByRole("navigation").getByRole("link", { name: "Search", exact: true }).click();
  await heading.waitFor();
  await chooseAirport(page, "From", "KBP");
  await chooseAirport(page, "To", "WAW");
  await typeDate(page, "Departure", inDays(21));
  await checkScreen(page, "search-form");
  if (adults > 1) {
    await page.getByRole("button", { name: /^Passengers:/ }).click();
    for (let i = 1; i < adults; i++) await page.getByRole("button", { name: "More adults" }).click();
    await checkScreen(page, "passengers-picker");
    await page.keyboard.press("Escape");
  }
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByTestId("results-count").waitFor();
}

/**
 * The screens the header's navigation offers, in order: the links beside the logo, then those in its "More" (or, on a
 * phone, "Menu") menu, which holds what does not fit the header's width.
 */
export async function navigationEntries(page: Page): Promise<string[]> {
  const nav = page.getByRole("navigation");
  const shown = (await nav.getByRole("link").allTextContents()).map((text) => text.trim());
  const more = nav.getByRole("button", { name: /^(More|Menu)$/ });
  if ((await more.count()) === 0) return shown;
  // The menu's code is in once its button says it opens a menu.
  await nav.locator('button[aria-haspopup="menu"]').click();
  const menu = page.getByRole("menu");
  await menu.getByRole("menuitem").first().waitFor();
  const rest = (await menu.getByRole("menuitem").allTextContents()).map((text) => text.trim());
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "detached" });
  return [...shown, ...rest];
}

/** Opens a screen from the header's navigation, from its menu when it is not beside the logo. */
export async function openFromNavigation(page: Page, name: string): Promise<void> {
  const nav = page.getByRole("navigation");
  const link = nav.getByRole("link", { name, exact: true });
  if ((await link.count()) > 0) return link.click();
  await nav.locator('button[aria-haspopup="menu"]').click();
  await page.getByRole("menu").getByRole("menuitem", { name, exact: true }).click();
}

/**
 * Opens a path as the app's own links do, through its router (TanStack Router keeps itself on `__TSR_ROUTER__` in a
 * browser), and resolves once the route's loaders are done; a page with no app started yet loads the path. A full
 * load parses and starts the whole bundle again, which is most of what a walk through every screen costs.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const routed = await page.evaluate(async (href) => {
    const router = (window as { __TSR_ROUTER__?: { navigate(to: { href: string }): Promise<void> } })
      .__TSR_ROUTER__;
    if (!router) return false;
    await router.navigate({ href });
    return true;
  }, path);
  if (!routed) await page.goto(path);
  // A navigation the router refused or redirected would leave the previous screen to be checked in its place.
  expect(new URL(page.url()).pathname).toBe(new URL(path, page.url()).pathname);
}

/** YYYY-MM-DD this many days from now, as the API takes it. */
export const isoInDays = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The CSRF header for a command sent with the page's own session. */
export async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
  return { "X-CSRF-Token": token };
}

/**
 * Keeps a traveller for the page's company over the API. A retry of the test (retry-setup.ts) finds the one its first
 * attempt kept: the same name and date of birth are then refused as a likely duplicate, and that one is used.
 */
export async function keepTraveller(page: Page, traveller: Record<string, unknown>): Promise<void> {
  const kept = await page.request.post("/travellers", {
    headers: await csrfHeaders(page),
    data: { traveller },
  });
  if (kept.status() === 201) return;
  expect(kept.status()).toBe(409);
  await expect(kept.json()).resolves.toMatchObject({ errors: [{ code: "traveller_duplicate" }] });
}

/** Holds a fare of a search for one adult traveller (a fresh passport number each time) over the API; its locator. */
export async function holdFare(
  page: Page,
  headers: Record<string, string>,
  searchResultId: string,
  fareId: string,
  lastName: string,
): Promise<string> {
  const booked = await page.request.post("/bookings", {
    headers,
    data: {
      search_result_id: searchResultId,
      fare_id: fareId,
      passengers: [
        {
          type: "adult",
          gender: "M",
          first_name: "Ivan",
          last_name: lastName,
          date_of_birth: "1985-04-12",
          document: {
            type: "passport",
            number: `FN${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`,
            issuing_country: "UA",
            nationality: "UA",
            expires_on: "2032-01-01",
          },
        },
      ],
      contacts: { email: "traveller@example.com", phone: "+380501112233" },
    },
  });
  expect(booked.status()).toBe(201);
  return ((await booked.json()) as { locator: string }).locator;
}

/**
 * A held booking of a network carrier's Standard fare (refund for a penalty, paid changes, bags on sale), made over
 * the API in the page's own session: the booking screens are tested in booking.e2e.ts, callers test what follows.
 */
export async function holdStandardFare(
  page: Page,
  lastName: string,
  journey: Record<string, unknown> = { origin: "KBP", destination: "WAW", departure_date: isoInDays(21) },
): Promise<string> {
  const headers = await csrfHeaders(page);
  const search = await page.request.post("/offers", {
    headers,
    data: { ...journey, passengers: { adults: 1, children: 0, infants: 0 }, carriers: ["PS", "LO"] },
  });
  expect(search.status()).toBe(200);
  const { result } = (await search.json()) as {
    result: {
      id: string;
      origin_destinations: { fares: { fare_id: string; family: string; instant_payment: boolean }[] }[];
    };
  };
  const fare = result.origin_destinations
    .flatMap((od) => od.fares)
    .find((f) => f.family === "standard" && !f.instant_payment);
  if (!fare) throw new Error("no Standard fare in the search");
  return holdFare(page, headers, result.id, fare.fare_id, lastName);
}
