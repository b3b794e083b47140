import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { holdBalancesProjector } from "./testing/held-projector.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * Read-your-writes across page loads (infra/src/http/last-write.ts): a command's answer sets its position in an
 * HttpOnly cookie for a minute, and a read without `X-Min-Position` (a page reloaded, a link opened, a new tab) waits
 * for it. Found by a whole run: a booking held, then its link opened, answered 404 while the projection was behind.
 */
describe("the last write's position across page loads", () => {
  let t: TestApp;
  let admin: HttpClient;
  let agent: HttpClient;

  const signedIn = async (email: string) => {
    const client = t.client();
    expect((await client.signInWithPassword(email, DEMO_PASSWORD)).status).toBe(200);
    return client;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await signedIn("admin@skyward.test");
    agent = await signedIn("agent@dnipro.test");
  });
  afterAll(() => t?.stop());

  it("given a correction the balances read model has not reached, when its author reads without the header, then the read waits for it; another browser's read does not", async () => {
    const [before] = (await agent.get("/balances")).body.data as {
      company_id: string;
      balance_amount: { amount: number; currency: string };
    }[];
    if (!before) throw new Error("the agent sees no balance");
    const balanceOf = (res: { body: { data: { company_id: string; balance_amount: unknown }[] } }) =>
      res.body.data.find((b) => b.company_id === before.company_id)?.balance_amount;
    // The balances projector is held back (reads still go through).
    const held = await holdBalancesProjector(t.app.pool);
    try {
      const corrected = await admin.post("/transactions", {
        transaction: { company_id: before.company_id, kind: "correction", amount: 321_00, reason: "Reload" },
      });
      expect(corrected.status).toBe(201);
      const cookie = corrected.headers.get("set-cookie") ?? "";
      expect(cookie).toContain(`skyward_last_write=${corrected.body.position}`);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect(cookie).toMatch(/Max-Age=60/i);
      // Another browser (the agent's) has written nothing: its read answers at once, from before the correction.
      expect(balanceOf(await agent.get("/balances"))).toEqual(before.balance_amount);
      // The author's read, with no header (as after a reload), waits until the projector is let go.
      const read = admin.get("/balances");
      await new Promise((resolve) => setTimeout(resolve, 300));
      await held.letGo();
      const answer = await read;
      expect(answer.headers.get("x-stale")).toBeNull();
      expect(balanceOf(answer)).toEqual({
        amount: before.balance_amount.amount + 321_00,
        currency: before.balance_amount.currency,
      });
    } finally {
      await held.letGo();
    }
  });

  it("given a page that names an older position than its cookie (a refusal that still wrote), when it reads, then the read waits for the later", async () => {
    const [before] = (await admin.get("/balances")).body.data as {
      company_id: string;
      balance_amount: { amount: number; currency: string };
    }[];
    if (!before) throw new Error("the admin sees no balance");
    const older = (
      await admin.post("/transactions", {
        transaction: { company_id: before.company_id, kind: "correction", amount: 1_00, reason: "Older" },
      })
    ).body.position as string;
    const held = await holdBalancesProjector(t.app.pool);
    try {
      const corrected = await admin.post("/transactions", {
        transaction: { company_id: before.company_id, kind: "correction", amount: 222_00, reason: "Later" },
      });
      expect(corrected.status).toBe(201);
      // The page knows the older position only (as after a refusal that wrote, whose position it did not keep).
      const read = admin.get("/balances", { headers: { "x-min-position": older } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await held.letGo();
      const answer = await read;
      expect(answer.headers.get("x-stale")).toBeNull();
      const mine = (answer.body.data as { company_id: string; balance_amount: { amount: number } }[]).find(
        (b) => b.company_id === before.company_id,
      );
      expect(mine?.balance_amount.amount).toBe(before.balance_amount.amount + 1_00 + 222_00);
    } finally {
      await held.letGo();
    }
  });

  it("given a cookie that is not a position, when a read comes with it, then it reads as without one", async () => {
    const client = await signedIn("supervisor@vistula.test");
    client.setCookie("skyward_last_write", "1-2; DROP TABLE x");
    const res = await client.get("/balances");
    expect(res.status).toBe(200);
    // A refused command sets nothing.
    const refused = await client.post("/transactions", { transaction: { kind: "top_up" } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers.get("set-cookie") ?? "").not.toContain("skyward_last_write");
  });
});
