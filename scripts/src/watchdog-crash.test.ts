import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { seedDemoWorld } from "@skyward/command-service/world/seed";
import { REMIND_BEFORE_MS } from "@skyward/contracts/deadline-events";
import type pg from "pg";
import { holdOneAdult, until } from "./testing/bookings.ts";
import { type ChildCommandProcess, startChildCommandProcess } from "./testing/child-command-process.ts";
import { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * The watchdog's reminder e-mail across a crash: the command process is killed (SIGKILL) after it recorded the
 * reminder and before its e-mail was queued. Another command process queues the e-mail later, exactly once.
 * Command work runs in child processes (killable); this process only projects, so it runs no job itself.
 */
describe("ticketing-deadline watchdog across a crash", () => {
  let t: TestApp;
  const children: ChildCommandProcess[] = [];
  const child = async (env: Record<string, string> = {}) => {
    const started = await startChildCommandProcess(t.db.url, env);
    children.push(started);
    return started;
  };

  beforeAll(async () => {
    t = await startTestApp({ roles: ["projectors", "query"] });
    await seedDemoWorld(t.app.store, t.db.pool);
  }, 60_000);
  afterAll(async () => {
    for (const c of children) await c.stop();
    await t?.stop();
  });

  const mailsAbout = async (locator: string) =>
    (
      await t.db.pool.query<{ subject: string; recipient: string }>(
        "SELECT subject, recipient FROM app.dev_outbox WHERE kind = 'mail' AND subject LIKE $1",
        [`%${locator}%`],
      )
    ).rows;
  const mailJobsAbout = async (locator: string) =>
    (
      await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j
           JOIN graphile_worker._private_tasks k ON k.id = j.task_id
          WHERE k.identifier = 'send-mail' AND j.payload::text LIKE $1`,
        [`%${locator}%`],
      )
    ).rows[0]?.n ?? 0;
  const queuedRow = async (locator: string) =>
    (await t.db.pool.query("SELECT job_id FROM app.reminder_mails WHERE locator = $1", [locator])).rows;

  it("when the process dies between recording a reminder and queueing its e-mail, then the next sweep queues that e-mail, and the agent gets it once", async () => {
    // A held booking, made on the real clock.
    const booker = await child();
    const agent = new HttpClient(booker.url);
    await agent.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const booked = await holdOneAdult(agent, "Crashwatch");
    const locator = booked.locator as string;
    const timeLimit = Date.parse(booked.time_limit);
    await until(
      async () =>
        (await t.db.pool.query("SELECT 1 FROM read.bookings WHERE locator = $1", [locator])).rowCount
          ? true
          : undefined,
      10_000,
      "booking projected",
    );
    await booker.stop();

    // Writes of the e-mail step wait (reads pass), so the process that records the reminder stops right between.
    const lock: pg.PoolClient = await t.db.pool.connect();
    // Held while a process starts and sweeps: longer than the pool's idle-in-transaction limit allows.
    await lock.query("SET idle_in_transaction_session_timeout = 0");
    await lock.query("BEGIN");
    await lock.query("LOCK TABLE app.reminder_mails IN SHARE MODE");
    const dueClock = {
      TEST_CLOCK_OFFSET_MS: String(timeLimit - Date.now() - REMIND_BEFORE_MS + 60_000),
      TEST_SCHEDULE_EVERY_MS: "100",
    };
    let doomed: ChildCommandProcess;
    try {
      doomed = await child(dueClock);
      await until(
        async () => ((await t.events(`deadline-${locator}`)).length > 0 ? true : undefined),
        15_000,
        "reminder recorded",
      );
      await until(
        async () => {
          const { rows } = await t.db.pool.query(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%reminder_mails%'
               AND pid <> pg_backend_pid()`,
          );
          return rows.length > 0 ? true : undefined;
        },
        10_000,
        "e-mail step waiting",
      );
      process.kill(doomed.pid, "SIGKILL");
      await doomed.stop();
    } finally {
      await lock.query("ROLLBACK");
      // Not back to the pool with the limit lifted.
      lock.release(true);
    }

    // Killed in between: the reminder stands, its e-mail was neither queued nor sent.
    expect((await t.events(`deadline-${locator}`)).map((e) => e.type)).toEqual(["TimeLimitReminderSent"]);
    expect(await queuedRow(locator)).toEqual([]);
    expect(await mailJobsAbout(locator)).toBe(0);
    expect(await mailsAbout(locator)).toEqual([]);

    // Another command process (a restart) drains it on its sweep.
    await child(dueClock);
    const [mail] = await until(
      async () => {
        const mails = await mailsAbout(locator);
        return mails.length > 0 ? mails : undefined;
      },
      15_000,
      "reminder e-mailed after the crash",
    );
    expect(mail).toMatchObject({ recipient: "agent@vistula.test" });
    expect(mail?.subject).toContain(locator);
    expect(await queuedRow(locator)).toHaveLength(1);
    // Later sweeps send nothing more, and the reminder is still recorded once.
    await sleep(1500);
    expect(await mailsAbout(locator)).toHaveLength(1);
    expect(await t.events(`deadline-${locator}`)).toHaveLength(1);
  }, 90_000);
});
