// The projection runtime (DESIGN.md section 4) against a real PostgreSQL.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import { comparePositions, type FeedPosition } from "@skyward/contracts/position";
import type pg from "pg";
import { EventStore } from "../event-store/event-store.ts";
import { systemMetadata } from "../event-store/metadata.ts";
import type { NewEvent, StoredEvent } from "../event-store/types.ts";
import { Wakeup } from "../event-store/wakeup.ts";
import { createLogger } from "../logger.ts";
import { createTestDatabase, holdingPool, type TestDatabase } from "../testing.ts";
import { defineProjection, type Projection, tablesOf } from "./projection.ts";
import { waitForReadModels } from "./read-your-writes.ts";
import { ProjectionRunner, type RunnerOptions, readModelsPosition, rebuildProjection } from "./runtime.ts";

const metadata = systemMetadata("runtime-test");
const newEvents = (count: number, type = "Counted"): NewEvent[] =>
  Array.from({ length: count }, (_, i) => ({ event_id: randomUUID(), type, data: { n: i + 1 }, metadata }));

/**
 * Counts events per stream and lists every event applied, each with one set-based statement per batch.
 * The list has no ON CONFLICT clause: an event applied twice fails the batch instead of going unnoticed.
 */
function countingProjection(key: string, version = 1): Projection {
  const counts = `counts_${key}`;
  const applied = `applied_${key}`;
  return defineProjection({
    name: `counting_${key}`,
    version,
    eventTypes: ["Counted"],
    tables: [counts, applied],
    setup: (t) => `
      CREATE TABLE ${t[counts]} (stream_id text PRIMARY KEY, events int NOT NULL, last_position int NOT NULL);
      CREATE TABLE ${t[applied]} (event_id uuid PRIMARY KEY, stream_id text NOT NULL, global_position bigint NOT NULL);`,
    async apply(client, events, t) {
      await client.query(
        `INSERT INTO ${t[applied]} (event_id, stream_id, global_position)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[])`,
        [
          events.map((e) => e.eventId),
          events.map((e) => e.streamId),
          events.map((e) => `${e.globalPosition}`),
        ],
      );
      await client.query(
        `INSERT INTO ${t[counts]} AS c (stream_id, events, last_position)
         SELECT stream_id, count(*), max(stream_position) FROM unnest($1::text[], $2::int[]) AS x(stream_id, stream_position)
          GROUP BY stream_id
         ON CONFLICT (stream_id) DO UPDATE
           SET events = c.events + EXCLUDED.events, last_position = greatest(c.last_position, EXCLUDED.last_position)`,
        [events.map((e) => e.streamId), events.map((e) => e.streamPosition)],
      );
    },
  });
}

let db: TestDatabase;
let wakeup: Wakeup;
let store: EventStore;
const running: ProjectionRunner[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  wakeup = new Wakeup();
  store = new EventStore(db.pool, wakeup);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});
afterAll(() => db.drop());

function startRunner(
  projection: Projection,
  options: RunnerOptions = {},
  runnerStore: EventStore = store,
): ProjectionRunner {
  const runner = new ProjectionRunner(db.pool, runnerStore, projection, wakeup, {
    pollMs: 20,
    lockRetryMs: 20,
    ...options,
  });
  running.push(runner);
  runner.start();
  return runner;
}

async function append(streamId: string, events: NewEvent[]): Promise<FeedPosition> {
  const { position } = await store.append({ streamId, expected: "any", events });
  if (!position) throw new Error("nothing was appended");
  return position;
}

async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}

async function caughtUp(projection: Projection, position: FeedPosition): Promise<void> {
  expect(await waitForReadModels(db.pool, [projection.name], position, 10_000)).toBe(true);
}

/** A read model's rows as served (through its view), in a stable order. */
async function served(projection: Projection): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const table of projection.tables)
    tables[table] = (await db.pool.query(`SELECT * FROM read."${table}" ORDER BY 1`)).rows;
  return tables;
}

async function countsOf(projection: Projection, streamId: string) {
  const { rows } = await db.pool.query(
    `SELECT events, last_position FROM read."${projection.tables[0]}" WHERE stream_id = $1`,
    [streamId],
  );
  return rows[0];
}

async function tableExists(name: string): Promise<boolean> {
  const { rows } = await db.pool.query<{ found: string | null }>("SELECT to_regclass($1)::text AS found", [
    name,
  ]);
  return rows[0]?.found !== null;
}

