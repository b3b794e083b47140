import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, jest } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { TERMS_VERSION } from "@skyward/contracts/account";
import { confirmExchange, issuedFamily, pricedExchange } from "@skyward/scripts/testing/after-sales";
import { HttpClient } from "@skyward/scripts/testing/http-client";
import type { Page } from "playwright-core";
import { browserAppSuite, checkScreen } from "./harness.ts";

// The auditor's screens (issue 14) in Chromium: who changed a channel and when, a booking as it was before its
// exchange, and a projection replayed beside live. The changes themselves are made over the API by their owners.

const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

const dniproChannel = demoId("channel", "dnipro");

async function apiAs(email: string): Promise<HttpClient> {
  const client = new HttpClient(suite.app.url);
  await client.signInWithPassword(email, DEMO_PASSWORD);
  return client;
}

/** Waits, as the page's user, until the tamper-evident log has chained every event up to `position`. */
async function chainedUpTo(page: Page, position: unknown): Promise<void> {
  expect(typeof position).toBe("string");
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await page.request.get("/audit/events?limit=1", {
      headers: { accept: "application/json", "x-min-position": String(position) },
    });
    expect(res.status()).toBe(200);
    if (res.headers()["x-stale"] !== "true") return;
    if (Date.now() > deadline) throw new Error(`the log did not chain up to ${String(position)} within 30 s`);
  }
}

/** Signs the demo auditor in through the page's cookie jar and finishes onboarding, then opens /audit. */
async function openAuditAsAuditor(page: Page): Promise<void> {
  const { token } = (await (await page.request.get("/csrf")).json()) as { token: string };
  const headers = { "X-CSRF-Token": token };
  const signIn = await page.request.post("/sign_in", {
    headers,
    data: { account: { email: "auditor@skyward.test", password: DEMO_PASSWORD } },
  });
  expect(signIn.status()).toBe(200);
  const { onboarding } = (await signIn.json()) as { onboarding: string };
  if (onboarding !== "done") {
    const put = { ...headers, "X-HTTP-Method-Override": "PUT" };
    await page.request.post("/onboarding", {
      headers: put,
      data: { account: { first_name: "Audrey", last_name: "Auditor" } },
    });
    await page.request.post("/account/terms", { headers: put, data: { terms: { version: TERMS_VERSION } } });
  }
  await page.goto("/audit");
  await page.getByRole("heading", { level: 1, name: "Audit" }).waitFor();
}

/** Types a moment as the screen takes it: the date in the site's order (DD.MM.YYYY), the local time to the second. */
async function typeMoment(page: Page, label: string, date: Date): Promise<void> {
  const two = (n: number) => String(n).padStart(2, "0");
  const day = page.getByRole("textbox", { name: label, exact: true });
  await day.fill(`${two(date.getDate())}.${two(date.getMonth() + 1)}.${date.getFullYear()}`);
  await day.press("Escape");
  await page
    .getByRole("textbox", { name: `${label}: time`, exact: true })
    .fill(`${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`);
}

