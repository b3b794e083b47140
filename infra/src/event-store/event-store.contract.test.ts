// The event store's contract (DESIGN.md section 3), against a real PostgreSQL.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { comparePositions, type FeedPosition, START_POSITION } from "@skyward/contracts/position";
import type pg from "pg";
import { createPool } from "../db.ts";
import { defineProjection } from "../projections/projection.ts";
import { waitForReadModels } from "../projections/read-your-writes.ts";
import { ProjectionRunner, readModelsPosition } from "../projections/runtime.ts";
import { countingPool, createTestDatabase, type TestDatabase } from "../testing.ts";
import { runCommand } from "./command.ts";
import {
  PartialReappendError,
  RestoredDatabaseError,
  StreamOrderConflictError,
  WrongExpectedVersionError,
} from "./errors.ts";
import { EventStore } from "./event-store.ts";
import { systemMetadata } from "./metadata.ts";
import type { AppendResult, ExpectedVersion, NewEvent, StoredEvent } from "./types.ts";
import { Wakeup } from "./wakeup.ts";

const metadata = systemMetadata("contract-test");
const newEvent = (type = "Noted", data: Record<string, unknown> = {}, eventId = randomUUID()): NewEvent => ({
  event_id: eventId,
  type,
  data,
  metadata,
});
const newEvents = (count: number, type = "Noted") =>
  Array.from({ length: count }, (_, i) => newEvent(type, { n: i + 1 }));
const newStream = (prefix = "test") => `${prefix}-${randomUUID()}`;
const idsOf = (events: readonly (NewEvent | StoredEvent)[]): string[] =>
  events.map((e) => ("eventId" in e ? e.eventId : (e.event_id ?? "")));
const positionOf = (e: StoredEvent): FeedPosition => ({ tx: e.transactionId, gp: e.globalPosition });
const randomInt = (below: number) => Math.floor(Math.random() * below);

let db: TestDatabase;
let store: EventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

/** The event store inside one connection's open transaction; the caller commits or rolls back. */
const storeOn = (client: pg.PoolClient) => new EventStore(client as unknown as pg.Pool);

/** A transaction that took its transaction id now, as a writer that did earlier work in it would have. */
async function beginOlderTransaction(): Promise<pg.PoolClient> {
  const client = await db.pool.connect();
  await client.query("BEGIN");
  await client.query("SELECT pg_current_xact_id()");
  return client;
}

async function finish(client: pg.PoolClient, outcome: "COMMIT" | "ROLLBACK"): Promise<void> {
  try {
    await client.query(outcome);
  } finally {
    client.release();
  }
}

async function streamRow(streamId: string): Promise<{ version: number; last_tx: string } | undefined> {
  const { rows } = await db.pool.query<{ version: number; last_tx: string }>(
    "SELECT version, last_tx::text FROM es.streams WHERE stream_id = $1",
    [streamId],
  );
  return rows[0];
}

/** Appends one event to a new stream: the global position it gets shows whether positions were skipped. */
async function probeGlobalPosition(): Promise<bigint> {
  const result = await store.append({
    streamId: newStream("probe"),
    expected: "no_stream",
    events: [newEvent()],
  });
  if (!result.position) throw new Error("the probe append wrote nothing");
  return result.position.gp;
}

/** Every event a subscriber can read now after `after`, read in pages as a subscriber does. */
async function drainFeed(after: FeedPosition = START_POSITION, pageSize = 100): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  let from = after;
  for (;;) {
    const page = await store.readFeed(from, pageSize);
    all.push(...page);
    const last = page.at(-1);
    if (!last || page.length < pageSize) return all;
    from = positionOf(last);
  }
}

/**
 * Reads the feed until `expectedIds` have all arrived (the feed's horizon is cluster-wide, so another test
 * file's open transaction may hold it back for a moment), then returns everything read.
 */
async function feedUntil(after: FeedPosition, expectedIds: readonly string[]): Promise<StoredEvent[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const events = await drainFeed(after);
    const seen = new Set(idsOf(events));
    if (expectedIds.every((id) => seen.has(id))) return events;
    if (Date.now() > deadline) throw new Error("the feed never delivered the expected events");
    await sleep(10);
  }
}

/** The ids among `events` that belong to `ids`, in feed order (other tests' events are left out). */
const only = (events: readonly StoredEvent[], ids: readonly (string | undefined)[]) =>
  idsOf(events).filter((id) => ids.includes(id));

async function headOrStart(): Promise<FeedPosition> {
  return (await store.headPosition()) ?? START_POSITION;
}

function expectConflict(
  error: unknown,
  streamId: string,
  expected: ExpectedVersion,
  actual: number,
): asserts error is WrongExpectedVersionError {
  expect(error).toBeInstanceOf(WrongExpectedVersionError);
  const conflict = error as WrongExpectedVersionError;
  expect({ streamId: conflict.streamId, expected: conflict.expected, actual: conflict.actual }).toEqual({
    streamId,
    expected,
    actual,
  });
  expect(conflict.message).toContain(streamId);
  expect(conflict.message).toContain(`expected ${expected}`);
  expect(conflict.message).toContain(`actual ${actual}`);
}

async function appendError(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("the append succeeded but should have been refused");
    },
    (error: unknown) => error,
  );
}

describe("expected version", () => {
  // An existing stream holds two events (version 2); a missing one has version 0.
  const matrix: {
    expected: ExpectedVersion;
    state: "missing" | "existing";
    after?: number;
    actual?: number;
  }[] = [
    { expected: "any", state: "missing", after: 1 },
    { expected: "any", state: "existing", after: 3 },
    { expected: "no_stream", state: "missing", after: 1 },
    { expected: "no_stream", state: "existing", actual: 2 },
    { expected: "stream_exists", state: "missing", actual: 0 },
    { expected: "stream_exists", state: "existing", after: 3 },
    { expected: 0, state: "missing", after: 1 },
    { expected: 0, state: "existing", actual: 2 },
    { expected: 2, state: "missing", actual: 0 },
    { expected: 2, state: "existing", after: 3 },
    { expected: 1, state: "missing", actual: 0 },
    { expected: 1, state: "existing", actual: 2 },
    { expected: 3, state: "existing", actual: 2 },
  ];

  it.each(matrix.filter((c) => c.after !== undefined))(
    "when appending with expected $expected to a $state stream, then it is written at version $after",
    async ({ expected, state, after }) => {
      const streamId = newStream();
      if (state === "existing") await store.append({ streamId, expected: "no_stream", events: newEvents(2) });
      const event = newEvent("Checked");
      const result = await store.append({ streamId, expected, events: [event] });
      expect(result.versions).toEqual({ [streamId]: after });
      const stream = await store.readStream(streamId);
      expect(stream.at(-1)).toMatchObject({
        eventId: event.event_id,
        streamPosition: after,
        type: "Checked",
      });
    },
  );

  it.each(matrix.filter((c) => c.actual !== undefined))(
    "when appending with expected $expected to a $state stream, then a conflict names the stream, expected $expected and actual $actual, and nothing is written",
    async ({ expected, state, actual }) => {
      const streamId = newStream();
      if (state === "existing") await store.append({ streamId, expected: "no_stream", events: newEvents(2) });
      const rowBefore = await streamRow(streamId);

      const error = await appendError(store.append({ streamId, expected, events: [newEvent("Refused")] }));

      expectConflict(error, streamId, expected, actual ?? -1);
      expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(
        state === "existing" ? ["Noted", "Noted"] : [],
      );
      expect(await streamRow(streamId)).toEqual(rowBefore);
    },
  );

  it.each([-1, 1.5, Number.NaN])(
    "when the expected version is %p, then the append is refused as invalid",
    async (expected) => {
      const streamId = newStream();
      await expect(store.append({ streamId, expected, events: [newEvent()] })).rejects.toThrow(
        /invalid expected version/,
      );
      expect(await streamRow(streamId)).toBeUndefined();
    },
  );
});