async function advisoryLockHolders(): Promise<number[]> {
  const { rows } = await db.pool.query<{ pid: number }>(
    `SELECT pid FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return rows.map((r) => r.pid);
}

describe("applying batches", () => {
  it("when events arrive, then they are applied in batches, each committed together with its checkpoint without waiting for the WAL flush", async () => {
    const projection = countingProjection("batches");
    const streamId = `tally-${randomUUID()}`;
    const otherStream = `other-${randomUUID()}`;
    const batches: {
      handled: number;
      checkpointInside: string;
      checkpointOutside: string;
      synchronousCommit?: string;
    }[] = [];
    const readCheckpoint = async (q: Pick<pg.Pool, "query">) =>
      (
        await q.query<{ gp: string }>(
          "SELECT last_gp::text AS gp FROM read.checkpoints WHERE projection = $1",
          [projection.name],
        )
      ).rows[0]?.gp ?? "none";
    const runner = startRunner(projection, {
      batchSize: 3,
      async beforeCommit(events, client) {
        batches.push({
          handled: events.length,
          checkpointInside: await readCheckpoint(client),
          checkpointOutside: await readCheckpoint(db.pool),
          synchronousCommit: (await client.query<{ synchronous_commit: string }>("SHOW synchronous_commit"))
            .rows[0]?.synchronous_commit,
        });
      },
    });
    const advanced: FeedPosition[] = [];
    runner.on("advanced", (_, checkpoint) => advanced.push(checkpoint));

    for (const event of newEvents(10)) await append(streamId, [event]);
    const last = await append(otherStream, newEvents(2, "Ignored"));
    await caughtUp(projection, last);

    expect(await countsOf(projection, streamId)).toEqual({ events: 10, last_position: 10 });
    expect(await countsOf(projection, otherStream)).toBeUndefined();
    // The checkpoint moved past the events the projection ignores, too.
    expect(await readModelsPosition(db.pool, [projection.name])).toEqual(last);
    expect(advanced.at(-1)).toEqual(last);
    for (let i = 1; i < advanced.length; i++)
      expect(comparePositions(advanced[i] as FeedPosition, advanced[i - 1] as FeedPosition)).toBe(1);
    expect(batches.length).toBeGreaterThanOrEqual(4);
    for (const batch of batches) {
      expect(batch.handled).toBeLessThanOrEqual(3);
      // Inside the batch's transaction the checkpoint has already moved; outside, not until it commits.
      expect(BigInt(batch.checkpointInside)).toBeGreaterThan(BigInt(batch.checkpointOutside));
      // Read models are rebuilt from the durable feed, so their commits need not wait for the WAL flush.
      expect(batch.synchronousCommit).toBe("off");
    }
  });

  it("when another instance advanced the checkpoint after this one read its batch, then this batch is discarded and no event is applied twice", async () => {
    const projection = countingProjection("contended");
    const streamId = `tally-${randomUUID()}`;
    let runner: ProjectionRunner | undefined;
    let competitorApplied = 0;

    /** Lets a competing instance apply and commit the very batch the runner has just read. */
    class CompetedStore extends EventStore {
      compete = true;
      override async readFeed(
        after: FeedPosition,
        limit: number,
        types?: readonly string[],
      ): Promise<StoredEvent[]> {
        const batch = await super.readFeed(after, limit, types);
        const last = batch.at(-1);
        if (this.compete && last && runner && batch.some((e) => e.streamId === streamId)) {
          this.compete = false;
          const client = await db.pool.connect();
          try {
            await client.query("BEGIN");
            const handled = batch.filter((e) => e.type === "Counted");
            await projection.apply(client, handled, tablesOf(projection, runner.generation));
            const cas = await client.query(
              `UPDATE read.checkpoints SET last_tx = $3::xid8, last_gp = $4
                WHERE projection = $1 AND generation = $2 AND last_tx = $5::xid8 AND last_gp = $6`,
              [
                projection.name,
                runner.generation,
                `${last.transactionId}`,
                `${last.globalPosition}`,
                `${after.tx}`,
                `${after.gp}`,
              ],
            );
            expect(cas.rowCount).toBe(1);
            await client.query("COMMIT");
            competitorApplied = handled.length;
          } finally {
            client.release();
          }
        }
        return batch;
      }
    }

    const competed = new CompetedStore(db.pool, wakeup);
    runner = startRunner(projection, { batchSize: 4 }, competed);
    let last: FeedPosition | undefined;
    for (let i = 0; i < 3; i++) last = await append(streamId, newEvents(3));
    await caughtUp(projection, last as FeedPosition);

    expect(competitorApplied).toBeGreaterThan(0);
    expect(runner.failure).toBeNull();
    expect(await countsOf(projection, streamId)).toEqual({ events: 9, last_position: 9 });
    const { rows } = await db.pool.query(
      `SELECT count(*)::int AS n FROM read."${projection.tables[1]}" WHERE stream_id = $1`,
      [streamId],
    );
    expect(rows[0]).toEqual({ n: 9 });
  });
});

describe("one running instance per projection", () => {
  it("when two runners start for one projection, then only one leads; when it stops, the other takes over and carries on", async () => {
    const projection = countingProjection("single");
    const streamId = `tally-${randomUUID()}`;
    const first = startRunner(projection);
    await eventually(() => first.isLeader, "the first runner leads");
    const second = startRunner(projection);
    const advancedBy = { first: 0, second: 0 };
    first.on("advanced", () => advancedBy.first++);
    second.on("advanced", () => advancedBy.second++);

    for (let i = 0; i < 5; i++) await caughtUp(projection, await append(streamId, newEvents(2)));

    expect(first.isLeader).toBe(true);
    expect(second.isLeader).toBe(false);
    expect(advancedBy).toEqual({ first: expect.any(Number), second: 0 });
    expect(await advisoryLockHolders()).toHaveLength(1);

    await first.stop();
    await eventually(() => second.isLeader, "the second runner takes over");
    await caughtUp(projection, await append(streamId, newEvents(3)));
    // The runner tells of its progress just after the commit the read above saw (a whole run's loaded machine read
    // the checkpoint before it got there).
    await eventually(() => advancedBy.second > 0, "the second runner tells of its progress");
    expect(await countsOf(projection, streamId)).toEqual({ events: 13, last_position: 13 });
    expect([first.failure, second.failure]).toEqual([null, null]);
  });

  it("when a runner is stopped while it reads the feed at its head, then it stops at once, not after its poll", async () => {
    const projection = countingProjection("stopread");
    const first = startRunner(projection);
    await caughtUp(projection, await append(`tally-${randomUUID()}`, newEvents(1)));
    await first.stop();
    // Another instance, at the head already: its first read of the feed (through a pool whose statements can be
    // held) is in flight when it is stopped.
    const holding = holdingPool(db.pool);
    const read = holding.hold();
    const runner = startRunner(projection, { pollMs: 60_000 }, new EventStore(holding.pool, wakeup));
    await read.sent;
    const stopping = runner.stop();
    read.release();
    const outcome = await Promise.race([
      stopping.then(() => "stopped"),
      sleep(5_000).then(() => "still running"),
    ]);
    expect(outcome).toBe("stopped");
  });

  it("when the leader's lock connection is lost, then it steps down without crashing and one instance leads on", async () => {
    const projection = countingProjection("lost_lock");
    const streamId = `tally-${randomUUID()}`;
    const first = startRunner(projection);
    await eventually(() => first.isLeader, "the first runner leads");
    const second = startRunner(projection);
    await caughtUp(projection, await append(streamId, newEvents(2)));
    const [holder] = await advisoryLockHolders();

    await db.pool.query("SELECT pg_terminate_backend($1)", [holder]);
    await eventually(async () => {
      const holders = await advisoryLockHolders();
      return (
        holders.length === 1 &&
        holders[0] !== holder &&
        [first, second].filter((r) => r.isLeader).length === 1
      );
    }, "one runner leads again on a new connection");
    await caughtUp(projection, await append(streamId, newEvents(3)));

    expect(await countsOf(projection, streamId)).toEqual({ events: 5, last_position: 5 });
    expect([first.failure, second.failure]).toEqual([null, null]);
  });
});

describe("crash and restart", () => {
  it.each([
    {
      crash: "throws before commit",
      inject: async () => {
        throw new Error("injected crash");
      },
    },
    {
      crash: "loses its connection before commit",
      inject: async (client: pg.PoolClient) => {
        await client.query("SELECT pg_terminate_backend(pg_backend_pid())");
      },
    },
  ])(
    "when a projector $crash in its third batch, then after a restart its read models equal a full rebuild",
    async ({ crash, inject }) => {
      const projection = countingProjection(crash.includes("throws") ? "crash_throw" : "crash_connection");
      const streams = [`tally-${randomUUID()}`, `tally-${randomUUID()}`];
      for (let i = 0; i < 8; i++) await append(streams[i % 2] as string, newEvents(1 + (i % 3)));
      let batch = 0;
      const crashing = startRunner(projection, {
        batchSize: 4,
        async beforeCommit(_, client) {
          if (++batch === 3) await inject(client);
        },
        // It would retry by itself (see below): here it stays down, as a crashed process would.
        retryMs: { min: 60_000, max: 60_000 },
        logger: createLogger("silent"),
      });
      const advanced: FeedPosition[] = [];
      crashing.on("advanced", (_, checkpoint) => advanced.push(checkpoint));

      await eventually(() => crashing.failure !== null, "the projector crashed");
      expect(crashing.isLeader).toBe(false);
      expect(advanced).toHaveLength(2);
      const checkpoint = await readModelsPosition(db.pool, [projection.name]);
      expect(checkpoint).toEqual(advanced[1]);
      // Nothing of the crashed batch is left: every applied event lies at or before the checkpoint.
      const { rows } = await db.pool.query<{ newest: string }>(
        `SELECT coalesce(max(global_position), 0)::text AS newest FROM read."${projection.tables[1]}"`,
      );
      expect(BigInt(rows[0]?.newest ?? "0")).toBeLessThanOrEqual((checkpoint as FeedPosition).gp);

      const last = await append(streams[0] as string, newEvents(2));
      const restarted = startRunner(projection, { batchSize: 4 });
      await caughtUp(projection, last);
      await restarted.stop();
      const afterRestart = await served(projection);

      await rebuildProjection(db.pool, store, projection);
      expect(await served(projection)).toEqual(afterRestart);
      expect(afterRestart[projection.tables[1] as string]?.length).toBeGreaterThanOrEqual(17);
    },
  );
});

describe("failures", () => {
  it("when a projector's batch fails, then it reports the failure, retries by itself and catches up", async () => {
    const projection = countingProjection("retry");
    const stream = `tally-${randomUUID()}`;
    for (let i = 0; i < 6; i++) await append(stream, newEvents(2));
    let batch = 0;
    const failed: number[] = [];
    const runner = startRunner(projection, {
      batchSize: 4,
      async beforeCommit() {
        if (++batch === 2) throw new Error("injected failure");
      },
      retryMs: { min: 10, max: 10 },
      logger: createLogger("silent"),
    });
    runner.on("failed", (_, __, attempt) => failed.push(attempt));
    const last = await append(stream, newEvents(1));
    await caughtUp(projection, last);
    expect(failed).toEqual([1]);
    expect(runner.failure).toBeNull();
    expect(runner.status()).toEqual({ projection: projection.name, leader: true, failing: null });
    expect(await countsOf(projection, stream)).toEqual({ events: 13, last_position: 13 });
  });
});

describe("stalls", () => {
  it("when a leading projector's batch hangs, then its status reports it stuck until the batch goes through", async () => {
    const projection = countingProjection("stall");
    let release: () => void = () => {};
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runner = startRunner(projection, { stallMs: 100, beforeCommit: () => hanging });
    const last = await append(`tally-${randomUUID()}`, newEvents(1));
    await eventually(() => runner.status().failing !== null, "the stall is reported");
    expect(runner.status()).toMatchObject({
      leader: true,
      failing: { error: expect.stringMatching(/^no progress/) },
    });
    release();
    await caughtUp(projection, last);
    await eventually(() => runner.status().failing === null, "the stall is over");
  });
});

describe("rebuild", () => {
  it("when a projection is rebuilt, then a new generation is built side by side, the views switch to it and the old tables are dropped", async () => {
    const projection = countingProjection("rebuilt");
    const [counts, applied] = projection.tables as [string, string];
    const streamId = `tally-${randomUUID()}`;
    const live = startRunner(projection);
    await caughtUp(projection, await append(streamId, newEvents(6)));
    expect(live.generation).toBe(1);
    const before = await served(projection);
    const duringRebuild: { servedGeneration: number; served: Record<string, unknown[]> }[] = [];

    const { generation } = await rebuildProjection(db.pool, store, projection, {
      batchSize: 5,
      async beforeCommit() {
        if (duringRebuild.length > 0) return;
        const { rows } = await db.pool.query<{ generation: number }>(
          "SELECT generation FROM read.projections WHERE name = $1",
          [projection.name],
        );
        duringRebuild.push({ servedGeneration: rows[0]?.generation ?? 0, served: await served(projection) });
      },
    });

    expect(generation).toBe(2);
    // While the new generation was being built, the old one kept answering.
    expect(duringRebuild).toEqual([{ servedGeneration: 1, served: before }]);
    expect(await served(projection)).toEqual(before);
    const { rows: views } = await db.pool.query<{ viewname: string; definition: string }>(
      "SELECT viewname, definition FROM pg_views WHERE schemaname = 'read' AND viewname = ANY($1) ORDER BY viewname",
      [[counts, applied]],
    );
    expect(views.map((v) => [v.viewname, v.definition.includes(`${v.viewname}_g2`)])).toEqual([
      [applied, true],
      [counts, true],
    ]);
    expect(await tableExists(`read.${counts}_g1`)).toBe(false);
    expect(await tableExists(`read.${applied}_g1`)).toBe(false);
    const { rows: checkpoints } = await db.pool.query<{ generation: number }>(
      "SELECT generation FROM read.checkpoints WHERE projection = $1",
      [projection.name],
    );
    expect(checkpoints).toEqual([{ generation: 2 }]);

    // The live runner carries on with the new generation.
    await caughtUp(projection, await append(streamId, newEvents(2)));
    expect(live.generation).toBe(2);
    expect(await countsOf(projection, streamId)).toEqual({ events: 8, last_position: 8 });
    expect(live.failure).toBeNull();
  });

  it("when a projection's code version changes, then the next start rebuilds it into a new generation", async () => {
    const streamId = `tally-${randomUUID()}`;
    const v1 = countingProjection("versioned", 1);
    const first = startRunner(v1);
    await caughtUp(v1, await append(streamId, newEvents(4)));
    await first.stop();
    const built = await served(v1);

    const v2 = countingProjection("versioned", 2);
    const second = startRunner(v2);
    await eventually(() => second.generation === 2, "the new version has its own generation");
    await caughtUp(v2, await append(streamId, newEvents(1)));

    const { rows } = await db.pool.query(
      "SELECT generation, code_version FROM read.projections WHERE name = $1",
      [v2.name],
    );
    expect(rows).toEqual([{ generation: 2, code_version: 2 }]);
    expect(await countsOf(v2, streamId)).toEqual({ events: 5, last_position: 5 });
    expect((await served(v2))[v2.tables[1] as string]?.length).toBe(
      (built[v1.tables[1] as string]?.length ?? 0) + 1,
    );
  });
});

describe("read-your-writes", () => {
  it("when the projection has passed a command's position, then waitForReadModels answers true and the row is there", async () => {
    const projection = countingProjection("fresh");
    startRunner(projection);
    const streamId = `tally-${randomUUID()}`;
    for (let i = 1; i <= 3; i++) {
      const position = await append(streamId, newEvents(1));
      expect(await waitForReadModels(db.pool, [projection.name], position)).toBe(true);
      expect(await countsOf(projection, streamId)).toEqual({ events: i, last_position: i });
    }
  });

  it("when no runner keeps the projection up to date, then waitForReadModels answers false after its timeout", async () => {
    const projection = countingProjection("stale");
    const runner = startRunner(projection);
    await caughtUp(projection, await append(`tally-${randomUUID()}`, newEvents(1)));
    await runner.stop();

    const position = await append(`tally-${randomUUID()}`, newEvents(1));

    expect(await waitForReadModels(db.pool, [projection.name], position, 100)).toBe(false);
  });

  it("when one of the read models waited for has never been built, then waitForReadModels answers false", async () => {
    const projection = countingProjection("partly_built");
    startRunner(projection);
    const position = await append(`tally-${randomUUID()}`, newEvents(1));
    await caughtUp(projection, position);

    expect(await waitForReadModels(db.pool, [projection.name, "never_built"], position, 50)).toBe(false);
    expect(await readModelsPosition(db.pool, [projection.name, "never_built"])).toBeNull();
  });
});
