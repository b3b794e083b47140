// Issue 29, fault 3: a supplier that hangs. Every supplier call has a deadline (SUPPLIER_TIMEOUT_MS, per call
// SUPPLIER_TIMEOUTS); past it an issue answers at once that it is being completed, and reconciliation undoes it as it
// does after a crash: the charge goes back, and the airline's late answer is refused.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { reconcileOperations } from "@skyward/command-service/bookings/reconcile";
import { balanceFromEvents, holdBooking, moneyOf, topUp, until } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const ISSUE_DEADLINE_MS = 400;
const SEARCH_DEADLINE_MS = 300;

let t: TestApp;
let agent: HttpClient;

beforeAll(async () => {
  t = await startTestApp({
    env: { SUPPLIER_TIMEOUTS: `issue=${ISSUE_DEADLINE_MS},search=${SEARCH_DEADLINE_MS}` },
  });
  agent = t.client();
  await agent.signIn("agent@dnipro.test");
});
afterAll(() => t.stop());

describe("a supplier that hangs", () => {
  it("when the airline hangs on an issue, then the request answers 503 operation_pending within the deadline, the booking shows it being completed, and reconciliation undoes it with the charge credited back", async () => {
    const locator = await holdBooking(agent, ["Hang"]);
    const [held] = await t.events(`booking-${locator}`);
    const companyId = held?.data.company_id as string;
    await topUp(t.db, t.app.store, companyId, 10_000_000_00);
    const before = await balanceFromEvents(t.db, companyId);

    const started = performance.now();
    const issued = await agent.post("/bookings/issue", { locator });
    const tookMs = performance.now() - started;
    expect(issued.status).toBe(503);
    expect(issued.body.errors[0].code).toBe("operation_pending");
    // The deadline plus the claim and its reads, not the airline's 10 minutes.
    expect(tookMs).toBeLessThan(ISSUE_DEADLINE_MS + 3_000);

    const page = await until(
      async () => {
        const res = await agent.get(`/bookings/${locator}`);
        return res.body.data?.operation ? res.body.data : undefined;
      },
      5_000,
      "the booking page showing the issue in flight",
    );
    expect(page.operation.kind).toBe("issue");
    expect(await moneyOf(t.db, locator)).toEqual([
      expect.objectContaining({ type: "BalanceCharged", reason: "issue" }),
    ]);

    // The job's work, without waiting out its minute (it looks only at operations open over 60 s).
    expect(await reconcileOperations(t.app.commandDeps, { staleAfterMs: 0 })).toMatchObject({
      undone: 1,
      failed: 0,
    });
    const types = (await t.events(`booking-${locator}`)).map((e) => e.type);
    expect(types.at(-1)).toBe("TicketingFailed");
    expect(await balanceFromEvents(t.db, companyId)).toBe(before);
    expect((await moneyOf(t.db, locator)).map((m) => m.type)).toEqual(["BalanceCharged", "BalanceCredited"]);
  }, 30_000);

  it("when the airline hangs on a search, then it answers 504 supplier_timeout within its own deadline, and the next search answers", async () => {
    const search = (destination: string) =>
      agent.post("/offers", {
        origin: "KBP",
        destination,
        departure_date: new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10),
        passengers: { adults: 1, children: 0, infants: 0 },
      });
    const started = performance.now();
    const hung = await search("HNG");
    expect(performance.now() - started).toBeLessThan(SEARCH_DEADLINE_MS + 3_000);
    expect(hung.status).toBe(504);
    expect(hung.body.errors[0]).toMatchObject({ status: "504", code: "supplier_timeout" });
    expect((await search("WAW")).status).toBe(200);
  });

  it("when a deadline is not a positive number of milliseconds for a call the supplier has, then the app refuses to start", async () => {
    const { readConfig } = await import("@skyward/infra/config");
    expect(() => readConfig({ SUPPLIER_TIMEOUTS: "teleport=100" })).toThrow(
      /SUPPLIER_TIMEOUTS.*teleport=100/s,
    );
    expect(() => readConfig({ SUPPLIER_TIMEOUTS: "issue=0" })).toThrow(/SUPPLIER_TIMEOUTS/);
    expect(() => readConfig({ SUPPLIER_TIMEOUT_MS: "soon" })).toThrow(/SUPPLIER_TIMEOUT_MS/);
    expect(readConfig({ SUPPLIER_TIMEOUTS: "issue=60000, search=15000" }).SUPPLIER_TIMEOUTS).toEqual({
      issue: 60_000,
      search: 15_000,
    });
  });
});
