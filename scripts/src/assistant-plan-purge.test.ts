// Assistant plans never executed are purged a day after they expire (job purge-assistant-plans, issue 13); plans
// that ran stay, since the events they wrote name them as their causation.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { KEEP_EXPIRED_PLANS_S } from "@skyward/command-service/assistant/purge";
import { commandJobs } from "@skyward/command-service/jobs/specs";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
let admin: HttpClient;

beforeAll(async () => {
  t = await startTestApp();
  admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
}, 180_000);
afterAll(() => t.stop());

/** A plan asked for over HTTP, as the panel does. */
async function plan(text: string): Promise<string> {
  const res = await admin.post("/admin_panel/ask", { text });
  expect([res.status, res.body.kind]).toEqual([200, "plan"]);
  return res.body.plan.id as string;
}

/** Moves a plan's expiry into the past by `seconds` (and its creation with it). */
const expiredAgo = (id: string, seconds: number) =>
  t.db.pool.query(
    `UPDATE app.assistant_plans SET expires_at = now() - make_interval(secs => $2),
            created_at = now() - make_interval(secs => $2 + 600) WHERE id = $1`,
    [id, seconds],
  );

const statusOf = async (id: string) =>
  (await t.db.pool.query<{ status: string }>("SELECT status FROM app.assistant_plans WHERE id = $1", [id]))
    .rows[0]?.status ?? "purged";

describe("purge of unexecuted assistant plans", () => {
  it("when the purge job runs, then unexecuted plans a day past their expiry are deleted; recently expired, live and executed plans stay", async () => {
    expect(commandJobs["purge-assistant-plans"].cron).toBeDefined();
    const stale = await plan("turn off the LOT channel for Dnipro Travel");
    const recent = await plan("turn on the LOT channel for Dnipro Travel");
    const live = await plan("turn off the LOT channel for Dnipro Travel");
    const executed = await plan("turn off the LOT channel for Dnipro Travel");
    const ran = await admin.post("/admin_panel/execute", { plan_id: executed });
    expect([ran.status, ran.body.status]).toEqual([200, "executed"]);
    // The executed plan is the causation of the events it wrote: that link must survive the purge.
    const { rows: caused } = await t.db.pool.query(
      "SELECT 1 FROM es.events WHERE metadata->>'causation_id' = $1",
      [executed],
    );
    expect(caused.length).toBeGreaterThan(0);

    await expiredAgo(stale, KEEP_EXPIRED_PLANS_S + 60);
    await expiredAgo(recent, KEEP_EXPIRED_PLANS_S - 3600);
    await expiredAgo(executed, KEEP_EXPIRED_PLANS_S + 60);
    // Until purged, an expired plan still answers as expired.
    expect((await admin.post("/admin_panel/execute", { plan_id: stale })).status).toBe(410);

    await t.app.commandDeps.jobs.send("purge-assistant-plans", {});
    for (let i = 0; i < 200 && (await statusOf(stale)) !== "purged"; i++) await sleep(50);

    expect(await statusOf(stale)).toBe("purged");
    expect(await statusOf(recent)).toBe("ready");
    expect(await statusOf(live)).toBe("ready");
    expect(await statusOf(executed)).toBe("executed");
    // A purged plan is one nobody can find any more.
    expect((await admin.post("/admin_panel/execute", { plan_id: stale })).status).toBe(404);
    expect((await admin.post("/admin_panel/execute", { plan_id: live })).status).toBe(200);
  }, 120_000);
});