describe("concurrent appends", () => {
  it("when 50 appends race with the same expected version, then exactly one wins and the 49 others get a conflict", async () => {
    const racers = createPool(db.url, { max: 50 });
    try {
      // Open every connection first, so the appends really run side by side.
      await Promise.all(Array.from({ length: 50 }, () => racers.query("SELECT 1")));
      const raceStore = new EventStore(racers);
      const streamId = newStream("race");
      await store.append({ streamId, expected: "no_stream", events: [newEvent()] });
      const contenders = newEvents(50, "Raced");

      const outcomes = await Promise.allSettled(
        contenders.map((event) => raceStore.append({ streamId, expected: 1, events: [event] })),
      );

      const won = outcomes.flatMap((o, i) => (o.status === "fulfilled" ? [{ result: o.value, i }] : []));
      const lost = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(49);
      for (const error of lost) expectConflict(error, streamId, 1, 2);
      const winner = won[0] as { result: AppendResult; i: number };
      expect(winner.result.versions).toEqual({ [streamId]: 2 });
      expect(idsOf(await store.readStream(streamId, { fromPosition: 2 }))).toEqual([
        contenders[winner.i]?.event_id,
      ]);
      // The 49 refused appends took no global position.
      expect(await probeGlobalPosition()).toBe((winner.result.position?.gp ?? 0n) + 1n);
    } finally {
      await racers.end();
    }
  });
});

describe("global positions", () => {
  it("when appends are refused for a version conflict or a partial re-append, then they take no global position and the next append follows without a gap", async () => {
    const existing = newStream();
    const kept = newEvents(2);
    const first = await store.append({ streamId: existing, expected: "no_stream", events: kept });
    const firstGp = first.position?.gp ?? 0n;

    const refusals = [
      store.append({ streamId: existing, expected: 1, events: newEvents(3) }),
      store.append({ streamId: existing, expected: "no_stream", events: newEvents(1) }),
      store.append({ streamId: newStream(), expected: "stream_exists", events: newEvents(1) }),
      store.append([
        { streamId: newStream(), expected: "no_stream", events: newEvents(5) },
        { streamId: existing, expected: 7, events: newEvents(1) },
      ]),
      store.append({
        streamId: existing,
        expected: "any",
        events: [{ ...newEvent(), event_id: kept[0]?.event_id }, newEvent()],
      }),
    ];
    for (const refusal of refusals) await expect(refusal).rejects.toBeInstanceOf(Error);

    expect(await probeGlobalPosition()).toBe(firstGp + 1n);
  });

  it("when one append writes several events, then their global positions are consecutive and the result carries the last", async () => {
    const streamId = newStream();
    const result = await store.append({ streamId, expected: "no_stream", events: newEvents(4) });
    const stored = await store.readStream(streamId);
    const gps = stored.map((e) => e.globalPosition);
    expect(gps).toEqual([0n, 1n, 2n, 3n].map((k) => (gps[0] ?? 0n) + k));
    expect(new Set(stored.map((e) => e.transactionId)).size).toBe(1);
    expect(result.position).toEqual(positionOf(stored.at(-1) as StoredEvent));
  });
});

describe("stream positions", () => {
  it("when a stream is appended in several appends, then its positions run from 1 without a hole and each append reports the new version", async () => {
    const streamId = newStream();
    const versions: number[] = [];
    for (const [expected, count] of [
      ["no_stream", 3],
      [3, 2],
      ["stream_exists", 1],
      ["any", 2],
    ] as const) {
      versions.push(
        (await store.append({ streamId, expected, events: newEvents(count) })).versions[streamId] ?? 0,
      );
    }
    expect(versions).toEqual([3, 5, 6, 8]);
    expect((await store.readStream(streamId)).map((e) => e.streamPosition)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await streamRow(streamId))?.version).toBe(8);
  });

  it("when an append has no events, then it writes nothing, not even the stream row, yet still checks the expected version", async () => {
    const missing = newStream();
    const before = await probeGlobalPosition();

    expect(await store.append({ streamId: missing, expected: "no_stream", events: [] })).toEqual({
      versions: { [missing]: 0 },
      position: null,
    });
    expect(await streamRow(missing)).toBeUndefined();
    expect(await store.readStream(missing)).toEqual([]);
    expectConflict(
      await appendError(store.append({ streamId: missing, expected: "stream_exists", events: [] })),
      missing,
      "stream_exists",
      0,
    );

    const existing = newStream();
    await store.append({ streamId: existing, expected: "no_stream", events: [newEvent()] });
    const row = await streamRow(existing);
    expect(await store.append({ streamId: existing, expected: 1, events: [] })).toEqual({
      versions: { [existing]: 1 },
      position: null,
    });
    expect(await streamRow(existing)).toEqual(row);
    expectConflict(
      await appendError(store.append({ streamId: existing, expected: 5, events: [] })),
      existing,
      5,
      1,
    );

    // Only the existing stream's one event was written since the first probe.
    expect(await probeGlobalPosition()).toBe(before + 2n);
  });
});

describe("appending to several streams at once", () => {
  it("when two streams are appended together, then both are written in one transaction and each gets its version", async () => {
    const booking = newStream("booking");
    const balance = newStream("balance");
    await store.append({ streamId: balance, expected: "no_stream", events: [newEvent("BalanceToppedUp")] });

    const result = await store.append([
      { streamId: booking, expected: "no_stream", events: newEvents(2, "TicketsIssued") },
      { streamId: balance, expected: 1, events: [newEvent("BalanceCharged")] },
    ]);

    expect(result.versions).toEqual({ [booking]: 2, [balance]: 2 });
    const written = [
      ...(await store.readStream(booking)),
      ...(await store.readStream(balance, { fromPosition: 2 })),
    ];
    expect(new Set(written.map((e) => e.transactionId)).size).toBe(1);
    const last = written.reduce((a, b) => (a.globalPosition > b.globalPosition ? a : b));
    expect(result.position).toEqual(positionOf(last));
  });

  it("when one append names the same stream twice, then it is refused before anything is written", async () => {
    const streamId = newStream();
    await expect(
      store.append([
        { streamId, expected: "no_stream", events: newEvents(1) },
        { streamId, expected: "any", events: newEvents(1) },
      ]),
    ).rejects.toThrow(/appears twice/);
    expect(await streamRow(streamId)).toBeUndefined();
  });

  // Streams are locked in stream id order, so the conflict is met on the first or on the second stream.
  it.each([
    { conflicting: "the first stream in lock order", conflictOn: "a" },
    { conflicting: "the second stream in lock order", conflictOn: "b" },
  ])("when $conflicting conflicts, then nothing is written to either stream", async ({ conflictOn }) => {
    const a = newStream("a");
    const b = newStream("b");
    await store.append({ streamId: a, expected: "no_stream", events: [newEvent()] });
    const rowA = await streamRow(a);

    const error = await appendError(
      store.append([
        { streamId: b, expected: conflictOn === "b" ? "stream_exists" : "no_stream", events: newEvents(3) },
        { streamId: a, expected: conflictOn === "a" ? 7 : 1, events: newEvents(2) },
      ]),
    );

    if (conflictOn === "a") expectConflict(error, a, 7, 1);
    else expectConflict(error, b, "stream_exists", 0);
    expect(await store.readStream(b)).toEqual([]);
    expect(await streamRow(b)).toBeUndefined();
    expect((await store.readStream(a)).map((e) => e.streamPosition)).toEqual([1]);
    expect(await streamRow(a)).toEqual(rowA);
  });
});

/** A supplier hold's record (app.supplier_holds), as a booking records one before its append. */
async function recordHold(): Promise<string> {
  const attemptId = randomUUID();
  await db.pool.query(
    `INSERT INTO app.supplier_holds (attempt_id, company_id, channel_id, supplier_booking)
     VALUES ($1, 'company-1', 'channel-1', '{"supplier_locator": "X"}')`,
    [attemptId],
  );
  return attemptId;
}

