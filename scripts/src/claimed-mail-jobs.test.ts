// A mail claimed once and queued as its job in one statement (issue 26, migration 085): what the claim costs in
// round trips to PostgreSQL (through the flow bench's counting proxy), and that the job queued is the one sendIn
// would have queued, its id on the claim's row.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { queueItineraryMail } from "@skyward/command-service/itinerary/itinerary";
import { type CommandJobs, openCommandJobs } from "@skyward/command-service/jobs/specs";
import type { ItineraryMailed } from "@skyward/contracts/itinerary";
import { createPool } from "@skyward/infra/db";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import type pg from "pg";
import { startCountingProxy } from "../bench/pg-proxy.ts";

let db: TestDatabase;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let pool: pg.Pool;
let jobs: CommandJobs;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = await startCountingProxy(db.url);
  pool = createPool(proxy.urlFor(db.url), { max: 1 });
  jobs = await openCommandJobs(pool);
  await pool.query("SELECT 1");
}, 60_000);
afterAll(async () => {
  await jobs?.close();
  await pool?.end();
  await proxy?.close();
  await db?.drop();
});

const mail = (mailId: string): ItineraryMailed => ({
  mail_id: mailId,
  locator: "CLAIM1",
  agency_id: "agency-1",
  company_id: "company-1",
  to: "traveller@example.com",
  note: null,
  language: "en",
  reason: "issued",
  by: null,
  at: new Date().toISOString(),
});

/** Round trips that `work` cost, and what it answered. */
async function counted<T>(work: () => Promise<T>): Promise<{ roundTrips: number; answer: T }> {
  const before = proxy.counts().roundTrips;
  const answer = await work();
  return { roundTrips: proxy.counts().roundTrips - before, answer };
}

describe("an itinerary mail claimed and queued", () => {
  it("when a recorded mail is queued, then one round trip claims it and queues its job, whose id the claim keeps; queued again, one round trip queues nothing", async () => {
    const deps = { pool, jobs };
    const first = await counted(() => queueItineraryMail(deps, mail("issued-CLAIM1"), "trace-claim"));
    expect(first).toEqual({ roundTrips: 1, answer: true });
    const { rows } = await db.pool.query<{
      job_id: string;
      task_identifier: string;
      payload: unknown;
      max_attempts: number;
    }>(
      `SELECT m.job_id, k.identifier AS task_identifier, j.payload, j.max_attempts
         FROM app.itinerary_mails m JOIN graphile_worker._private_jobs j ON j.id::text = m.job_id
         JOIN graphile_worker._private_tasks k ON k.id = j.task_id
        WHERE m.mail_id = 'issued-CLAIM1'`,
    );
    expect(rows).toEqual([
      {
        job_id: expect.any(String),
        task_identifier: "send-itinerary",
        payload: { trace_id: "trace-claim", data: { locator: "CLAIM1", mail_id: "issued-CLAIM1" } },
        max_attempts: expect.any(Number),
      },
    ]);

    const again = await counted(() => queueItineraryMail(deps, mail("issued-CLAIM1"), "trace-again"));
    expect(again).toEqual({ roundTrips: 1, answer: false });
    const { rows: queued } = await db.pool.query(
      `SELECT 1 FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id
        WHERE k.identifier = 'send-itinerary'`,
    );
    expect(queued).toHaveLength(1);
  });

  it("when the mail on issue is queued, then the same round trip marks its booking decided; queued again, it stays decided and queues nothing", async () => {
    const deps = { pool, jobs };
    const decided = async () =>
      (await db.pool.query("SELECT 1 FROM app.itinerary_on_issue WHERE locator = 'CLAIM2'")).rowCount;
    const onIssue = { ...mail("issued-CLAIM2"), locator: "CLAIM2" };
    expect(await decided()).toBe(0);
    const first = await counted(() => queueItineraryMail(deps, onIssue, "trace-issue", { onIssue: true }));
    expect(first).toEqual({ roundTrips: 1, answer: true });
    expect(await decided()).toBe(1);
    const again = await counted(() => queueItineraryMail(deps, onIssue, "trace-issue", { onIssue: true }));
    expect(again).toEqual({ roundTrips: 1, answer: false });
    expect(await decided()).toBe(1);
  });

  it("when two processes queue the same mail at once, then exactly one job is queued", async () => {
    const racing = createPool(db.url, { max: 4 });
    try {
      const deps = { pool: racing, jobs };
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => queueItineraryMail(deps, mail("race-CLAIM1"), `trace-${i}`)),
      );
      expect(answers.filter(Boolean)).toHaveLength(1);
      const { rows } = await db.pool.query(
        "SELECT 1 FROM graphile_worker._private_jobs WHERE payload->'data'->>'mail_id' = 'race-CLAIM1'",
      );
      expect(rows).toHaveLength(1);
    } finally {
      await racing.end();
    }
  });
});
