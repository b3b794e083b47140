import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { confirmRefund, issuedFamily, refundQuote } from "./testing/after-sales.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const kyiv = demoId("company", "dnipro-kyiv");

/** A balance event names the supplier operation that moved it, and the balance history shows that id. */
describe("balance movements of supplier operations", () => {
  let t: TestApp;
  let agent: HttpClient;
  let admin: HttpClient;
  beforeAll(async () => {
    t = await startTestApp();
    agent = t.client();
    await agent.signIn("agent@dnipro.test");
    admin = t.client();
    await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
  });
  afterAll(() => t.stop());

  it("when tickets are issued and refunded, then the charge and the credit each carry their operation's id, and the history lines show them", async () => {
    const locator = await issuedFamily(agent, "standard");
    const quote = await refundQuote(agent, locator);
    expect(quote.status).toBe(201);
    const refunded = await confirmRefund(agent, locator, quote.body.quote.quote_id);
    expect(refunded.status).toBe(200);

    const booking = await t.events(`booking-${locator}`);
    const issueId = booking.find((e) => e.type === "TicketingStarted")?.data.operation_id;
    const refundId = booking.find((e) => e.type === "TicketsRefunded")?.data.operation_id;
    expect(issueId).toEqual(expect.any(String));
    expect(refundId).toEqual(expect.any(String));
    const moves = (await t.events(`balance-${kyiv}`)).filter((e) => e.data.locator === locator);
    expect(moves.map((e) => [e.type, e.data.operation_id])).toEqual([
      ["BalanceCharged", issueId],
      ["BalanceCredited", refundId],
    ]);

    const history = await admin.get("/balance_history", {
      query: { company_id: kyiv, per_page: 100 },
      headers: { "x-min-position": refunded.body.position },
    });
    const lines = (history.body.data as Json[]).filter((l) => l.locator === locator);
    expect(lines.map((l) => [l.kind, l.operation_id])).toEqual([
      ["refund", refundId],
      ["charge", issueId],
    ]);
  });
});
