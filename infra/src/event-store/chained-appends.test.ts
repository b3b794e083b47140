// Appends decided on the state an unanswered append leaves its stream at (EventStore.fold's `unsettled`), and turns
// that end when the append is handed to the store (runCommand's `turn`), against a real PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Refusal, refuse } from "../refusal.ts";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { runCommand } from "./command.ts";
import { WrongExpectedVersionError } from "./errors.ts";
import { EventStore, type FoldedAfter } from "./event-store.ts";
import { systemMetadata } from "./metadata.ts";
import { StreamLocks } from "./stream-locks.ts";
import type { AppendResult, StoredEvent } from "./types.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const metadata = systemMetadata("chained-appends-test");
const sum = (total: number, e: StoredEvent) => total + (e.data as { n: number }).n;
const add = (n: number) => ({ type: "Added", data: { n }, metadata });
const newStream = () => `balance-${randomUUID()}`;
const folded = (streamId: string, state: number, version: number): FoldedAfter<unknown> => ({
  streamId,
  evolve: sum as FoldedAfter<unknown>["evolve"],
  initial: 0,
  state,
  version,
});
const amounts = async (streamId: string) =>
  (await new EventStore(db.pool).readStream(streamId)).map((e) => (e.data as { n: number }).n);

describe.each([
  ["grouped", { groupCommit: true }],
  ["alone", {}],
])("appends decided after an unanswered append (%s)", (_name, options) => {
  const storeOf = () => new EventStore(db.pool, undefined, 5000, options);

  it("when a fold accepts unsettled states, then it answers the state the unanswered append leaves, and the append decided on it commits after it", async () => {
    const store = storeOf();
    const streamId = newStream();
    await store.append({ streamId, expected: "no_stream", events: [add(10)] });
    // Another transaction holds the stream's row, so the first append stays unanswered until it lets go.
    const holder = await db.pool.connect();
    await holder.query("BEGIN");
    await holder.query("SELECT FROM es.streams WHERE stream_id = $1 FOR UPDATE", [streamId]);
    const first = store.append(
      { streamId, expected: 1, events: [add(-3)] },
      { folded: [folded(streamId, 7, 2)] },
    );
    let second: Promise<AppendResult>;
    try {
      const answered = await store.fold(streamId, sum, 0, { trusted: true, unsettled: true });
      expect(answered).toMatchObject({ state: 7, version: 2 });
      expect(answered.after?.outcome).toBe("pending");
      // Without `unsettled`, only committed states.
      expect(await store.fold(streamId, sum, 0, { trusted: true })).toEqual({ state: 10, version: 1 });
      expect(answered.after?.outcome).toBe("pending");

      second = store.append(
        { streamId, expected: 2, events: [add(-4)] },
        { after: answered.after ? [answered.after] : [], folded: [folded(streamId, 3, 3)] },
      );
    } finally {
      await holder.query("COMMIT");
      holder.release();
    }
    expect((await first).versions[streamId]).toBe(2);
    expect((await second).versions[streamId]).toBe(3);
    expect(await amounts(streamId)).toEqual([10, -3, -4]);
    // The last committed state is kept: the next trusted fold reads nothing and is exact.
    expect(await store.fold(streamId, sum, 0, { trusted: true, unsettled: true })).toEqual({
      state: 3,
      version: 3,
    });
  });

  it("when the append it was decided after fails and another process has meanwhile taken that version, then it is refused and writes nothing", async () => {
    const store = storeOf();
    const elsewhere = new EventStore(db.pool);
    const streamId = newStream();
    const other = newStream();
    await store.append({ streamId, expected: "no_stream", events: [add(10)] });
    // Refused: it expects `other` at version 5, which has no events.
    const failing = store.append(
      [
        { streamId, expected: 1, events: [add(-8)] },
        { streamId: other, expected: 5, events: [add(1)] },
      ],
      { folded: [folded(streamId, 2, 2)] },
    );
    const { after } = await store.fold(streamId, sum, 0, { trusted: true, unsettled: true });
    // Another process charges 9 at version 2, decided on the committed 10.
    await elsewhere.append({ streamId, expected: 1, events: [add(-9)] });
    // Decided on the failing append's 2, this expects version 2 too: sent on its own, it would commit.
    const chained = store.append(
      { streamId, expected: 2, events: [add(-1)] },
      { after: after ? [after] : [] },
    );
    await expect(failing).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(chained).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await amounts(streamId)).toEqual([10, -9]);
    // The failed state is no longer handed out.
    expect(await store.fold(streamId, sum, 0, { trusted: true, unsettled: true })).toEqual({
      state: 1,
      version: 2,
    });
  });

  it("when the append it was decided after is refused because another append had already moved the stream to the version it leaves, then it is refused too", async () => {
    const store = storeOf();
    const elsewhere = new EventStore(db.pool);
    const streamId = newStream();
    await store.append({ streamId, expected: "no_stream", events: [add(10)] });
    await elsewhere.append({ streamId, expected: 1, events: [add(-9)] });
    // Decided on the stale 10 at version 1: refused, the stream being at 2.
    const stale = store.append(
      { streamId, expected: 1, events: [add(-8)] },
      { folded: [folded(streamId, 2, 2)] },
    );
    const { after } = await store.fold(streamId, sum, 0, { trusted: true, unsettled: true });
    // Decided on its 2 at version 2, the version the stream is really at: only the refusal of the first can refuse it
    // (grouped, both go in one statement).
    const chained = store.append(
      { streamId, expected: 2, events: [add(-1)] },
      { after: after ? [after] : [] },
    );
    await expect(stale).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(chained).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await amounts(streamId)).toEqual([10, -9]);
  });

  it("when the append it was decided after has already failed and its version was taken since, then it is refused at once", async () => {
    const store = storeOf();
    const elsewhere = new EventStore(db.pool);
    const streamId = newStream();
    await store.append({ streamId, expected: "no_stream", events: [add(10)] });
    const failing = store.append(
      [
        { streamId, expected: 1, events: [add(-8)] },
        { streamId: newStream(), expected: 5, events: [add(1)] },
      ],
      { folded: [folded(streamId, 2, 2)] },
    );
    const { after } = await store.fold(streamId, sum, 0, { trusted: true, unsettled: true });
    await expect(failing).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(after?.outcome).toBe("failed");
    await elsewhere.append({ streamId, expected: 1, events: [add(-9)] });
    await expect(
      store.append({ streamId, expected: 2, events: [add(-1)] }, { after: after ? [after] : [] }),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await amounts(streamId)).toEqual([10, -9]);
  });
});

