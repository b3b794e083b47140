import { describe, expect, it, jest } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import type { Page } from "playwright-core";
import { signInAsAgent } from "./flows.ts";
import { browserAppSuite, checkScreen } from "./harness.ts";

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Issued tickets made over the API with the page's own session (the booking screens are tested in booking.e2e.ts):
 * one adult on a network carrier, so bags and paid seats are both on sale.
 */
async function issuedBooking(page: Page): Promise<string> {
  const locator = await heldBooking(page);
  const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
  const headers = { "X-CSRF-Token": token };
  expect((await page.request.post("/bookings/issue", { headers, data: { locator } })).status()).toBe(201);
  return locator;
}

/** A held booking made over the API (one adult, a network carrier), as issuedBooking makes it before issuing. */
async function heldBooking(page: Page): Promise<string> {
  const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
  const headers = { "X-CSRF-Token": token };
  const search = await page.request.post("/offers", {
    headers,
    data: {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(21),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO"],
    },
  });
  const { result } = (await search.json()) as {
    result: { id: string; origin_destinations: { fares: { fare_id: string; instant_payment: boolean }[] }[] };
  };
  const fare = result.origin_destinations[0]?.fares.find((f) => !f.instant_payment);
  const booked = await page.request.post("/bookings", {
    headers,
    data: {
      search_result_id: result.id,
      fare_id: fare?.fare_id,
      passengers: [
        {
          type: "adult",
          gender: "F",
          first_name: "Olena",
          last_name: "Kravets",
          date_of_birth: "1988-03-14",
          document: {
            type: "passport",
            number: "FK204611",
            issuing_country: "UA",
            nationality: "UA",
            expires_on: "2032-01-01",
          },
        },
      ],
      contacts: { email: "olena@example.com", phone: "+380501112244" },
    },
  });
  expect(booked.status()).toBe(201);
  const { locator } = (await booked.json()) as { locator: string };
  return locator;
}

async function balance(page: Page): Promise<number> {
  const amount = page.getByTestId("balance-amount");
  await amount.waitFor();
  return Number(await amount.getAttribute("data-amount"));
}

/** Reads until the balance is the expected one (the read models catch up within moments), then asserts it. */
async function expectBalance(page: Page, expected: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last = await balance(page);
  while (last !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    last = await balance(page);
  }
  expect(last).toBe(expected);
}

describe("ancillaries after issue", () => {
  it("adds a bag to issued tickets (its EMD shown with number and amount, the balance charged), then picks a paid seat on the seat map", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await issuedBooking(page);
    await page.goto(`/bookings?locator=${locator}`);
    const section = page.getByRole("region", { name: "Bags and seats" });
    await section.waitFor();
    const before = await balance(page);

    await section.getByRole("button", { name: "Add bags" }).click();
    const picker = page.getByRole("dialog", { name: "Add bags" });
    const bag = picker.getByRole("checkbox", { name: /^Checked bag 23 kg · / }).first();
    await bag.waitFor();
    const bagLabel =
      (await picker
        .getByText(/^Checked bag 23 kg · /)
        .first()
        .textContent()) ?? "";
    await bag.check();
    await checkScreen(page, "ancillaries: bag picker");
    await picker.getByRole("button", { name: /^Buy for / }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /EMD issued for booking/ })
      .first()
      .waitFor();

    const bagRow = section.locator("tr[data-emd]").first();
    await bagRow.waitFor();
    const emd = (await bagRow.getAttribute("data-emd")) ?? "";
    expect(emd).toMatch(/^\d{13}$/);
    const bagAmount = bagLabel.split(" · ")[1] ?? "";
    await expect(bagRow.textContent()).resolves.toContain(bagAmount);
    const catalogue = await page.request.get(`/bookings/${locator}/ancillaries?type=bag`);
    const bagPrice = ((await catalogue.json()) as { data: { price: { amount: number } }[] }).data[0]?.price
      .amount;
    await expectBalance(page, before - (bagPrice ?? 0));

    await section.getByRole("button", { name: "Choose seats" }).click();
    const seats = page.getByRole("dialog", { name: "Choose a seat" });
    const paid = seats.getByRole("button", { name: /^Seat \d+[A-K], (?!free$|occupied$|held by)/ }).first();
    await paid.waitFor();
    await checkScreen(page, "ancillaries: seat map");
    // Keyboard: the seat takes focus and Enter picks it.
    await paid.focus();
    await page.keyboard.press("Enter");
    const seatName = (await paid.getAttribute("aria-label")) ?? "";
    const seat = /^Seat (\d+[A-K]),/.exec(seatName)?.[1] ?? "";
    await expect(paid.getAttribute("aria-pressed")).resolves.toBe("true");
    await seats.getByRole("button", { name: `Take seat ${seat}` }).click();
    await page
      .getByRole("status")
      .filter({ hasText: new RegExp(`Seat ${seat} is yours`) })
      .first()
      .waitFor();
    await seats.getByRole("button", { name: new RegExp(`^Seat ${seat}, held by`) }).waitFor();
    await seats.getByRole("button", { name: "Back" }).click();

    const seatRow = section.locator("tr[data-emd]").filter({ hasText: seat });
    await seatRow.waitFor();
    expect(await seatRow.getAttribute("data-emd")).toMatch(/^\d{13}$/);
    const page2 = await page.request.get(`/bookings/${locator}`);
    const { data } = (await page2.json()) as { data: { ancillaries: { price: { amount: number } }[] } };
    const spent = data.ancillaries.reduce((sum, l) => sum + l.price.amount, 0);
    await expectBalance(page, before - spent);
    await checkScreen(page, "ancillaries: booking with EMDs");
  });

  it("picks a paid seat on a demo booking's seat map, which has the fare's cabin though no airline holds the booking", async () => {
    const { page } = suite.session;
    await page.context().clearCookies();
    await signInAsAgent(page, "demo@skyward.test");
    const locator = await issuedBooking(page);
    await page.goto(`/bookings?locator=${locator}`);
    const section = page.getByRole("region", { name: "Bags and seats" });
    await section.waitFor();
    await section.getByRole("button", { name: "Choose seats" }).click();
    const seats = page.getByRole("dialog", { name: "Choose a seat" });
    const paid = seats.getByRole("button", { name: /^Seat \d+[A-K], (?!free$|occupied$|held by)/ }).first();
    await paid.waitFor();
    const seat = /^Seat (\d+[A-K]),/.exec((await paid.getAttribute("aria-label")) ?? "")?.[1] ?? "";
    await paid.click();
    await seats.getByRole("button", { name: `Take seat ${seat}` }).click();
    await page
      .getByRole("status")
      .filter({ hasText: new RegExp(`Seat ${seat} is yours`) })
      .first()
      .waitFor();
    await seats.getByRole("button", { name: new RegExp(`^Seat ${seat}, held by`) }).waitFor();
  });
});

