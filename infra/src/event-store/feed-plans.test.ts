// The feed's statements stay on the feed's index under a generic plan (issue 26). The pool runs every statement with
// parameters prepared (db.ts), and after five runs PostgreSQL may keep a generic plan, costed without the parameters'
// values: a row comparison `(transaction_id, global_position) > ($1, $2)` is then guessed to keep a third of the log.
// An EXISTS over it was planned as a sequential scan that stops at the first row, cheap by that guess, but a scan of
// the whole log at the head of the feed, where nothing follows: 35 ms at 100,000 events, on every projector's
// look at the head. Here every statement runs with generic plans forced, over a log large enough that a scan shows.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { FeedPosition } from "@skyward/contracts/position";
import type pg from "pg";
import { createPool } from "../db.ts";
import { projectorLag } from "../telemetry/metrics.ts";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { EventStore } from "./event-store.ts";
import { systemMetadata } from "./metadata.ts";

const EVENTS = 20_000;
/**
 * Events per stream: 2,000 streams, so that a scan of es.streams costs more than a lookup by key whatever statistics
 * autovacuum has gathered. With 200 streams in a few pages, a whole CI run once found the group's lookups planned as
 * scans (6 of 6), which on a store of real size they are not.
 */
const PER_STREAM = 10;
const STREAMS_PER_APPEND = 10;
let db: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
let head: FeedPosition;