describe("a chain in one group", () => {
  /** A grouping store on a pool that notes each statement it sends. */
  const noting = () => {
    const sent: string[] = [];
    const pool = Object.create(db.pool) as typeof db.pool;
    pool.query = ((text: unknown, ...rest: unknown[]) => {
      sent.push(typeof text === "string" ? text : String((text as { text?: string }).text));
      return (db.pool.query as (...args: unknown[]) => unknown)(text, ...rest);
    }) as typeof pool.query;
    return { store: new EventStore(pool, undefined, 5000, { groupCommit: true }), sent };
  };
  /** A balance of 10, then a chain of two charges (the second expecting `secondExpects`) and another command. */
  const chain = async (store: EventStore, streamId: string, secondExpects: number, { hold = false } = {}) => {
    await store.append({ streamId, expected: "no_stream", events: [add(10)] });
    const checked = newStream();
    if (hold) await store.append({ streamId: checked, expected: "no_stream", events: [add(0)] });
    const first = store.append(
      { streamId, expected: 1, events: [add(-3)] },
      { folded: [folded(streamId, 7, 2)], ...(hold ? { releasingHold: randomUUID() } : {}) },
    );
    const { after } = await store.fold(streamId, sum, 0, { trusted: true, unsettled: true });
    const second = store.append(
      [
        { streamId, expected: secondExpects, events: [add(-4), add(-1)] },
        // A stream the command only checks (answered with its version), beside the hold the first one releases.
        ...(hold ? [{ streamId: checked, expected: 1, events: [] }] : []),
      ],
      { after: after ? [after] : [], folded: [folded(streamId, 2, 4)] },
    );
    const other = store.append({ streamId: newStream(), expected: "no_stream", events: [add(1)] });
    return Promise.allSettled([first, second, other]);
  };

  it.each([
    ["plain appends", { hold: false }],
    ["a hold released and a stream checked", { hold: true }],
  ])(
    "when a command is decided on the state of one in the same group (%s), then both go in one plain statement, each answered with the version its own events leave",
    async (_name, options) => {
      const { store, sent } = noting();
      const streamId = newStream();
      const before = sent.length;
      const [first, second, other] = await chain(store, streamId, 2, options);
      // One statement for the three commands after the setup's, never es.append_group's command by command.
      expect(sent.slice(before + (options.hold ? 2 : 1))).toHaveLength(1);
      expect(sent.at(-1)).toContain("AS c(stream_id, stream_type, expected, n, cmd)");
      expect(sent.some((text) => text.includes("es.append_group"))).toBe(false);
      expect(first).toMatchObject({ status: "fulfilled", value: { versions: { [streamId]: 2 } } });
      expect(second).toMatchObject({ status: "fulfilled", value: { versions: { [streamId]: 4 } } });
      // The stream it only checked, answered at the version it holds (one event, appended by the setup).
      if (second.status === "fulfilled")
        expect(Object.entries(second.value.versions).filter(([id]) => id !== streamId)).toEqual(
          options.hold ? [[expect.any(String), 1]] : [],
        );
      expect(other.status).toBe("fulfilled");
      const events = await new EventStore(db.pool).readStream(streamId);
      expect(events.map((e) => [e.streamPosition, (e.data as { n: number }).n])).toEqual([
        [1, 10],
        [2, -3],
        [3, -4],
        [4, -1],
      ]);
      // One transaction, and both answers at or after their own events.
      const [, a, , last] = events;
      expect(a?.transactionId).toBe(last?.transactionId);
      if (first.status !== "fulfilled" || second.status !== "fulfilled") throw new Error("unreachable");
      expect(first.value.position?.tx).toBe(a?.transactionId);
      expect(second.value.position?.gp).toBe(last?.globalPosition);
    },
  );

  it("when the later command of a chain expects another version than the first leaves, then the group is answered command by command: the first commits, the later one is refused", async () => {
    const { store, sent } = noting();
    const streamId = newStream();
    const [first, second, other] = await chain(store, streamId, 1);
    expect(sent.some((text) => text.includes("es.append_group"))).toBe(true);
    expect(first).toMatchObject({ status: "fulfilled", value: { versions: { [streamId]: 2 } } });
    expect(second.status).toBe("rejected");
    if (second.status === "rejected") expect(second.reason).toBeInstanceOf(WrongExpectedVersionError);
    expect(other.status).toBe("fulfilled");
    expect(await amounts(streamId)).toEqual([10, -3]);
  });
});