describe("a bag on a held booking, then issue", () => {
  it("the issue confirmation shows fare + bag as the charge and the company balance before and after it; issue takes exactly that; a balance too low is refused in the dialog with the figures", async () => {
    const { page } = suite.session;
    await signInAsAgent(page);
    const locator = await heldBooking(page);
    const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
    const headers = { "X-CSRF-Token": token };
    const catalogue = await page.request.get(`/bookings/${locator}/ancillaries?type=bag`);
    const [bag] = (
      (await catalogue.json()) as { data: { ancillary_id: string; price: { amount: number } }[] }
    ).data;
    if (!bag) throw new Error("no bag on sale");
    const added = await page.request.post(`/bookings/${locator}/ancillaries`, {
      headers,
      data: { items: [{ ancillary_id: bag.ancillary_id, passenger_index: 0 }] },
    });
    expect(added.status()).toBe(201);
    const read = await page.request.get(`/bookings/${locator}`);
    const held = ((await read.json()) as { data: { price: { amount: number }; company_id: string } }).data;
    const fare = held.price.amount;
    const total = fare + bag.price.amount;

    await page.goto(`/bookings?locator=${locator}`);
    const before = await balance(page);
    await page.getByRole("button", { name: "Issue tickets" }).click();
    const dialog = page.getByRole("dialog", { name: `Issue booking ${locator}?` });
    await dialog.waitFor();
    const figure = async (testId: string) => {
      const cell = dialog.getByTestId(testId);
      await cell.waitFor();
      return Number(await cell.getAttribute("data-amount"));
    };
    expect(await figure("issue-fare")).toBe(fare);
    expect(await figure("issue-extras")).toBe(bag.price.amount);
    expect(await figure("issue-total")).toBe(total);
    expect(await figure("issue-balance-before")).toBe(before);
    expect(await figure("issue-balance-after")).toBe(before - total);
    await expect(dialog.getByTestId("issue-balance-short").count()).resolves.toBe(0);
    await checkScreen(page, "issue confirmation with a bag and the balance");
    await dialog.getByRole("button", { name: "Issue", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: new RegExp(`Booking ${locator} is issued`) })
      .first()
      .waitFor();
    await expectBalance(page, before - total);

    // The administrator takes the balance down to 100.00 UAH: the next issue is refused in its dialog, early.
    const admin = await suite.browser.newContext({ baseURL: suite.app.url });
    try {
      const csrf = ((await (await admin.request.get("/csrf")).json()) as { token: string }).token;
      const signIn = await admin.request.post("/sign_in", {
        headers: { "X-CSRF-Token": csrf },
        data: { account: { email: "admin@skyward.test", password: DEMO_PASSWORD } },
      });
      expect(signIn.status()).toBe(200);
      const adminCsrf = ((await (await admin.request.get("/csrf")).json()) as { token: string }).token;
      const correction = await admin.request.post("/transactions", {
        headers: { "X-CSRF-Token": adminCsrf },
        data: {
          company_id: held.company_id,
          kind: "correction",
          amount: 100_00 - (before - total),
          reason: "E2E: a balance too low to issue",
        },
      });
      expect(correction.status()).toBe(201);
    } finally {
      await admin.close();
    }
    const second = await heldBooking(page);
    await page.goto(`/bookings?locator=${second}`);
    await expectBalance(page, 100_00);
    await page.getByRole("button", { name: "Issue tickets" }).click();
    const refused = page.getByRole("dialog", { name: `Issue booking ${second}?` });
    const short = refused.getByTestId("issue-balance-short");
    await short.waitFor();
    const due = Number(await refused.getByTestId("issue-total").getAttribute("data-amount"));
    expect(await refused.getByTestId("issue-balance-before").getAttribute("data-amount")).toBe("10000");
    expect(await short.textContent()).toContain("100.00");
    expect(due).toBeGreaterThan(100_00);
    await expect(refused.getByRole("button", { name: "Issue", exact: true }).isDisabled()).resolves.toBe(
      true,
    );
    await checkScreen(page, "issue confirmation refused: balance too low");
  });
});
