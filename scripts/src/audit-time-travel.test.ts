// Time travel (issue 14): a booking and a company balance as of a moment equal what the app held at that moment
// (captured during the test), and the difference between two moments names what changed.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { evolveBalance, initialBalance } from "@skyward/command-service/balances/balance";
import { evolveBooking, initialBooking } from "@skyward/command-service/bookings/booking";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { AsOfResponse } from "@skyward/contracts/audit";
import { holdBooking } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

describe("time travel", () => {
  let t: TestApp;
  let agent: HttpClient;
  let locator: string;
  let companyId: string;
  let heldAt: string;
  let issuedAt: string;
  let bookingWhenHeld: unknown;
  let balanceWhenHeld: unknown;
  let balanceWhenIssued: unknown;
  const signedIn = async (email: string) => {
    const client = t.client();
    await client.signInWithPassword(email, DEMO_PASSWORD);
    return client;
  };
  // What the app's own write model holds now, read fresh (no fold cache).
  const bookingNow = async () =>
    (await t.app.store.readStream(`booking-${locator}`)).reduce(evolveBooking, initialBooking);
  const balanceNow = async () =>
    (await t.app.store.readStream(`balance-${companyId}`)).reduce(evolveBalance, initialBalance);

  beforeAll(async () => {
    t = await startTestApp();
    agent = await signedIn("agent@dnipro.test");
    locator = await holdBooking(agent);
    const booking = await bookingNow();
    if (booking.status === "none") throw new Error("the booking was not held");
    companyId = booking.company_id;
    bookingWhenHeld = JSON.parse(JSON.stringify(booking));
    balanceWhenHeld = JSON.parse(JSON.stringify(await balanceNow()));
    await sleep(20);
    heldAt = new Date().toISOString();
    await sleep(20);
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
    balanceWhenIssued = JSON.parse(JSON.stringify(await balanceNow()));
    await sleep(20);
    issuedAt = new Date().toISOString();
  });
  afterAll(() => t.stop());

  const asOf = async (client: HttpClient, path: string, query: Record<string, string>) => {
    const res = await client.get(`/audit/as_of/${path}`, { query });
    return { status: res.status, body: res.status === 200 ? AsOfResponse.parse(res.body.data) : res.body };
  };

  it("a booking as of the moment it was held equals the app's state then; the difference names the issue", async () => {
    const { status, body } = await asOf(agent, `booking/${locator}`, { at: heldAt, compare: issuedAt });
    expect(status).toBe(200);
    const travelled = body as AsOfResponse;
    expect(travelled.as_of.state).toEqual(bookingWhenHeld);
    expect(travelled.compared?.state).toMatchObject({ status: "issued" });
    expect(travelled.changes).toEqual(
      expect.arrayContaining([{ path: "/status", before: "held", after: "issued" }]),
    );
    // Before the booking existed there was nothing.
    const before = await asOf(agent, `booking/${locator}`, { at: "2000-01-01T00:00:00Z" });
    expect((before.body as AsOfResponse).as_of).toMatchObject({ version: 0, last_event: null });
  });

  it("a company balance as of two moments equals what the app held at each", async () => {
    const { status, body } = await asOf(agent, `balance/${companyId}`, { at: heldAt, compare: issuedAt });
    expect(status).toBe(200);
    const travelled = body as AsOfResponse;
    expect(travelled.as_of.state).toEqual(balanceWhenHeld);
    expect(travelled.compared?.state).toEqual(balanceWhenIssued);
    expect(travelled.changes.map((c) => c.path)).toContain("/amount/amount");
  });

  it("another agency answers 404; bad input answers 404 or 422, never 500", async () => {
    const vistula = await signedIn("supervisor@vistula.test");
    expect((await asOf(vistula, `booking/${locator}`, { at: issuedAt })).status).toBe(404);
    expect((await asOf(vistula, `balance/${companyId}`, { at: issuedAt })).status).toBe(404);
    const admin = await signedIn("admin@skyward.test");
    expect((await asOf(admin, `booking/${locator}`, { at: issuedAt })).status).toBe(200);
    expect((await asOf(agent, `booking/${locator}`, { at: "not a time" })).status).toBe(422);
    expect((await asOf(agent, "ghost/x", { at: issuedAt })).status).toBe(404);
    // A NUL in the path is refused by the input hygiene before any route (400).
    expect([400, 404]).toContain((await asOf(agent, "balance/%00", { at: issuedAt })).status);
    expect((await asOf(agent, `channel/${"x".repeat(300)}`, { at: issuedAt })).status).toBe(404);
  });
});
