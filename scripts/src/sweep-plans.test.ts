// What the booking and deadline sweeps read each time they run (every few seconds, forever): the rows of their
// window, never every row ever written (issue 26). Each sweep's statement is caught as it is sent and run again under
// EXPLAIN ANALYZE, with sequential scans off so that only a statement no index can serve reads a table through,
// over read models seeded with thousands of rows older than the window: it must read a few pages, not all of them.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { drainItineraryMails } from "@skyward/command-service/itinerary/itinerary";
import { drainReminderMails } from "@skyward/command-service/watchdog/watchdog";
import { countingPool } from "@skyward/infra/testing";
import pg from "pg";
import { explainedNodes, nodesOf } from "./testing/plans.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const OLD = 5000;
let t: TestApp;

beforeAll(async () => {
  // No jobs: only this test sweeps.
  t = await startTestApp({ roles: ["command", "query", "projectors"] });
  await t.db.pool.query(
    `INSERT INTO read.itinerary_mails (mail_id, locator, agency_id, company_id, recipient, language, reason, at)
     SELECT 'seed-mail-' || n, 'SEED' || n, 'seed-agency', 'seed-company', 'traveller@example.test', 'en', 'issued',
            now() - interval '3 days' - n * interval '1 minute'
       FROM generate_series(1, $1::int) n`,
    [OLD],
  );
  // Reminded bookings whose time limit has passed, and cancellations older than a day: none of them for a drain.
  await t.db.pool.query(
    `INSERT INTO read.time_limit_notices (locator, agency_id, company_id, agent_id, fake_booking, time_limit,
       reminded_at, auto_cancel_at, auto_cancelled_at)
     SELECT 'SEED' || n, 'seed-agency', 'seed-company', 'seed-agent', false, now() - n * interval '1 hour',
            now() - n * interval '1 hour' - interval '2 hours', NULL,
            CASE WHEN n % 2 = 0 THEN now() - interval '2 days' - n * interval '1 hour' END
       FROM generate_series(1, $1::int) n`,
    [OLD],
  );
  const { rows: tables } = await t.db.pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'read'
        AND (tablename LIKE 'itinerary\\_mails\\_g%' OR tablename LIKE 'time\\_limit\\_notices\\_g%')`,
  );
  for (const { name } of tables) await t.db.pool.query(`ANALYZE read.${pg.escapeIdentifier(name)}`);
}, 240_000);
afterAll(() => t?.stop());

/**
 * The pages of `table` (its generations, their indexes) the statement reads, with sequential scans off. Pages, not
 * rows: PostgreSQL 18 can read through an index on (locator, at) for a range of `at`, finding no row but reading
 * every entry.
 */
async function pagesRead(text: string, values: unknown[], table: string): Promise<number> {
  const nodes = await explainedNodes(t.db.pool, text, values, { seqscanOff: true });
  return nodesOf(nodes, table).reduce(
    (pages, n) => pages + Number(n["Shared Hit Blocks"] ?? 0) + Number(n["Shared Read Blocks"] ?? 0),
    0,
  );
}

describe("the sweeps' reads", () => {
  it("when the itinerary drain looks for the last day's mails never queued, then it reads none of the older mails", async () => {
    const { pool, texts } = countingPool(t.app.pool);
    expect(await drainItineraryMails({ ...t.app.commandDeps, pool }, "trace-drain")).toBe(0);
    expect(texts).toHaveLength(1);
    expect(await pagesRead(texts[0] as string, [new Date()], "itinerary_mails")).toBeLessThan(10);
  });

  it("when the deadline drain looks for reminders and cancellations never mailed, then it reads none of the notices past", async () => {
    const { pool, texts } = countingPool(t.app.pool);
    expect(await drainReminderMails({ ...t.app.commandDeps, pool }, "trace-drain")).toBe(0);
    expect(texts).toHaveLength(1);
    expect(await pagesRead(texts[0] as string, [new Date()], "time_limit_notices")).toBeLessThan(10);
  });
});