describe("turns that end when the append is handed to the store", () => {
  const grouped = () => new EventStore(db.pool, undefined, 5000, { groupCommit: true });

  /** A charge of `n` on `streamId` in its turn, refused when it would take the balance below zero. */
  const charge = (
    on: EventStore,
    locks: StreamLocks,
    streamId: string,
    n: number,
    seen: { version: number; committedThen: boolean }[],
    committed: { value: boolean },
  ) => {
    let attempts = 0;
    return runCommand(
      on,
      async (cmd) => {
        attempts++;
        const { state, version } = await cmd.load(streamId, sum, 0, { trusted: true });
        seen.push({ version, committedThen: committed.value });
        if (state < n) throw refuse.notAllowed("The balance is too low", "insufficient_balance");
        return {
          appends: [{ streamId, expected: version, events: [add(-n)] }],
          result: { attempts: () => attempts },
        };
      },
      { turn: () => locks.acquire(streamId) },
    ).then(({ result }) => result.attempts());
  };

  it("when two commands take turns at one stream, then the second decides on the first's state before the first has committed, and neither runs again", async () => {
    const on = grouped();
    const locks = new StreamLocks();
    const streamId = newStream();
    await on.append({ streamId, expected: "no_stream", events: [add(10)] });
    await on.fold(streamId, sum, 0);
    const seen: { version: number; committedThen: boolean }[] = [];
    const firstCommitted = { value: false };
    const first = charge(on, locks, streamId, 3, seen, { value: false }).then((attempts) => {
      firstCommitted.value = true;
      return attempts;
    });
    const second = charge(on, locks, streamId, 4, seen, firstCommitted);
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(seen).toEqual([
      { version: 1, committedThen: false },
      { version: 2, committedThen: false },
    ]);
    expect(await amounts(streamId)).toEqual([10, -3, -4]);
  });

  it("when many charges of one balance race with another process's and some fail midway, then the balance never goes below zero and every charge is decided on what committed before it", async () => {
    const on = grouped();
    const elsewhere = grouped();
    const locks = new StreamLocks();
    const otherLocks = new StreamLocks();
    const streamId = newStream();
    await on.append({ streamId, expected: "no_stream", events: [add(100)] });
    const broken = newStream();
    const runs = Array.from({ length: 40 }, (_, i) => {
      const process = i % 4 === 3 ? elsewhere : on;
      // Every fifth fails once on a stream of its own (a booking a comment moved meanwhile): what was decided after
      // it in the same turn must run again.
      let failOnce = i % 5 === 0;
      return runCommand(
        process,
        async (cmd) => {
          const { state, version } = await cmd.load(streamId, sum, 0, { trusted: true });
          if (state < 7) throw refuse.notAllowed("The balance is too low", "insufficient_balance");
          const appends = [{ streamId, expected: version, events: [add(-7)] }];
          if (failOnce) {
            failOnce = false;
            return {
              appends: [...appends, { streamId: broken, expected: 3, events: [add(0)] }],
              result: "charged" as const,
            };
          }
          return { appends, result: "charged" as const };
        },
        { turn: () => (process === on ? locks : otherLocks).acquire(streamId) },
      ).then(
        ({ result }) => result,
        (error: unknown) => {
          if (error instanceof Refusal) return "refused" as const;
          throw error;
        },
      );
    });
    const results = await Promise.all(runs);
    const charged = results.filter((r) => r === "charged").length;
    const stored = await amounts(streamId);
    expect(charged).toBe(14);
    expect(stored).toHaveLength(15);
    let balance = 0;
    for (const n of stored) {
      balance += n;
      expect(balance).toBeGreaterThanOrEqual(0);
    }
    expect(balance).toBe(2);
    expect(await amounts(broken)).toEqual([]);
    // Every handed-out state is gone with its append's answer: nothing is kept for appends answered.
    for (const store of [on, elsewhere]) expect(store.unsettledStreams).toBe(0);
  });
});
