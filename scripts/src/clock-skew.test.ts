// Issue 29, fault 5: an app whose clock is 2 hours behind the database's. Jobs are scheduled and compared on the
// database's clock: the sweeps run at their pace (not hundreds of times a second), reconciliation still settles a
// charged booking stuck in ticketing, and the disagreement is reported in /ready.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { balanceFromEvents, holdBooking, moneyOf, topUp, until } from "./testing/bookings.ts";
import { type ChildCommandProcess, startChildCommandProcess } from "./testing/child-command-process.ts";
import { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const BEHIND_MS = 2 * 3600_000;

let t: TestApp;
let behind: ChildCommandProcess | undefined;

beforeAll(async () => {
  // A process on the right clock makes the bookings (and leaves one charged, stuck in ticketing: the airline hung).
  t = await startTestApp({ env: { SUPPLIER_TIMEOUTS: "issue=300" } });
});
afterAll(async () => {
  await behind?.stop();
  await t.app.stop();
  await t.db.drop();
});

describe("a clock that disagrees with the database's", () => {
  it("when the command process's clock is 2 h behind the database's, then /ready warns, the sweeps keep their pace, reconciliation settles a charged booking stuck in ticketing, and an assistant plan can be executed", async () => {
    const agent = t.client();
    await agent.signIn("agent@dnipro.test");
    const locator = await holdBooking(agent, ["Hang"]);
    const [held] = await t.events(`booking-${locator}`);
    const companyId = held?.data.company_id as string;
    await topUp(t.db, t.app.store, companyId, 10_000_000_00);
    const before = await balanceFromEvents(t.db, companyId);
    expect((await agent.post("/bookings/issue", { locator })).body.errors[0].code).toBe("operation_pending");
    const agreeing = await agent.get("/ready");
    expect(agreeing.body.clock.ok).toBe(true);
    expect(agreeing.body.warnings).toBeUndefined();
    // Only the process whose clock is behind runs jobs from here on.
    await t.app.stop();

    behind = await startChildCommandProcess(t.db.url, {
      TEST_SHIFT_CLOCK_MS: String(-BEHIND_MS),
      TEST_SCHEDULE_EVERY_MS: "1000",
      OPERATION_STALE_AFTER_MS: "1000",
      TEST_LOG_LEVEL: "warn",
    });
    // Said at start, in the log...
    expect(behind.log().join("\n")).toMatch(
      /"level":40,.*"msg":"this process's clock is 7\d{3}(\.\d)? s behind the database's/,
    );
    // ... and by readiness, which stays 200: jobs no longer depend on this clock.
    const ready = await new HttpClient(behind.url).get("/ready");
    expect(ready.status).toBe(200);
    expect(Math.abs(ready.body.clock.skew_ms - BEHIND_MS)).toBeLessThan(10_000);
    expect(ready.body.clock.ok).toBe(false);
    expect(ready.body.warnings).toEqual([
      expect.stringMatching(/clock is 7\d{3}(\.\d)? s behind the database's/),
    ]);

    // The sweeps queue their next run a second ahead on the database's clock, not two hours in its past. The stopped
    // app's last sweep (queued 5 s ahead, kept by its job key) runs first; the one after it is this process's own.
    const sweep = await until(
      async () => {
        const { rows } = await t.db.pool.query<{ due_in_ms: number }>(
          `SELECT extract(epoch FROM run_at - now()) * 1000 AS due_in_ms FROM graphile_worker.jobs
            WHERE key = 'booking-sweep' AND locked_at IS NULL AND run_at <= now() + interval '1 second'`,
        );
        return rows[0];
      },
      15_000,
      "a pending booking sweep of this process",
    );
    expect(Number(sweep.due_in_ms)).toBeGreaterThan(-2_000);
    expect(Number(sweep.due_in_ms)).toBeLessThanOrEqual(1_000);
    const jobsQueued = async () => {
      const { rows } = await t.db.pool.query<{ n: string }>(
        "SELECT nextval(pg_get_serial_sequence('graphile_worker._private_jobs', 'id'))::text AS n",
      );
      return Number(rows[0]?.n);
    };
    const queuedBefore = await jobsQueued();
    await sleep(3_000);
    // Two sweeps a second at most (booking and deadline), plus what they queue: not hundreds a second.
    expect((await jobsQueued()) - queuedBefore).toBeLessThan(30);

    // The reconcile job (as its cron line queues it each minute) finds the operation stale by the database's clock.
    await t.db.pool.query(
      "SELECT graphile_worker.add_job('reconcile-operations', '{}'::json, job_key => 'reconcile-operations', job_key_mode => 'preserve_run_at')",
    );
    await until(
      async () =>
        (await t.events(`booking-${locator}`)).at(-1)?.type === "TicketingFailed" ? true : undefined,
      15_000,
      "the stuck issue undone by reconciliation",
      100,
    );
    expect((await moneyOf(t.db, locator)).map((m) => m.type)).toEqual(["BalanceCharged", "BalanceCredited"]);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before);

    // An assistant plan lives its 10 minutes on the database's clock, which executing it compares with (written on
    // the app's, it had expired 1 h 50 min before it was written).
    const admin = new HttpClient(behind.url);
    await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
    const asked = await admin.post("/admin_panel/ask", {
      text: "top up Vistula Warszawa by 100 PLN reason clock test",
    });
    expect(asked.status).toBe(200);
    const { rows: plan } = await t.db.pool.query<{ lives_ms: number }>(
      "SELECT extract(epoch FROM expires_at - now())::float8 * 1000 AS lives_ms FROM app.assistant_plans WHERE id::text = $1",
      [asked.body.plan.id],
    );
    expect(plan[0]?.lives_ms).toBeGreaterThan(9 * 60_000);
    const executed = await admin.post("/admin_panel/execute", {
      plan_id: asked.body.plan.id,
      confirm_money: true,
    });
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe("executed");
  }, 90_000);
});
