import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * A request that mixes a question and commands (issue 13): POST /admin_panel/ask answers the question and plans
 * the commands in one response, over real HTTP on a real PostgreSQL with the embedded parser; nothing changes.
 */

let t: TestApp;
let admin: HttpClient;
const kyiv = demoId("company", "dnipro-kyiv");
const warszawa = demoId("company", "vistula-waw");

beforeAll(async () => {
  t = await startTestApp();
  admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
}, 120_000);
afterAll(() => t.stop());

describe("ask with a question and a command", () => {
  it("when the request asks a balance and a top-up, then the plan has the top-up and the balance is answered beside it", async () => {
    const events = await t.countEventsButBackground();
    const res = await admin.post("/admin_panel/ask", {
      text: "what is the balance of Dnipro Travel Kyiv? Top up Vistula Warszawa by 100 PLN reason invoice 5",
    });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe("plan");
    expect(res.body.plan.steps).toHaveLength(1);
    expect(res.body.plan.steps[0]).toMatchObject({
      index: 0,
      command: "balance_transaction",
      args: { body: { company_id: warszawa, amount: { amount: 10000, currency: "PLN" } } },
    });
    expect(res.body.answers).toHaveLength(1);
    expect(res.body.answers[0].question).toBe("company_balance");
    expect(res.body.answers[0].data).toMatchObject({ company_id: kyiv });
    expect(await t.countEventsButBackground()).toBe(events);
  });

  it("when the request is only a question, then it is an answer with no plan", async () => {
    const res = await admin.post("/admin_panel/ask", { text: "what is the balance of Vistula Warszawa?" });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe("answer");
    expect(res.body.answers).toBeUndefined();
  });
});
