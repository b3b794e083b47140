// One transaction per feed batch across a process's projections (issue 26), against a real PostgreSQL.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@jest/globals";
import { EventStore } from "../event-store/event-store.ts";
import { systemMetadata } from "../event-store/metadata.ts";
import { Wakeup } from "../event-store/wakeup.ts";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { defineProjection, type Projection } from "./projection.ts";
import { waitForReadModels } from "./read-your-writes.ts";
import { commitGroup, ProjectionRunner, type RunnerOptions } from "./runtime.ts";
import { SharedFeed } from "./shared-feed.ts";

const metadata = systemMetadata("commit-group-test");

/**
 * Records, for every event, the transaction that applied it; an event whose data says `poison` makes the batch's
 * statement fail (a division by zero), as a projection's bug would.
 */
function xactProjection(key: string, type: string, options: { poisonable?: boolean } = {}): Projection {
  const table = `xacts_${key}`;
  return defineProjection({
    name: `xacts_${key}`,
    version: 1,
    eventTypes: [type],
    tables: [table],
    setup: (t) => `CREATE TABLE ${t[table]} (event_id uuid PRIMARY KEY, xact text NOT NULL);`,
    async apply(client, events, t) {
      await client.query(
        `INSERT INTO ${t[table]} (event_id, xact)
         SELECT id, pg_current_xact_id()::text || left((1 / (CASE WHEN poison THEN 0 ELSE 1 END))::text, 0)
           FROM unnest($1::uuid[], $2::boolean[]) AS x(id, poison)`,
        [
          events.map((e) => e.eventId),
          events.map((e) => options.poisonable === true && (e.data as { poison?: boolean }).poison === true),
        ],
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

function startRunners(projections: readonly Projection[], options: RunnerOptions): ProjectionRunner[] {
  return projections.map((projection) => {
    const runner = new ProjectionRunner(db.pool, store, projection, wakeup, {
      pollMs: 20,
      lockRetryMs: 20,
      retryMs: { min: 20, max: 50 },
      logger: { error: () => {}, info: () => {} },
      ...options,
    });
    running.push(runner);
    runner.start();
    return runner;
  });
}

async function note(type: string, count: number, data: Record<string, unknown> = {}) {
  const { position } = await store.append({
    streamId: `notes-${randomUUID()}`,
    expected: "any",
    events: Array.from({ length: count }, () => ({ event_id: randomUUID(), type, data, metadata })),
  });
  if (!position) throw new Error("nothing appended");
  return position;
}

async function xactsOf(projection: Projection): Promise<Map<string, string>> {
  const { rows } = await db.pool.query<{ event_id: string; xact: string }>(
    `SELECT event_id, xact FROM read."${projection.tables[0]}"`,
  );
  return new Map(rows.map((r) => [r.event_id, r.xact]));
}

describe("a commit group", () => {
  it("applies the batch every projector of a process read together in one transaction", async () => {
    const [a, b] = [
      xactProjection("group_a", "GroupNoted"),
      xactProjection("group_b", "GroupNoted"),
    ] as const;
    startRunners([a, b], { feed: new SharedFeed(store), commits: commitGroup(db.pool) });
    // Once both runners lead and wait at the head of the feed, they read each new batch together.
    const settled = await note("GroupNoted", 1);
    expect(await waitForReadModels(db.pool, [a.name, b.name], settled, 10_000)).toBe(true);
    // The group joins the moves ready in the same turn of the event loop: a runner still busy with its bookkeeping
    // when a batch comes (a loaded machine) reads it a turn late, alone. So most rounds, not every one, must share.
    const rounds: string[][] = [];
    for (let round = 0; round < 5; round++) {
      const before = new Set((await xactsOf(a)).keys());
      const position = await note("GroupNoted", 3);
      expect(await waitForReadModels(db.pool, [a.name, b.name], position, 10_000)).toBe(true);
      const [xa, xb] = [await xactsOf(a), await xactsOf(b)];
      rounds.push([...xa].filter(([id]) => !before.has(id)).map(([id, xact]) => `${xact === xb.get(id)}`));
    }
    // Every round's three events were applied by both projections.
    expect(rounds.map((r) => r.length)).toEqual([3, 3, 3, 3, 3]);
    // Each event was applied by both projections in one and the same transaction, in most rounds.
    const joint = rounds.filter((r) => r.every((same) => same === "true")).length;
    expect(joint).toBeGreaterThanOrEqual(3);
  });

  it("without a group each projection commits its own transaction (the figure the group saves)", async () => {
    const [a, b] = [
      xactProjection("alone_a", "AloneNoted"),
      xactProjection("alone_b", "AloneNoted"),
    ] as const;
    startRunners([a, b], { feed: new SharedFeed(store) });
    const position = await note("AloneNoted", 3);
    expect(await waitForReadModels(db.pool, [a.name, b.name], position, 10_000)).toBe(true);
    const [xa, xb] = [await xactsOf(a), await xactsOf(b)];
    for (const [eventId, xact] of xa) expect(xb.get(eventId)).not.toBe(xact);
  });

  it("keeps one projection's failing batch from holding the others back", async () => {
    const healthy = xactProjection("healthy", "PoisonNoted");
    const failing = xactProjection("failing", "PoisonNoted", { poisonable: true });
    const [, failingRunner] = startRunners([healthy, failing], {
      feed: new SharedFeed(store),
      commits: commitGroup(db.pool),
    });
    const failures: string[] = [];
    failingRunner?.on("failed", (name) => failures.push(name));
    const position = await note("PoisonNoted", 2, { poison: true });
    // The healthy projection moves on past the poisoned events; the failing one retries and reports it.
    expect(await waitForReadModels(db.pool, [healthy.name], position, 10_000)).toBe(true);
    expect((await xactsOf(healthy)).size).toBe(2);
    const deadline = Date.now() + 10_000;
    while (failures.length === 0 && Date.now() < deadline) await sleep(10);
    expect(failures[0]).toBe(failing.name);
    expect((await xactsOf(failing)).size).toBe(0);
    expect(await waitForReadModels(db.pool, [failing.name], position, 200)).toBe(false);
  });
});
