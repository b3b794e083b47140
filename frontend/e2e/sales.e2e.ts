import { readFile } from "node:fs/promises";
import { describe, expect, it, jest } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { TERMS_VERSION } from "@skyward/contracts/account";
import type { Page } from "playwright-core";
import { browserAppSuite, checkScreen } from "./harness.ts";

const AGENT = "agent@dnipro.test";

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

/** Signs in through the page's cookie jar and finishes onboarding; returns the CSRF header for commands. */
async function signIn(page: Page): Promise<Record<string, string>> {
  const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
  const headers = { "X-CSRF-Token": token };
  const res = await page.request.post("/sign_in", {
    headers,
    data: { account: { email: AGENT, password: DEMO_PASSWORD } },
  });
  expect(res.status()).toBe(200);
  const { onboarding } = (await res.json()) as { onboarding: string };
  if (onboarding !== "done") {
    const put = { ...headers, "X-HTTP-Method-Override": "PUT" };
    await page.request.post("/onboarding", {
      headers: put,
      data: { account: { first_name: "Taras", last_name: "Shevchuk" } },
    });
    await page.request.post("/account/terms", { headers: put, data: { terms: { version: TERMS_VERSION } } });
  }
  return headers;
}

/** Books and issues one passenger over the API (the booking screens have their own E2E test). */
async function issueTicket(
  page: Page,
  headers: Record<string, string>,
): Promise<{ locator: string; ticket: string }> {
  const departure = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
  const search = await page.request.post("/offers", {
    headers,
    data: {
      origin: "KBP",
      destination: "WAW",
      departure_date: departure,
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
          last_name: "Kovalchuk",
          date_of_birth: "1990-02-03",
          document: {
            type: "passport",
            number: "FE123456",
            issuing_country: "UA",
            nationality: "UA",
            expires_on: "2032-01-01",
          },
        },
      ],
      contacts: { email: "olena@example.com", phone: "+380501112233" },
    },
  });
  expect(booked.status()).toBe(201);
  const { locator } = (await booked.json()) as { locator: string };
  const issued = await page.request.post("/bookings/issue", { headers, data: { locator } });
  expect(issued.status()).toBe(201);
  const { tickets } = (await issued.json()) as { tickets: { ticket_number: string }[] };
  return { locator, ticket: tickets[0]?.ticket_number ?? "" };
}

describe("sales and analytics screens", () => {
  it("an agent issues a ticket, finds it in sales, downloads its PDF and the xlsx report, and sees the sale in analytics", async () => {
    const { page } = suite.session;
    const headers = await signIn(page);
    const { locator, ticket } = await issueTicket(page, headers);

    await page.goto("/sales");
    await page
      .getByRole("heading", { level: 1, name: "Sales" })
      .waitFor()
      .catch((error: Error) => {
        throw new Error(`${error.message}\npage problems: ${suite.session.problems.join("\n")}`);
      });
    await page.getByRole("navigation").getByRole("link", { name: "Sales", exact: true }).waitFor();
    await page.getByRole("textbox", { name: "Ticket, locator, passenger or route" }).fill("kovalchuk");
    const row = page.getByRole("row").filter({ hasText: ticket });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(locator);
    // The filter is kept in the URL once typing pauses.
    await page.waitForURL(/text=kovalchuk/);
    await page
      .getByRole("row")
      .filter({ hasText: /^Total, UAH/ })
      .waitFor();
    await checkScreen(page, "sales-list");

    const [pdf] = await Promise.all([
      page.waitForEvent("download"),
      row.getByRole("button", { name: `Download the receipt of ticket ${ticket} (PDF)` }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`KOVALCHUK_OLENA_${ticket}.pdf`);
    const pdfBytes = await readFile((await pdf.path()) as string);
    expect(pdfBytes.subarray(0, 5).toString()).toBe("%PDF-");

    // The export shows its progress: held back here until checked, the bar waits for the file (indeterminate), then
    // says what was downloaded, with the line count the server announced.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const exportCall = /\/sales\/export\?/;
    await page.route(exportCall, async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    const downloaded = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export to Excel" }).click();
    const bar = page.getByRole("progressbar", { name: "Export progress" });
    await bar.waitFor();
    expect(await bar.getAttribute("aria-valuemin")).toBe("0");
    expect(await bar.getAttribute("aria-valuemax")).toBe("100");
    expect(await bar.getAttribute("aria-valuenow")).toBeNull();
    expect(await bar.getAttribute("aria-valuetext")).toBe("Preparing the report…");
    await checkScreen(page, "sales-export-progress");
    release();
    const xlsx = await downloaded;
    await page.unroute(exportCall);
    expect(xlsx.suggestedFilename()).toMatch(/^sales-report_.*\.xlsx$/);
    const xlsxBytes = await readFile((await xlsx.path()) as string);
    expect(xlsxBytes.subarray(0, 2).toString()).toBe("PK");
    // The line count comes from the server's announcement (X-Sales-Lines), the size from the bytes read.
    await page
      .getByRole("status")
      .filter({ hasText: /^Report downloaded · lines: [1-9]\d*, \d+ kB$/ })
      .waitFor();
    await bar.waitFor({ state: "detached" });

    // A day with no sales: the spec's error notice.
    await page.getByRole("textbox", { name: "Ticket, locator, passenger or route" }).fill("");
    await page.goto("/sales?date_from=2020-01-01&date_to=2020-01-02");
    await page.getByRole("button", { name: "Export to Excel" }).click();
    await page.getByText("No tickets for selected dates").first().waitFor();

    await page.getByRole("navigation").getByRole("link", { name: "Analytics", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Analytics" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "UAH" }).waitFor();
    // The chart library draws the day's sale as a bar.
    await page.locator(".recharts-bar-rectangle").first().waitFor();
    await page.getByRole("table", { name: "Top agents" }).getByText("Taras Shevchuk").waitFor();
    // The pointer left on the nav link just clicked would be checked in its hover colours, not the page's.
    await page.mouse.move(0, 600);
    await checkScreen(page, "analytics");
    // The empty export's 400 above is the browser's only complaint, and it is the one asked for.
    expect(suite.session.problems.filter((p) => !p.includes("status of 400"))).toEqual([]);
  });
});