beforeAll(async () => {
  db = await createTestDatabase();
  const metadata = systemMetadata("feed-plans-test");
  const seeding = new EventStore(db.pool);
  for (let i = 0; i < EVENTS / PER_STREAM / STREAMS_PER_APPEND; i++)
    await seeding.append(
      Array.from({ length: STREAMS_PER_APPEND }, (_, k) => ({
        streamId: `booking-plan${i * STREAMS_PER_APPEND + k}`,
        expected: "no_stream" as const,
        events: Array.from({ length: PER_STREAM }, (_, n) => ({
          event_id: randomUUID(),
          type: "BookingHeld",
          data: { n, note: "a booking held, with a body of some size ".repeat(4) },
          metadata,
        })),
      })),
    );
  // es.streams analyzed too, as autovacuum may have done by the time the group's test runs (see PER_STREAM).
  await db.pool.query("ANALYZE es.events, es.streams");
  // One session, every statement planned generically from its first run.
  const url = new URL(db.url);
  url.searchParams.set("options", "-c plan_cache_mode=force_generic_plan");
  pool = createPool(url.toString(), { max: 1 });
  store = new EventStore(pool);
  // The head is the last event once no older transaction is in progress anywhere in the cluster: another test file's
  // open transaction holds the snapshot's xmin back and with it the head (xids are the cluster's, not a database's).
  const { rows } = await pool.query<{ tx: string; gp: string }>(
    `SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  const last = rows[0];
  if (!last) throw new Error("the seeded log has no events");
  const settled = Date.now() + 60_000;
  for (;;) {
    const reached = await store.headPosition();
    if (reached && reached.tx === BigInt(last.tx) && reached.gp === BigInt(last.gp)) {
      head = reached;
      break;
    }
    if (Date.now() > settled) throw new Error("a transaction held the feed's head back for a minute");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 180_000);

afterAll(async () => {
  await pool?.end();
  await db.drop();
});

/** Sequential scans of `table` (es.events: the log) the statements `work` sends on the test's one session. */
async function scansOfTheLog(work: () => Promise<unknown>, table = "es.events"): Promise<number> {
  const scans = async () => {
    // Flushed when the session next goes idle, so the count read by the statement after it includes them.
    await pool.query("SELECT pg_stat_force_next_flush()");
    const { rows } = await pool.query<{ n: string }>(
      "SELECT seq_scan::text AS n FROM pg_stat_user_tables WHERE relid = $1::regclass",
      [table],
    );
    return Number(rows[0]?.n);
  };
  const before = await scans();
  await work();
  return (await scans()) - before;
}

describe("the feed's statements under generic plans", () => {
  it("when the session plans generically, then it does (a scan of the log is counted where one is made)", async () => {
    const mode = await pool.query<{ mode: string }>("SELECT current_setting('plan_cache_mode') AS mode");
    expect(mode.rows[0]?.mode).toBe("force_generic_plan");
    // The counter sees a scan: without it, every check below could not fail.
    expect(
      await scansOfTheLog(() => pool.query("SELECT count(*) FROM es.events WHERE data ? $1", ["n"])),
    ).toBe(1);
  });

  it("when a projector looks at the head of the feed, then no statement scans the log", async () => {
    const scans = await scansOfTheLog(async () => {
      for (let i = 0; i < 3; i++) {
        expect(await store.hasPendingAfter(head)).toBe(false);
        expect(await store.readFeedPage(head, 1000)).toEqual({ events: [], pending: false });
        expect(await store.readFeed(head, 1000, ["BookingHeld"])).toEqual([]);
        expect(await store.headPosition()).toEqual(head);
      }
    });
    expect(scans).toBe(0);
  });

  it("when a projector is behind, then the feed reads from the index and says what lies ahead", async () => {
    const start = { tx: 0n, gp: 0n };
    const scans = await scansOfTheLog(async () => {
      expect(await store.hasPendingAfter(start)).toBe(true);
      expect((await store.readFeedPage(start, 500)).events).toHaveLength(500);
      expect(await store.readFeed(start, 500, ["BookingHeld"])).toHaveLength(500);
    });
    expect(scans).toBe(0);
  });

  it("when the log has no statistics (a new or restored database before autovacuum analyzes it), then a look at the head scans nothing", async () => {
    await pool.query("SELECT pg_clear_relation_stats('es', 'events')");
    await pool.query(
      `SELECT pg_clear_attribute_stats('es', 'events', attname, false) FROM pg_attribute
        WHERE attrelid = 'es.events'::regclass AND attnum > 0 AND NOT attisdropped`,
    );
    try {
      const { rows } = await pool.query<{ stats: string }>(
        "SELECT count(*)::text AS stats FROM pg_stats WHERE schemaname = 'es' AND tablename = 'events'",
      );
      expect(rows[0]?.stats).toBe("0");
      const scans = await scansOfTheLog(async () => {
        for (let i = 0; i < 3; i++) {
          expect(await store.readFeedPage(head, 1000)).toEqual({ events: [], pending: false });
          expect(await store.hasPendingAfter(head)).toBe(false);
        }
      });
      expect(scans).toBe(0);
    } finally {
      await pool.query("ANALYZE es.events");
    }
  });

  it("when the metrics ask how far a projector is behind, then the count runs along the index", async () => {
    const scans = await scansOfTheLog(async () => {
      expect(await projectorLag(pool, head)).toEqual({ events: 0, seconds: 0 });
      const behind = await projectorLag(pool, { tx: 0n, gp: 0n });
      expect(behind.events).toBe(EVENTS);
      expect(behind.seconds).toBeGreaterThanOrEqual(0);
    });
    expect(scans).toBe(0);
  });
});

describe("a group's appends under generic plans", () => {
  it("when the commands of a group check streams they do not write, then each check looks its stream up and nothing scans the streams", async () => {
    const grouped = new EventStore(pool, undefined, 5000, { groupCommit: true });
    const metadata = systemMetadata("feed-plans-test");
    const scans = await scansOfTheLog(async () => {
      for (let round = 0; round < 3; round++) {
        // Two commands in one group (APPEND_ALL: each checks a stream it does not write), each on a new stream.
        const results = await Promise.all(
          [1, 2].map((n) =>
            grouped.append([
              {
                streamId: `booking-check${round}x${n}-${randomUUID()}`,
                expected: "no_stream",
                events: [{ type: "BookingHeld", data: { n }, metadata }],
              },
              { streamId: `booking-plan${n}`, expected: PER_STREAM, events: [] },
            ]),
          ),
        );
        for (const [i, result] of results.entries())
          expect(result.versions[`booking-plan${i + 1}`]).toBe(PER_STREAM);
      }
    }, "es.streams");
    expect(scans).toBe(0);
  });
});