/** Waits until the next whole second has begun (and a little more), and returns that second. */
async function nextWholeSecond(): Promise<Date> {
  const now = Date.now();
  await sleep(1000 - (now % 1000) + 150);
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

describe("the auditor's screens", () => {
  it("when a supervisor switched a channel off, then the auditor finds in the history who did it and when", async () => {
    const supervisor = await apiAs("supervisor@dnipro.test");
    const before = Date.now();
    const off = await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, {
      on_by_supervisor: false,
    });
    expect(off.status).toBe(200);
    const after = Date.now();

    try {
      const { page } = suite.session;
      await openAuditAsAuditor(page);
      // The history shows an event once the log has chained it, a moment after the write (longer on a loaded
      // machine): the auditor looks once it has, as a person would look again.
      await chainedUpTo(page, off.body.position);
      await page.getByRole("textbox", { name: "Stream", exact: true }).fill(`channel-${dniproChannel}`);
      // The actor is picked by name as it is typed, not typed as an id.
      const actor = page.getByRole("combobox", { name: "Actor" });
      await actor.click();
      await actor.pressSequentially("Kovalen");
      await page.getByRole("option", { name: "Olena Kovalenko (Supervisor)" }).click();
      await page.getByRole("button", { name: "Show events" }).click();
      const history = page.getByRole("table", { name: "Event history" });
      const change = history.getByRole("row").filter({ hasText: "Supervisor" }).last();
      await change.waitFor();
      // Who: the supervisor by name and role (the id behind it); when: the time shown, between the call's start and end.
      await expect(change.textContent()).resolves.toContain("Olena Kovalenko (Supervisor)");
      await expect(change.locator("[data-actor-id]").getAttribute("data-actor-id")).resolves.toBe(
        demoId("user", "dnipro-supervisor"),
      );
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({
        stream_id: `channel-${dniproChannel}`,
        actor_id: demoId("user", "dnipro-supervisor"),
      });
      const rows = await history.getByRole("row").allTextContents();
      // A reload shows the same events, and the same filters in the form (the actor by name).
      await page.reload();
      await history
        .getByRole("row")
        .nth(rows.length - 1)
        .waitFor();
      await expect(history.getByRole("row").allTextContents()).resolves.toEqual(rows);
      await expect(page.getByRole("textbox", { name: "Stream", exact: true }).inputValue()).resolves.toBe(
        `channel-${dniproChannel}`,
      );
      await expect(actor.inputValue()).resolves.toBe("Olena Kovalenko (Supervisor)");
      const shown = await change.getByRole("cell").first().textContent();
      // The screen shows the time in the interface language (English dates read the European way), to the second:
      // one of the seconds the change was made in.
      const seconds = await page.evaluate(
        ([from, to]) => {
          const format = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium" });
          const out: string[] = [];
          for (let t = Math.floor(from / 1000) * 1000; t <= to; t += 1000)
            out.push(format.format(new Date(t)));
          return out;
        },
        [before, after] as const,
      );
      expect(seconds).toContain(shown);
      await checkScreen(page, "audit-history-channel");
      expect(suite.session.problems).toEqual([]);
    } finally {
      // The agency sells again for the tests after this one.
      await supervisor.patch(`/ticketing/agency_channels/${dniproChannel}`, { on_by_supervisor: true });
    }
  });

  it("when a booking was exchanged, then the auditor opens it as it was before the exchange and sees what changed", async () => {
    const agent = await apiAs("agent@dnipro.test");
    const locator = await issuedFamily(agent, "flex");
    // A whole second after the issue and before the exchange: the moment the auditor asks about.
    const beforeExchange = await nextWholeSecond();
    await sleep(1000);
    const priced = await pricedExchange(agent, locator, 28);
    expect(priced.status).toBe(200);
    const exchanged = await confirmExchange(agent, locator, priced.body.offers[0].reshop_offer_id);
    expect(exchanged.status).toBe(200);
    const oldTicket = exchanged.body.old_tickets[0] as string;
    const newTicket = exchanged.body.tickets[0].ticket_number as string;
    const afterExchange = await nextWholeSecond();

    const { page } = suite.session;
    await openAuditAsAuditor(page);
    await page.getByRole("tab", { name: "Time travel" }).click();
    await page.getByRole("textbox", { name: "Locator or id" }).fill(locator);
    await typeMoment(page, "As of", beforeExchange);
    await typeMoment(page, "Compare with (optional)", afterExchange);
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await page.getByRole("heading", { name: "What changed" }).waitFor();
    // As it was: issued, with its first ticket, and not yet the new one.
    const state = (await page.locator("pre").first().textContent()) ?? "";
    expect(state).toContain('"status": "issued"');
    expect(state).toContain(oldTicket);
    expect(state).not.toContain(newTicket);
    // What the exchange changed: the status, from issued to exchanged.
    const statusRow = page.getByRole("row", { name: '/status "issued" "exchanged"', exact: true });
    await statusRow.waitFor();
    // The stream and both moments are in the address: a reload shows the same state and changes.
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({
      tab: "time_travel",
      id: locator,
    });
    await page.reload();
    await statusRow.waitFor();
    await expect(page.getByRole("textbox", { name: "Locator or id" }).inputValue()).resolves.toBe(locator);
    await checkScreen(page, "audit-time-travel-exchange");
    expect(suite.session.problems).toEqual([]);
  });

  it("when the auditor replays a projection, then a progress bar runs to a per-table comparison that agrees, and the switch is for administrators only", async () => {
    const { page } = suite.session;
    await openAuditAsAuditor(page);
    await page.getByRole("tab", { name: "Replay" }).click();
    await page.getByLabel("Projection").selectOption("balances");
    await page.getByRole("button", { name: "Replay and compare" }).click();
    await page.getByRole("progressbar").first().waitFor();
    await page.getByText(/^Replay equals live/).waitFor({ timeout: 120_000 });
    const comparison = page.getByRole("table", { name: "Comparison of live and replay" });
    await expect(comparison.getByRole("row").count()).resolves.toBeGreaterThan(1);
    await expect(comparison.getByText("different").count()).resolves.toBe(0);
    await expect(
      page.getByRole("button", { name: "Switch to a fresh generation" }).isDisabled(),
    ).resolves.toBe(true);
    await page.getByText("Only administrators switch; auditors compare and read.").waitFor();
    await checkScreen(page, "audit-replay");
    expect(suite.session.problems).toEqual([]);
  });
  it("when an integrator opens /docs, then the reference shows every documented operation, with nothing fetched from elsewhere", async () => {
    const { page } = suite.session;
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(suite.app.url) && !request.url().startsWith("data:"))
        elsewhere.push(request.url());
    });
    await page.goto("/docs");
    await page.getByRole("heading", { level: 1, name: "API reference" }).waitFor();
    const document = (await (await page.request.get("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    await page.locator("section[aria-labelledby]").first().waitFor();
    await expect(page.locator("section[aria-labelledby]").count()).resolves.toBe(operations.length);
    for (const { operationId } of operations) await page.locator(`section#${operationId}`).waitFor();
    await page.getByRole("heading", { name: "/orders/{locator}/refund_requests/confirm" }).waitFor();
    // An answer's fields are shown once its status is opened.
    const confirmed = page.locator("section#confirmRefund details").filter({ hasText: "200" });
    await expect(confirmed.getByText("refunded_passengers", { exact: true }).count()).resolves.toBe(0);
    await confirmed.locator("summary").click();
    await confirmed.getByText("refunded_passengers", { exact: true }).waitFor();
    await expect(confirmed.getByText("credited", { exact: true }).isVisible()).resolves.toBe(true);
    expect(elsewhere).toEqual([]);
    await checkScreen(page, "api-docs");
    expect(suite.session.problems).toEqual([]);
  });
});