describe("an append releasing a supplier hold", () => {
  const holdKept = async (attemptId: string) =>
    ((await db.pool.query("SELECT 1 FROM app.supplier_holds WHERE attempt_id = $1", [attemptId])).rowCount ??
      0) > 0;

  it("when the append commits, then the hold's record is gone with it; another hold stays", async () => {
    const released = await recordHold();
    const other = await recordHold();
    const stream = newStream();
    await store.append(
      { streamId: stream, expected: "no_stream", events: [newEvent()] },
      { releasingHold: released },
    );
    expect(await holdKept(released)).toBe(false);
    expect(await holdKept(other)).toBe(true);
    expect(await store.readStream(stream)).toHaveLength(1);
  });

  it("when the append is refused (a wrong expected version), then the hold's record stays", async () => {
    const attemptId = await recordHold();
    const stream = newStream();
    await store.append({ streamId: stream, expected: "no_stream", events: [newEvent()] });
    await expect(
      store.append(
        { streamId: stream, expected: "no_stream", events: [newEvent()] },
        { releasingHold: attemptId },
      ),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await holdKept(attemptId)).toBe(true);
  });

  it("when PostgreSQL breaks a deadlock by failing the append, then it is sent again and commits, releasing the hold once", async () => {
    const attemptId = await recordHold();
    const stream = newStream();
    await store.append({ streamId: stream, expected: "no_stream", events: [newEvent()] });
    // Another transaction holds the hold's record; the append locks the stream and waits for that record (its hold is
    // deleted once es.append has run); the other then wants the stream. The append waited first, so PostgreSQL fails
    // it (after its 1 s deadlock_timeout; the other waits 10 s before it would look).
    const other = await db.pool.connect();
    try {
      await other.query("BEGIN");
      await other.query("SET LOCAL deadlock_timeout = '10s'");
      await other.query("SELECT 1 FROM app.supplier_holds WHERE attempt_id = $1 FOR UPDATE", [attemptId]);
      const otherPid = (await other.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
      const appended = store.append(
        { streamId: stream, expected: 1, events: [newEvent()] },
        { releasingHold: attemptId },
      );
      let waiting = false;
      for (let i = 0; i < 300 && !waiting; i++) {
        const { rows } = await db.pool.query<{ waiting: boolean }>(
          // pg_locks is the whole server's: the suites running beside this one wait on locks of their own databases.
          `SELECT count(*) > 0 AS waiting FROM pg_locks l JOIN pg_stat_activity a USING (pid)
            WHERE NOT l.granted AND a.datname = current_database() AND l.pid <> pg_backend_pid() AND l.pid <> $1`,
          [otherPid],
        );
        waiting = rows[0]?.waiting === true;
        if (!waiting) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(waiting).toBe(true);
      // Granted once the append's statement is failed; its second try then waits for this transaction.
      await other.query("SELECT version FROM es.streams WHERE stream_id = $1 FOR UPDATE", [stream]);
      await other.query("COMMIT");
      expect((await appended).versions[stream]).toBe(2);
    } finally {
      // Ends a transaction a failed assertion left open; after COMMIT it is only a warning.
      await other.query("ROLLBACK");
      other.release();
    }
    expect(await holdKept(attemptId)).toBe(false);
    expect((await store.readStream(stream)).map((e) => e.streamPosition)).toEqual([1, 2]);
  });

  it("when runCommand's first append conflicts, then the retry that commits releases the hold", async () => {
    const attemptId = await recordHold();
    const stream = newStream();
    await store.append({ streamId: stream, expected: "no_stream", events: [newEvent()] });
    let attempts = 0;
    await runCommand(store, async (cmd) => {
      // The first attempt decides on a stale version (as a racing writer would leave it), the retry on the real one.
      const { version } = await cmd.load(stream, (n: number) => n + 1, 0);
      attempts++;
      const expected = attempts === 1 ? version - 1 : version;
      return {
        appends: [
          { streamId: stream, expected: expected === 0 ? "no_stream" : expected, events: [newEvent()] },
        ],
        result: null,
        releasingHold: attemptId,
      };
    });
    expect(attempts).toBe(2);
    expect(await holdKept(attemptId)).toBe(false);
  });
});

describe("group commit", () => {
  /** A store with group commit whose pool counts the statements it is sent. */
  function groupStore(): { store: EventStore; statements: () => number; texts: string[] } {
    const { pool: counting, statements, texts } = countingPool(db.pool);
    return {
      store: new EventStore(counting, undefined, 5000, { groupCommit: true }),
      statements,
      texts,
    };
  }

  it("when 20 commands append at once, then they share fewer statements than commands, and each gets its own versions and position", async () => {
    const { store: grouped, statements } = groupStore();
    const streams = Array.from({ length: 20 }, () => newStream());
    const results = await Promise.all(
      streams.map((streamId, i) =>
        grouped.append({ streamId, expected: "no_stream", events: newEvents(1 + (i % 3)) }),
      ),
    );
    expect(statements()).toBeLessThan(20);
    for (const [i, streamId] of streams.entries()) {
      const stored = await store.readStream(streamId);
      expect(stored).toHaveLength(1 + (i % 3));
      expect(results[i]?.versions).toEqual({ [streamId]: 1 + (i % 3) });
      const last = stored.at(-1) as StoredEvent;
      expect(results[i]?.position).toEqual(positionOf(last));
    }
  });

  it("when 16 commands append in the same turn of the event loop, then they go as two groups of eight, none alone, and so again when their answers make them append again", async () => {
    const { store: grouped, statements, texts } = groupStore();
    const streams = Array.from({ length: 16 }, () => newStream());
    const before = statements();
    await Promise.all(
      streams.map((streamId) =>
        grouped
          .append({ streamId, expected: "no_stream", events: [newEvent()] })
          .then(() => grouped.append({ streamId, expected: 1, events: [newEvent()] })),
      ),
    );
    // Each wave: two statements of eight commands (all passing: APPEND_ALL), where the first commands used to go one
    // by one.
    expect(statements() - before).toBe(4);
    expect(texts.slice(before).every((text) => text.includes("es.append_refused()"))).toBe(true);
    for (const streamId of streams) expect(await store.readStream(streamId)).toHaveLength(2);
  });

  it("when the commands of a group write every stream they name and release no hold, then they go as the lean statement: a command may write several streams, each answer is its own, and the events stand in command order", async () => {
    const { store: grouped, statements, texts } = groupStore();
    const older = newStream();
    await store.append({ streamId: older, expected: "no_stream", events: newEvents(2) });
    const [a1, a2, b1, c1] = [newStream(), newStream(), newStream(), newStream()];
    const before = statements();
    const answers = await Promise.all([
      grouped.append([
        { streamId: a1, expected: "no_stream", events: newEvents(2) },
        { streamId: a2, expected: "no_stream", events: [newEvent()] },
      ]),
      grouped.append({ streamId: b1, expected: "no_stream", events: newEvents(3) }),
      grouped.append([
        { streamId: c1, expected: "no_stream", events: [newEvent()] },
        { streamId: older, expected: 2, events: [newEvent()] },
      ]),
    ]);
    expect(statements() - before).toBe(1);
    expect(texts.at(-1)).toContain("FROM unnest($1::text[]");
    expect(answers.map((a) => a.versions)).toEqual([
      { [a1]: 2, [a2]: 1 },
      { [b1]: 3 },
      { [c1]: 1, [older]: 3 },
    ]);
    const stored = await Promise.all([a1, a2, b1, c1, older].map((s) => store.readStream(s)));
    const [ofA1, ofA2, ofB1, ofC1, ofOlder] = stored as StoredEvent[][];
    expect(ofOlder?.map((e) => e.streamPosition)).toEqual([1, 2, 3]);
    // Each answer's position is the last event of its command; the commands' events follow each other in order.
    const lastOf = (events: StoredEvent[]) => events.at(-1) as StoredEvent;
    expect(answers[0]?.position).toEqual(
      positionOf(
        lastOf(
          [...(ofA1 ?? []), ...(ofA2 ?? [])].sort((x, y) => (x.globalPosition < y.globalPosition ? -1 : 1)),
        ),
      ),
    );
    expect(answers[1]?.position).toEqual(positionOf(lastOf(ofB1 ?? [])));
    const order = [ofA1, ofA2, ofB1, ofC1, ofOlder?.slice(2)].map((events) =>
      (events ?? []).map((e) => e.globalPosition),
    );
    const [firstA, firstB, firstC] = [order[0]?.[0] ?? 0n, order[2]?.[0] ?? 0n, order[3]?.[0] ?? 0n];
    expect(firstA < firstB && firstB < firstC).toBe(true);
    expect(new Set(order.flat()).size).toBe(8);
  });

  it("when a command of a group is refused, then the group's one statement keeps nothing and takes no global position, and each command is answered on its own", async () => {
    const { store: grouped, statements, texts } = groupStore();
    const taken = newStream();
    await store.append({ streamId: taken, expected: "no_stream", events: [newEvent()] });
    const [first, second] = [newStream(), newStream()];
    const probed = await probeGlobalPosition();
    const before = statements();
    const outcomes = await Promise.allSettled([
      grouped.append({ streamId: first, expected: "no_stream", events: [newEvent()] }),
      grouped.append({ streamId: taken, expected: "no_stream", events: [newEvent()] }),
      grouped.append({ streamId: second, expected: "no_stream", events: newEvents(2) }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedVersionError);
    // The group went as one statement that failed, then command by command in es.append_group.
    expect(texts.slice(before).map((text) => text.includes("es.append_refused()"))).toEqual([true, false]);
    expect(texts.at(-1)).toContain("es.append_group(");
    expect(statements() - before).toBe(2);
    expect(await store.readStream(taken)).toHaveLength(1);
    const [one, two] = [await store.readStream(first), await store.readStream(second)];
    expect(one).toHaveLength(1);
    expect(two).toHaveLength(2);
    // The three events took the three positions after the last append before the group's.
    const positions = [...one, ...two].map((e) => e.globalPosition).sort((a, b) => (a < b ? -1 : 1));
    expect(positions).toEqual([probed + 1n, probed + 2n, probed + 3n]);
  });

  it("when commands of a group check streams they do not write (no events), then the group goes as one statement, each answer names the versions checked, and a check that fails refuses its command alone", async () => {
    const { store: grouped, statements, texts } = groupStore();
    const [channel, agency] = [newStream("channel"), newStream("agency")];
    await store.append([
      { streamId: channel, expected: "no_stream", events: newEvents(2) },
      { streamId: agency, expected: "no_stream", events: [newEvent()] },
    ]);
    const mine = [newStream(), newStream(), newStream()];
    const checks = (channelVersion: number) => [
      { streamId: channel, expected: channelVersion, events: [] },
      { streamId: agency, expected: 1, events: [] },
    ];
    let before = statements();
    const answers = await Promise.all(
      mine.map((streamId) =>
        grouped.append([{ streamId, expected: "no_stream", events: [newEvent()] }, ...checks(2)]),
      ),
    );
    expect(statements() - before).toBe(1);
    expect(texts.at(-1)).toContain("es.append_refused()");
    for (const [i, streamId] of mine.entries()) {
      expect(answers[i]?.versions).toEqual({ [streamId]: 1, [channel]: 2, [agency]: 1 });
      expect(answers[i]?.position).toEqual(positionOf((await store.readStream(streamId))[0] as StoredEvent));
    }
    // Checked, not written: the channel's events and version are as they were.
    expect(await store.readStream(channel)).toHaveLength(2);
    expect(Number((await streamRow(channel))?.version)).toBe(2);

    // One command checks a version the channel is not at: it alone is refused, and the others commit.
    const more = [newStream(), newStream()];
    before = statements();
    const outcomes = await Promise.allSettled([
      grouped.append([
        { streamId: more[0] as string, expected: "no_stream", events: [newEvent()] },
        ...checks(2),
      ]),
      grouped.append([{ streamId: newStream(), expected: "no_stream", events: [newEvent()] }, ...checks(1)]),
      grouped.append([
        { streamId: more[1] as string, expected: "no_stream", events: [newEvent()] },
        ...checks(2),
      ]),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedVersionError);
    expect(statements() - before).toBe(2);
    for (const streamId of more) expect(await store.readStream(streamId)).toHaveLength(1);

    // A stream one command writes and another checks: the group goes command by command (es.append_group).
    before = statements();
    const [written, checking] = await Promise.allSettled([
      grouped.append({ streamId: channel, expected: 2, events: [newEvent()] }),
      grouped.append([{ streamId: newStream(), expected: "no_stream", events: [newEvent()] }, ...checks(2)]),
    ]);
    expect(written?.status).toBe("fulfilled");
    expect(checking?.status).toBe("rejected");
    expect(texts.slice(before).map((text) => text.includes("es.append_group("))).toEqual([true]);
  });

  it("when a command of a group repeats an append already stored, then it answers as the original did, and the group's others commit with their own versions and position", async () => {
    const { store: grouped } = groupStore();
    const streamId = newStream();
    const events = newEvents(2);
    const original = await store.append({ streamId, expected: "no_stream", events });
    await store.append({ streamId, expected: 2, events: [newEvent()] });
    const [a, b] = [newStream("booking"), newStream("balance")];
    const [again, both] = await Promise.all([
      // "any": the stream moves in the group's statement, whose insert then meets the events' stored ids.
      grouped.append({ streamId, expected: "any", events }),
      grouped.append([
        { streamId: a, expected: "no_stream", events: [newEvent()] },
        { streamId: b, expected: "no_stream", events: newEvents(2) },
      ]),
    ]);
    expect(again).toEqual(original);
    expect(await store.readStream(streamId)).toHaveLength(3);
    expect(both.versions).toEqual({ [a]: 1, [b]: 2 });
    const last = [...(await store.readStream(a)), ...(await store.readStream(b))].reduce((x, y) =>
      x.globalPosition > y.globalPosition ? x : y,
    );
    expect(both.position).toEqual(positionOf(last));
  });

  it("when commands of one group race on one stream with the same expected version, then exactly one wins, the others get a conflict, and the rest of the group commits", async () => {
    const { store: grouped } = groupStore();
    const contested = newStream();
    await store.append({ streamId: contested, expected: "no_stream", events: [newEvent()] });
    const bystanders = Array.from({ length: 5 }, () => newStream());
    const racing = Array.from({ length: 10 }, () =>
      grouped.append({ streamId: contested, expected: 1, events: [newEvent()] }),
    );
    const others = bystanders.map((streamId) =>
      grouped.append({ streamId, expected: "no_stream", events: [newEvent()] }),
    );
    const outcomes = await Promise.allSettled(racing);
    const won = outcomes.filter((o) => o.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const o of outcomes)
      if (o.status === "rejected") expect(o.reason).toBeInstanceOf(WrongExpectedVersionError);
    await Promise.all(others);
    expect(await store.readStream(contested)).toHaveLength(2);
    for (const streamId of bystanders) expect(await store.readStream(streamId)).toHaveLength(1);
  });

  it("when a grouped command releases a supplier hold, then only a command that commits forgets its hold", async () => {
    const { store: grouped } = groupStore();
    const taken = newStream();
    await store.append({ streamId: taken, expected: "no_stream", events: [newEvent()] });
    const [kept, released] = [await recordHold(), await recordHold()];
    const outcomes = await Promise.allSettled([
      grouped.append({ streamId: newStream(), expected: "no_stream", events: [newEvent()] }),
      grouped.append(
        { streamId: taken, expected: "no_stream", events: [newEvent()] },
        { releasingHold: kept },
      ),
      grouped.append(
        { streamId: newStream(), expected: "no_stream", events: [newEvent()] },
        { releasingHold: released },
      ),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const { rows } = await db.pool.query<{ attempt_id: string }>(
      "SELECT attempt_id FROM app.supplier_holds WHERE attempt_id = ANY($1)",
      [[kept, released]],
    );
    expect(rows.map((r) => r.attempt_id)).toEqual([kept]);
  });

  it("when every command of a group is refused in the one statement (their streams moved on), then no hold is forgotten and nothing is written", async () => {
    const { store: grouped } = groupStore();
    const [first, second] = [newStream(), newStream()];
    for (const streamId of [first, second])
      await store.append({ streamId, expected: "no_stream", events: [newEvent()] });
    const holds = [await recordHold(), await recordHold()];
    // Both expect a version their streams have left, and one checks a stream that moved on too.
    const checked = newStream();
    await store.append({ streamId: checked, expected: "no_stream", events: [newEvent()] });
    const outcomes = await Promise.allSettled([
      grouped.append(
        { streamId: first, expected: "no_stream", events: [newEvent()] },
        { releasingHold: holds[0] },
      ),
      grouped.append(
        [
          { streamId: second, expected: "no_stream", events: [newEvent()] },
          { streamId: checked, expected: "no_stream", events: [] },
        ],
        { releasingHold: holds[1] },
      ),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    for (const o of outcomes)
      if (o.status === "rejected") expect(o.reason).toBeInstanceOf(WrongExpectedVersionError);
    const { rows } = await db.pool.query<{ attempt_id: string }>(
      "SELECT attempt_id FROM app.supplier_holds WHERE attempt_id = ANY($1) ORDER BY attempt_id",
      [holds],
    );
    expect(rows.map((r) => r.attempt_id)).toEqual([...holds].sort());
    for (const streamId of [first, second, checked]) expect(await store.readStream(streamId)).toHaveLength(1);
  });

  it("when groups and lone appends lock the same streams named in opposite orders, then PostgreSQL detects no deadlock, none is lost, and every stream's positions run without a gap", async () => {
    const { store: grouped, texts } = groupStore();
    const shared = Array.from({ length: 16 }, () => newStream());
    const deadlocks = async () =>
      Number(
        (
          await db.pool.query<{ deadlocks: string }>(
            "SELECT deadlocks::text FROM pg_stat_database WHERE datname = current_database()",
          )
        ).rows[0]?.deadlocks,
      );
    const before = await deadlocks();
    /** A command appending one event to each stream named; runCommand sends it again when refused as out of order. */
    const append = async (through: EventStore, streams: readonly string[]): Promise<AppendResult> =>
      (
        await runCommand(through, async () => ({
          appends: streams.map((streamId) => ({ streamId, expected: "any" as const, events: [newEvent()] })),
          result: null,
        }))
      ).append;
    let written = 0;
    for (let wave = 0; wave < 20; wave++) {
      // Sixteen grouped commands, each naming stream k and stream k + 8: two groups of eight, each naming all sixteen
      // streams once (one statement each), one naming them low then high, the other high then low; beside them, lone
      // appends naming two streams in the order the groups do not.
      const results = await Promise.all([
        ...Array.from({ length: 16 }, (_, k) => {
          const [low, high] = [shared[k % 8] as string, shared[(k % 8) + 8] as string];
          return append(grouped, k < 8 ? [low, high] : [high, low]);
        }),
        ...Array.from({ length: 4 }, (_, k) =>
          append(
            store,
            wave % 2
              ? [shared[k] as string, shared[15 - k] as string]
              : [shared[15 - k] as string, shared[k] as string],
          ),
        ),
      ]);
      written += results.reduce((n, r) => n + Object.keys(r.versions).length, 0);
    }
    // The groups went as one statement each (APPEND_ALL) at least some of the time.
    expect(texts.filter((text) => text.includes("es.append_refused()")).length).toBeGreaterThan(0);
    expect(await deadlocks()).toBe(before);
    let stored = 0;
    for (const streamId of shared) {
      const events = await store.readStream(streamId);
      expect(events.map((e) => e.streamPosition)).toEqual(events.map((_, i) => i + 1));
      expect(Number((await streamRow(streamId))?.version)).toBe(events.length);
      stored += events.length;
    }
    expect(stored).toBe(written);
  });

  it("when 12 writers append through group commit while a subscriber tails the feed, then every event is delivered once and each stream in order", async () => {
    const { store: grouped } = groupStore();
    const start = (await store.headPosition()) ?? START_POSITION;
    const streams = Array.from({ length: 12 }, () => newStream());
    await Promise.all(
      streams.map(async (streamId) => {
        for (let n = 0; n < 10; n++)
          await grouped.append({ streamId, expected: n === 0 ? "no_stream" : n, events: [newEvent()] });
      }),
    );
    const delivered: StoredEvent[] = [];
    // The feed delivers what lies below the whole server's oldest running transaction (other test files' included):
    // an empty page while committed events wait behind one is read again, as a subscriber does.
    const deadline = Date.now() + 10_000;
    for (let after = start; ; ) {
      const page = await store.readFeed(after, 500);
      if (page.length === 0) {
        if (!(await store.hasPendingAfter(after)) || Date.now() > deadline) break;
        await sleep(20);
        continue;
      }
      delivered.push(...page);
      after = positionOf(page.at(-1) as StoredEvent);
    }
    for (const streamId of streams) {
      const mine = delivered.filter((e) => e.streamId === streamId);
      expect(mine.map((e) => e.streamPosition)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    }
    expect(new Set(delivered.map((e) => e.eventId)).size).toBe(delivered.length);
  });
});

describe("idempotent re-append", () => {
  it("when an append is retried with the same event ids, then nothing is written and the retry answers as the original did", async () => {
    const streamId = newStream();
    const events = newEvents(2);
    const original = await store.append({ streamId, expected: "no_stream", events });

    expect(await store.append({ streamId, expected: "no_stream", events })).toEqual(original);
    await store.append({ streamId, expected: 2, events: [newEvent()] });
    // Still the original's answer, although the stream has moved on since.
    expect(await store.append({ streamId, expected: "no_stream", events })).toEqual(original);

    expect((await store.readStream(streamId)).map((e) => e.streamPosition)).toEqual([1, 2, 3]);
    const third = await store.readStream(streamId, { fromPosition: 3 });
    expect(await probeGlobalPosition()).toBe((third[0]?.globalPosition ?? 0n) + 1n);
  });

  it("when a multi-stream append is retried, then the retry answers with the original versions and position", async () => {
    const appends = [
      { streamId: newStream("booking"), expected: "no_stream" as const, events: newEvents(2) },
      { streamId: newStream("balance"), expected: "no_stream" as const, events: newEvents(1) },
    ];
    const original = await store.append(appends);
    expect(await store.append(appends)).toEqual(original);
  });

  it("when retries race the original append, then the events are written once and every call gets the original's answer", async () => {
    const streamId = newStream();
    const events = newEvents(3);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => store.append({ streamId, expected: "no_stream", events })),
    );
    for (const result of results) expect(result).toEqual(results[0]);
    expect(results[0]?.versions).toEqual({ [streamId]: 3 });
    expect(idsOf(await store.readStream(streamId))).toEqual(idsOf(events));
  });

  it("when an append repeats some but not all stored event ids, then it is refused as a partial re-append and writes nothing", async () => {
    const streamId = newStream();
    const [first, second] = newEvents(2) as [NewEvent, NewEvent];
    await store.append({ streamId, expected: "no_stream", events: [first, second] });
    const third = newEvent();

    const error = await appendError(store.append({ streamId, expected: "any", events: [second, third] }));

    expect(error).toBeInstanceOf(PartialReappendError);
    expect((error as PartialReappendError).streamId).toBe(streamId);
    expect(idsOf(await store.readStream(streamId))).toEqual([first.event_id, second.event_id]);
  });

  it("when an append reuses event ids stored in another stream, then it is refused and writes nothing", async () => {
    const events = newEvents(2);
    await store.append({ streamId: newStream(), expected: "no_stream", events });
    const other = newStream();

    await expect(store.append({ streamId: other, expected: "any", events })).rejects.toBeInstanceOf(
      PartialReappendError,
    );
    expect(await streamRow(other)).toBeUndefined();
  });
});

describe("reading a stream", () => {
  it("when a stream is read from a position, then its events come forwards from there, up to the max count", async () => {
    const streamId = newStream();
    const events = newEvents(5, "Read");
    await store.append({ streamId, expected: "no_stream", events });

    const all = await store.readStream(streamId);
    expect(all.map((e) => [e.streamPosition, e.eventId, e.type, e.data])).toEqual(
      events.map((e, i) => [i + 1, e.event_id, "Read", { n: i + 1 }]),
    );
    // The append fills in the causation the caller left empty: the first event's is its correlation id.
    expect(all[0]?.metadata).toEqual({ ...metadata, causation_id: metadata.correlation_id });
    expect(all[0]?.streamId).toBe(streamId);
    expect(all[0]?.recordedAt).toBeInstanceOf(Date);
    expect((await store.readStream(streamId, { fromPosition: 3 })).map((e) => e.streamPosition)).toEqual([
      3, 4, 5,
    ]);
    expect(
      (await store.readStream(streamId, { fromPosition: 2, maxCount: 2 })).map((e) => e.streamPosition),
    ).toEqual([2, 3]);
    expect(await store.readStream(streamId, { fromPosition: 6 })).toEqual([]);
    expect(await store.readStream(newStream())).toEqual([]);
  });
});

/** Records which events it was given, in the order given. */
const deliveries = defineProjection({
  name: "contract_deliveries",
  version: 1,
  eventTypes: ["Noted", "Slow"],
  tables: ["contract_deliveries"],
  setup: (t) =>
    `CREATE TABLE ${t.contract_deliveries} (event_id uuid PRIMARY KEY, global_position bigint NOT NULL)`,
  async apply(client, events, t) {
    await client.query(
      `INSERT INTO ${t.contract_deliveries} SELECT * FROM unnest($1::uuid[], $2::bigint[])`,
      [events.map((e) => e.eventId), events.map((e) => e.globalPosition.toString())],
    );
  },
});

/** Counts the feed reads, so a test can wait until a subscriber has looked again. */
class CountingStore extends EventStore {
  feedReads = 0;
  override async readFeed(...args: Parameters<EventStore["readFeed"]>): Promise<StoredEvent[]> {
    const events = await super.readFeed(...args);
    this.feedReads++;
    return events;
  }
}

async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}

describe("gap-safe feed", () => {
  it("when an older transaction is still open, then neither a subscriber nor a projection passes it, and it is delivered once it commits", async () => {
    const wakeup = new Wakeup();
    const observed = new CountingStore(db.pool, wakeup);
    const runner = new ProjectionRunner(db.pool, observed, deliveries, wakeup, { pollMs: 10 });
    runner.start();
    try {
      const from = await headOrStart();
      const before = newEvent();
      const beforeResult = await observed.append({
        streamId: newStream(),
        expected: "no_stream",
        events: [before],
      });

      const slow = await db.pool.connect();
      await slow.query("BEGIN");
      const slowEvent = newEvent("Slow");
      const slowResult = await storeOn(slow).append({
        streamId: newStream("slow"),
        expected: "any",
        events: [slowEvent],
      });
      const slowPosition = slowResult.position as FeedPosition;
      const newer = newEvents(5);
      try {
        for (const event of newer)
          await observed.append({ streamId: newStream(), expected: "no_stream", events: [event] });

        const ours = idsOf([before, slowEvent, ...newer]);
        expect(only(await feedUntil(from, [before.event_id as string]), ours)).toEqual([before.event_id]);
        expect(await store.headPosition()).toEqual(beforeResult.position);
        expect(
          await waitForReadModels(db.pool, [deliveries.name], beforeResult.position as FeedPosition),
        ).toBe(true);
        // Let the projection look at the feed twice more while the older transaction is still open.
        const reads = observed.feedReads;
        await eventually(() => observed.feedReads >= reads + 2, "the projection read the feed again");
        const checkpoint = await readModelsPosition(db.pool, [deliveries.name]);
        expect(checkpoint).toEqual(beforeResult.position);
        expect(comparePositions(checkpoint as FeedPosition, slowPosition)).toBeLessThan(0);
      } finally {
        await finish(slow, "COMMIT");
      }

      const all = [before, slowEvent, ...newer].map((e) => e.event_id as string);
      expect(only(await feedUntil(from, all), all)).toEqual(all);
      const newest = (await store.headPosition()) as FeedPosition;
      expect(await waitForReadModels(db.pool, [deliveries.name], newest, 10_000)).toBe(true);
      const { rows } = await db.pool.query<{ event_id: string }>(
        "SELECT event_id FROM read.contract_deliveries WHERE event_id = ANY($1)",
        [all],
      );
      expect(rows.map((r) => r.event_id).sort()).toEqual([...all].sort());
    } finally {
      await runner.stop();
    }
    expect(runner.failure).toBeNull();
  });

  it("when transactions that appended roll back, then the feed does not stall and later events are delivered", async () => {
    const from = await headOrStart();
    const rolledBack: string[] = [];

    const early = await db.pool.connect();
    await early.query("BEGIN");
    const earlyEvents = newEvents(2);
    rolledBack.push(...idsOf(earlyEvents));
    await storeOn(early).append({ streamId: newStream(), expected: "no_stream", events: earlyEvents });
    await finish(early, "ROLLBACK");

    const open = await db.pool.connect();
    await open.query("BEGIN");
    const openEvents = newEvents(3);
    rolledBack.push(...idsOf(openEvents));
    await storeOn(open).append({ streamId: newStream(), expected: "no_stream", events: openEvents });
    const later = newEvent();
    await store.append({ streamId: newStream(), expected: "no_stream", events: [later] });
    try {
      // While it is open, the later event waits behind it.
      expect(idsOf(await drainFeed(from))).not.toContain(later.event_id);
    } finally {
      await finish(open, "ROLLBACK");
    }

    const delivered = await feedUntil(from, [later.event_id as string]);
    expect(only(delivered, [...rolledBack, later.event_id])).toEqual([later.event_id]);
  });

  it("when a writer's session idles inside a transaction, then the server ends it and the feed moves on", async () => {
    const { rows } = await db.pool.query<{ idle_in_transaction_session_timeout: string }>(
      "SHOW idle_in_transaction_session_timeout",
    );
    expect(rows[0]?.idle_in_transaction_session_timeout).toBe("10s");

    const from = await headOrStart();
    const stuck = await db.pool.connect();
    // The server ends the session: without a listener the client's 'error' would crash the test process.
    stuck.on("error", () => {});
    await stuck.query("SET idle_in_transaction_session_timeout = '200ms'");
    await stuck.query("BEGIN");
    const lost = newEvent();
    await storeOn(stuck).append({ streamId: newStream(), expected: "no_stream", events: [lost] });
    const later = newEvent();
    await store.append({ streamId: newStream(), expected: "no_stream", events: [later] });

    const delivered = await feedUntil(from, [later.event_id as string]);
    expect(only(delivered, [lost.event_id, later.event_id])).toEqual([later.event_id]);
    stuck.release(new Error("ended by the server"));
  });
});

describe("stream order guard", () => {
  it("when an older transaction appends to a stream after a newer one committed to it, then it fails with a retryable StreamOrderConflictError and takes no global position", async () => {
    const streamId = newStream();
    const older = await beginOlderTransaction();
    let newerGp = 0n;
    try {
      const newer = await store.append({ streamId, expected: "any", events: [newEvent("Newer")] });
      newerGp = newer.position?.gp ?? 0n;

      const error = await appendError(
        storeOn(older).append({ streamId, expected: "any", events: [newEvent("Older")] }),
      );

      expect(error).toBeInstanceOf(StreamOrderConflictError);
      expect((error as StreamOrderConflictError).streamId).toBe(streamId);
    } finally {
      await finish(older, "ROLLBACK");
    }
    expect(await probeGlobalPosition()).toBe(newerGp + 1n);
    // Retried in a new transaction, the append succeeds after the newer one.
    await store.append({ streamId, expected: 1, events: [newEvent("Older")] });
    expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(["Newer", "Older"]);
  });

  it("when an older transaction appends to a stream no newer transaction touched, then it succeeds and the feed delivers its events first", async () => {
    const from = await headOrStart();
    const older = await beginOlderTransaction();
    const olderEvent = newEvent();
    const newerEvent = newEvent();
    try {
      await store.append({ streamId: newStream(), expected: "no_stream", events: [newerEvent] });
      await storeOn(older).append({ streamId: newStream(), expected: "no_stream", events: [olderEvent] });
    } finally {
      await finish(older, "COMMIT");
    }
    const ids = [olderEvent.event_id as string, newerEvent.event_id as string];
    expect(only(await feedUntil(from, ids), ids)).toEqual(ids);
  });

  it("when runCommand's append meets the order guard, then it decides again on fresh state and succeeds", async () => {
    const streamId = newStream("counter");
    const older = await beginOlderTransaction();
    let appendAttempts = 0;
    const decidedOn: number[] = [];
    try {
      await store.append({
        streamId,
        expected: "no_stream",
        events: [newEvent("Incremented", { value: 1 })],
      });
      // The first attempt appends from the older transaction, as a handler inside a long transaction would.
      const olderStore = storeOn(older);
      const routed = {
        fold: (...args: Parameters<EventStore["fold"]>) => store.fold(...args),
        append: (...args: Parameters<EventStore["append"]>) =>
          appendAttempts++ === 0 ? olderStore.append(...args) : store.append(...args),
      } as unknown as EventStore;

      const { result, append } = await runCommand(routed, async (ctx) => {
        const { state, version } = await ctx.load(
          streamId,
          (value: number, e: StoredEvent) => (e.data as { value: number }).value ?? value,
          0,
        );
        decidedOn.push(version);
        return {
          appends: [{ streamId, expected: version, events: [newEvent("Incremented", { value: state + 1 })] }],
          result: state + 1,
        };
      });

      expect(appendAttempts).toBe(2);
      expect(decidedOn).toEqual([1, 1]);
      expect(result).toBe(2);
      expect(append.versions).toEqual({ [streamId]: 2 });
    } finally {
      await finish(older, "ROLLBACK");
    }
    expect((await store.readStream(streamId)).map((e) => e.data)).toEqual([{ value: 1 }, { value: 2 }]);
  });

  it("when commands race on one stream, then runCommand decides each again on the winner's state until all succeed", async () => {
    const streamId = newStream("counter");
    const increment = () =>
      runCommand(store, async (ctx) => {
        const { state, version } = await ctx.load(
          streamId,
          (_: number, e: StoredEvent) => (e.data as { value: number }).value,
          0,
        );
        return {
          appends: [{ streamId, expected: version, events: [newEvent("Incremented", { value: state + 1 })] }],
          result: state + 1,
        };
      });

    const results = await Promise.all(Array.from({ length: 10 }, increment));

    expect(results.map((r) => r.result).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await store.readStream(streamId)).map((e) => e.data)).toEqual(
      Array.from({ length: 10 }, (_, i) => ({ value: i + 1 })),
    );
  });

  it("when a command keeps conflicting, then runCommand gives up after maxAttempts with the conflict", async () => {
    const streamId = newStream();
    await store.append({ streamId, expected: "no_stream", events: [newEvent()] });
    let attempts = 0;
    const error = await appendError(
      runCommand(
        store,
        async () => {
          attempts++;
          return { appends: [{ streamId, expected: "no_stream", events: [newEvent()] }], result: null };
        },
        { maxAttempts: 3 },
      ),
    );
    expectConflict(error, streamId, "no_stream", 1);
    expect(attempts).toBe(3);
  });

  it("when an append fails for a reason a retry cannot cure, then runCommand does not retry", async () => {
    const streamId = newStream();
    const [stored] = newEvents(1) as [NewEvent];
    await store.append({ streamId, expected: "no_stream", events: [stored] });
    let attempts = 0;
    await expect(
      runCommand(store, async () => {
        attempts++;
        return { appends: [{ streamId, expected: "any", events: [stored, newEvent()] }], result: null };
      }),
    ).rejects.toBeInstanceOf(PartialReappendError);
    expect(attempts).toBe(1);
  });
});

describe("under concurrent load", () => {
  it("when 12 writers append, race and roll back while a subscriber tails the feed, then every committed event is delivered exactly once and each stream in order", async () => {
    const writerCount = 12;
    const appendsPerWriter = 25;
    const streams = Array.from({ length: 5 }, () => newStream("stress"));
    const pool = createPool(db.url, { max: writerCount + 4 });
    const loadStore = new EventStore(pool);
    const committed = new Set<string>();
    const discarded = new Set<string>();
    const stats = { commands: 0, transactions: 0, rollbacks: 0, orderConflicts: 0 };
    const from = await headOrStart();
    let writersDone = false;

    const writer = async () => {
      for (let i = 0; i < appendsPerWriter; i++) {
        const streamId = streams[randomInt(streams.length)] as string;
        const events = newEvents(1 + randomInt(3), "Stressed");
        if (Math.random() < 0.5) {
          // A command: read, decide, append with the version read; conflicts are retried by runCommand.
          await runCommand(loadStore, async (ctx) => {
            const { version } = await ctx.load(streamId, (s: null) => s, null);
            await sleep(randomInt(3));
            return { appends: [{ streamId, expected: version, events }], result: null };
          });
          stats.commands++;
          for (const id of idsOf(events)) committed.add(id);
        } else {
          // A transaction that takes its id early, holds on a while, and sometimes rolls back.
          const client = await pool.connect();
          let outcome: "COMMIT" | "ROLLBACK" = Math.random() < 0.2 ? "ROLLBACK" : "COMMIT";
          try {
            await client.query("BEGIN");
            if (Math.random() < 0.5) await client.query("SELECT pg_current_xact_id()");
            await sleep(randomInt(4));
            await storeOn(client).append({ streamId, expected: "any", events });
            await sleep(randomInt(6));
            stats.transactions++;
          } catch (error) {
            if (!(error instanceof StreamOrderConflictError)) throw error;
            stats.orderConflicts++;
            outcome = "ROLLBACK";
          } finally {
            await client.query(outcome);
            client.release();
          }
          if (outcome === "ROLLBACK") stats.rollbacks++;
          for (const id of idsOf(events)) (outcome === "COMMIT" ? committed : discarded).add(id);
        }
        await sleep(randomInt(3));
      }
    };

    const subscriber = async () => {
      const delivered: StoredEvent[] = [];
      let position = from;
      const deadline = Date.now() + 30_000;
      for (;;) {
        const finished = writersDone;
        const page = await loadStore.readFeed(position, 20);
        delivered.push(...page);
        const last = page.at(-1);
        if (last) position = positionOf(last);
        else if (finished && delivered.filter((e) => committed.has(e.eventId)).length >= committed.size)
          return delivered;
        else if (Date.now() > deadline) throw new Error("the subscriber never caught up");
        else await sleep(2);
      }
    };

    try {
      const tail = subscriber();
      await Promise.all(Array.from({ length: writerCount }, writer));
      writersDone = true;
      const delivered = (await tail).filter((e) => e.type === "Stressed");

      expect(stats.commands).toBeGreaterThan(0);
      expect(stats.rollbacks).toBeGreaterThan(0);
      const deliveredIds = idsOf(delivered);
      expect(deliveredIds.length).toBe(new Set(deliveredIds).size);
      expect(new Set(deliveredIds)).toEqual(committed);
      expect(deliveredIds.filter((id) => discarded.has(id))).toEqual([]);
      for (const streamId of streams) {
        const positions = delivered.filter((e) => e.streamId === streamId).map((e) => e.streamPosition);
        expect(positions).toEqual(positions.map((_, i) => i + 1));
      }
      // Nothing more arrives after the subscriber caught up.
      expect(await loadStore.readFeed(positionOf(delivered.at(-1) as StoredEvent), 10)).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});

describe("indexes", () => {
  it("when the feed is read, then the query walks events_feed_idx", async () => {
    for (let i = 0; i < 40; i++) {
      await store.append(
        Array.from({ length: 10 }, () => ({
          streamId: newStream("indexed"),
          expected: "no_stream" as const,
          events: newEvents(10),
        })),
      );
    }
    await db.pool.query("ANALYZE es.events");
    const sent: { text: string; values: unknown[] }[] = [];
    const recording = {
      query: (text: string, values: unknown[]) => {
        sent.push({ text, values });
        return db.pool.query(text, values);
      },
    } as unknown as pg.Pool;
    const recorded = new EventStore(recording);
    const feed = await drainFeed();
    const middle = feed[Math.floor(feed.length / 2)] as StoredEvent;
    const nearEnd = feed[feed.length - 300] as StoredEvent;

    await recorded.readFeed(START_POSITION, 100);
    await recorded.readFeed(positionOf(middle), 1000, ["Noted"]);
    await recorded.readFeed(positionOf(nearEnd), 1000, ["Noted"]);

    expect(sent).toHaveLength(3);
    for (const { text, values } of sent) {
      const { rows } = await db.pool.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, values);
      const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toContain("events_feed_idx");
      expect(plan).not.toMatch(/Seq Scan on events/);
    }
  });

  it("when thousands of events are stored, then appends and retries find what they check through indexes, never by scanning every event", async () => {
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      const inTransaction = storeOn(client);
      const streamId = newStream();
      const first = newEvents(3);
      // More calls than the plan cache's five custom plans, so the generic plans are exercised too.
      await inTransaction.append({ streamId, expected: "no_stream", events: first });
      for (let i = 0; i < 6; i++)
        await inTransaction.append({ streamId, expected: 3 + i, events: newEvents(1) });
      await inTransaction.append({ streamId, expected: "no_stream", events: first });
      await inTransaction.append([
        { streamId: newStream(), expected: "any", events: newEvents(10) },
        { streamId, expected: "stream_exists", events: newEvents(2) },
      ]);
      const { rows } = await client.query<{ scans: number }>(
        "SELECT pg_stat_get_xact_numscans('es.events'::regclass)::int AS scans",
      );
      expect(rows[0]?.scans).toBe(0);
    } finally {
      await finish(client, "ROLLBACK");
    }
  });
});

describe("restore guard", () => {
  it("when the database's transaction counter is ahead of every stored event, then assertNotRestored lets it start", async () => {
    await store.append({ streamId: newStream(), expected: "no_stream", events: [newEvent()] });
    await expect(store.assertNotRestored()).resolves.toBeUndefined();
  });

  it("when stored events carry transaction ids from the database's future, then assertNotRestored refuses to start", async () => {
    const { rows } = await db.pool.query<{ gp: string; tx: string }>(
      "SELECT global_position::text AS gp, transaction_id::text AS tx FROM es.events ORDER BY global_position DESC LIMIT 1",
    );
    const newest = rows[0] as { gp: string; tx: string };
    await db.pool.query("UPDATE es.events SET transaction_id = '999999999' WHERE global_position = $1", [
      newest.gp,
    ]);
    try {
      const error = await appendError(store.assertNotRestored());
      expect(error).toBeInstanceOf(RestoredDatabaseError);
      expect((error as Error).message).toContain("999999999");
    } finally {
      await db.pool.query("UPDATE es.events SET transaction_id = $2::xid8 WHERE global_position = $1", [
        newest.gp,
        newest.tx,
      ]);
    }
    await expect(store.assertNotRestored()).resolves.toBeUndefined();
  });
});

describe("folding streams", () => {
  it("when a stream grows after it was folded, then the next fold reads only the new events and equals a full fold", async () => {
    const store = new EventStore(db.pool);
    const streamId = `fold-${randomUUID()}`;
    const sum = (total: number, e: StoredEvent) => total + (e.data as { n: number }).n;
    await store.append({
      streamId,
      expected: "no_stream",
      events: [1, 2, 3].map((n) => newEvent("Added", { n })),
    });
    expect(await store.fold(streamId, sum, 0)).toEqual({ state: 6, version: 3 });
    await store.append({ streamId, expected: 3, events: [newEvent("Added", { n: 10 })] });
    const reads: number[] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = async (id, options) => {
      reads.push(options?.fromPosition ?? 1);
      return readStream(id, options);
    };
    expect(await store.fold(streamId, sum, 0)).toEqual({ state: 16, version: 4 });
    expect(reads).toEqual([4]);
    expect(await new EventStore(db.pool).fold(streamId, sum, 0)).toEqual({ state: 16, version: 4 });
  });

  /** A store that counts its stream reads (a real store; only the count is added). */
  function counting(store: EventStore): { reads: number } {
    const counter = { reads: 0 };
    const readStream = store.readStream.bind(store);
    store.readStream = async (id, options) => {
      counter.reads++;
      return readStream(id, options);
    };
    return counter;
  }
  const sum = (total: number, e: StoredEvent) => total + (e.data as { n: number }).n;
  const add = (n: number) => newEvent("Added", { n });

  it("when a command appends to streams it loaded or created, then the next trusted command folds them without a read", async () => {
    const store = new EventStore(db.pool);
    const counter = counting(store);
    const created = newStream("fold");
    const grown = newStream("fold");
    await store.append({ streamId: grown, expected: "no_stream", events: [add(5)] });
    await runCommand(store, async (cmd) => {
      const fresh = cmd.fresh(created, sum, 0);
      const loaded = await cmd.load(grown, sum, 0, { trusted: true });
      return {
        appends: [
          { streamId: created, expected: "no_stream", events: [add(1), add(2)] },
          { streamId: grown, expected: loaded.version, events: [add(fresh.state + 10)] },
        ],
        result: null,
      };
    });
    expect(counter.reads).toBe(1); // the grown stream, never folded before
    const seen = await runCommand(store, async (cmd) => ({
      appends: [],
      result: [
        await cmd.load(created, sum, 0, { trusted: true }),
        await cmd.load(grown, sum, 0, { trusted: true }),
      ],
    }));
    expect(seen.result).toEqual([
      { state: 3, version: 2 },
      { state: 15, version: 2 },
    ]);
    expect(counter.reads).toBe(1);
    // The remembered states are the ones a fresh fold of the stored events gives.
    expect(await new EventStore(db.pool).fold(created, sum, 0)).toEqual({ state: 3, version: 2 });
    expect(await new EventStore(db.pool).fold(grown, sum, 0)).toEqual({ state: 15, version: 2 });
  });

  it("when this process appends to a stream outside the command, then a trusted fold reads the new events", async () => {
    const store = new EventStore(db.pool);
    const streamId = newStream("fold");
    await store.append({ streamId, expected: "no_stream", events: [add(1)] });
    expect(await store.fold(streamId, sum, 0)).toEqual({ state: 1, version: 1 });
    await new EventStore(db.pool).append({ streamId, expected: 1, events: [add(2)] }); // another store, same process
    expect(await store.fold(streamId, sum, 0, { trusted: true })).toEqual({ state: 3, version: 2 });
  });

  it("when another process appended to a trusted stream, then the command's append is refused and its retry reads afresh", async () => {
    const store = new EventStore(db.pool);
    const streamId = newStream("fold");
    await store.append({ streamId, expected: "no_stream", events: [add(1)] });
    expect(await store.fold(streamId, sum, 0)).toEqual({ state: 1, version: 1 });
    // As another process would: straight through es.append, unseen by this process.
    await db.pool.query("SELECT * FROM es.append($1::jsonb)", [
      JSON.stringify([
        {
          stream_id: streamId,
          stream_type: "fold",
          expected: "1",
          events: [{ event_id: randomUUID(), event_type: "Added", data: { n: 100 }, metadata }],
        },
      ]),
    ]);
    const decided: number[] = [];
    await runCommand(store, async (cmd) => {
      const loaded = await cmd.load(streamId, sum, 0, { trusted: true });
      decided.push(loaded.state);
      return { appends: [{ streamId, expected: loaded.version, events: [add(1)] }], result: null };
    });
    expect(decided).toEqual([1, 101]); // the stale first decision was refused
    expect(await new EventStore(db.pool).fold(streamId, sum, 0)).toEqual({ state: 102, version: 3 });
  });

  it("when a command's append is answered as already done (a retry with the same event ids), then its events are not folded twice", async () => {
    const store = new EventStore(db.pool);
    const streamId = newStream("fold");
    const credit = add(50); // the same event, with its id, in both commands
    const command = () =>
      runCommand(store, async (cmd) => {
        const loaded = await cmd.load(streamId, sum, 0, { trusted: true });
        return { appends: [{ streamId, expected: loaded.version, events: [credit] }], result: loaded.state };
      });
    expect((await command()).result).toBe(0);
    // The retry reads the stream with the credit already in it and appends it again: the store answers as before.
    const retry = await command();
    expect(retry.append.versions[streamId]).toBe(1);
    expect(await store.fold(streamId, sum, 0, { trusted: true })).toEqual({ state: 50, version: 1 });
    expect(await new EventStore(db.pool).fold(streamId, sum, 0)).toEqual({ state: 50, version: 1 });
  });
});
