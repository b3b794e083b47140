// The fold cache behind trusted folds, and how other processes' appends reach it, against a real PostgreSQL.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { ChangeNotices, shareAppends } from "./change-notices.ts";
import { EventStore } from "./event-store.ts";
import { systemMetadata } from "./metadata.ts";
import type { StoredEvent } from "./types.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const metadata = systemMetadata("fold-cache-test");
const sum = (total: number, e: StoredEvent) => total + (e.data as { n: number }).n;
const add = (n: number) => ({ type: "Added", data: { n }, metadata });

/** An append made as another process would: straight through es.append, unheard by this process. */
const appendElsewhere = (streamId: string, n: number) =>
  db.pool.query("SELECT * FROM es.append($1::jsonb)", [
    JSON.stringify([
      {
        stream_id: streamId,
        stream_type: "balance",
        expected: "any",
        events: [{ event_id: randomUUID(), event_type: "Added", data: { n }, metadata }],
      },
    ]),
  ]);

describe("the fold cache", () => {
  it("when another process appended and nobody said so, then a trusted fold still answers from memory", async () => {
    // The premise of the tests below: without a notice, trusted folds cannot know.
    const store = new EventStore(db.pool);
    const streamId = `balance-${randomUUID()}`;
    await store.append({ streamId, expected: "no_stream", events: [add(5)] });
    expect(await store.fold(streamId, sum, 0)).toEqual({ state: 5, version: 1 });
    await appendElsewhere(streamId, 10);
    expect(await store.fold(streamId, sum, 0, { trusted: true })).toEqual({ state: 5, version: 1 });
    expect(await store.fold(streamId, sum, 0)).toEqual({ state: 15, version: 2 });
  });

  it("when another process's append is announced, then the next trusted fold reads it", async () => {
    const store = new EventStore(db.pool);
    const streamId = `balance-${randomUUID()}`;
    const other = `balance-${randomUUID()}`;
    await store.append([
      { streamId, expected: "no_stream", events: [add(5)] },
      { streamId: other, expected: "no_stream", events: [add(1)] },
    ]);
    expect(await store.fold(streamId, sum, 0)).toEqual({ state: 5, version: 1 });
    expect(await store.fold(other, sum, 0)).toEqual({ state: 1, version: 1 });
    await appendElsewhere(streamId, 10);
    EventStore.changedElsewhere([streamId]);
    expect(await store.fold(streamId, sum, 0, { trusted: true })).toEqual({ state: 15, version: 2 });
    // Another stream is still trusted: a read would not tell, so an unannounced change shows it was not read.
    await appendElsewhere(other, 2);
    expect(await store.fold(other, sum, 0, { trusted: true })).toEqual({ state: 1, version: 1 });
  });

  it("when notices may have been missed, then no fold is trusted until read again", async () => {
    const store = new EventStore(db.pool);
    const streamId = `balance-${randomUUID()}`;
    await store.append({ streamId, expected: "no_stream", events: [add(5)] });
    expect(await store.fold(streamId, sum, 0)).toEqual({ state: 5, version: 1 });
    await appendElsewhere(streamId, 10);
    EventStore.changedElsewhere("all");
    expect(await store.fold(streamId, sum, 0, { trusted: true })).toEqual({ state: 15, version: 2 });
    await appendElsewhere(streamId, 100);
    expect(await store.fold(streamId, sum, 0, { trusted: true })).toEqual({ state: 15, version: 2 });
  });

  it("when more streams are folded than it holds, then the least recently used are read again and the result is exact", async () => {
    const store = new EventStore(db.pool, undefined, 2);
    const ids = [1, 2, 3].map(() => `balance-${randomUUID()}`);
    for (const [i, id] of ids.entries())
      await store.append({ streamId: id, expected: "no_stream", events: [add(i)] });
    const reads: string[] = [];
    const readStream = store.readStream.bind(store);
    store.readStream = async (id, options) => {
      reads.push(`${id}@${options?.fromPosition ?? 1}`);
      return readStream(id, options);
    };
    for (const id of ids) await store.fold(id, sum, 0);
    reads.length = 0;
    const [first, second, third] = ids as [string, string, string];
    expect(await store.fold(third, sum, 0)).toEqual({ state: 2, version: 1 });
    expect(await store.fold(first, sum, 0)).toEqual({ state: 0, version: 1 });
    // The third was held (read on from position 2); the first was evicted (read whole); so was the second now.
    expect(reads).toEqual([`${third}@2`, `${first}@1`]);
    reads.length = 0;
    expect(await store.fold(second, sum, 0)).toEqual({ state: 1, version: 1 });
    expect(reads).toEqual([`${second}@1`]);
  });

  it("when two processes share their appends through PostgreSQL, then a trusted fold in one sees the other's append at once", async () => {
    // Two processes' notices: each hears only the other's (a process ignores its own notices).
    const here = new ChangeNotices(db.pool);
    const there = new ChangeNotices(db.pool);
    const stopListening = await here.listen(db.url);
    const stopHearing = here.onChange((keys) => EventStore.changedElsewhere(keys));
    const stopSharing = shareAppends(there);
    try {
      const store = new EventStore(db.pool);
      const streamId = `balance-${randomUUID()}`;
      // An append announces its streams once committed.
      const announced = new Promise((resolve) => here.onChange(resolve));
      await store.append({ streamId, expected: "no_stream", events: [add(5)] });
      expect(await announced).toEqual([streamId]);
      expect(await store.fold(streamId, sum, 0)).toEqual({ state: 5, version: 1 });
      // What another process announces is read again by the next trusted fold.
      await appendElsewhere(streamId, 10);
      const heard = new Promise((resolve) => here.onChange(resolve));
      const started = performance.now();
      there.announce([streamId]);
      expect(await heard).toEqual([streamId]);
      const elapsed = performance.now() - started;
      expect(await store.fold(streamId, sum, 0, { trusted: true })).toEqual({ state: 15, version: 2 });
      process.stdout.write(`change notice heard after ${elapsed.toFixed(1)} ms\n`);
    } finally {
      stopSharing();
      stopHearing();
      await stopListening();
      await sleep(0);
    }
  });
});

describe("folding several streams at once", () => {
  /** The pool, with the rows each statement answered noted (one entry per statement). */
  function countingPool(rowsByStatement: number[]): typeof db.pool {
    return new Proxy(db.pool, {
      get(target, property, receiver) {
        if (property !== "query") return Reflect.get(target, property, receiver);
        return async (...args: Parameters<typeof target.query>) => {
          const result = await (target.query as (...a: unknown[]) => Promise<{ rowCount: number | null }>)(
            ...args,
          );
          rowsByStatement.push(result.rowCount ?? 0);
          return result;
        };
      },
    });
  }
  const listed = (list: readonly number[], e: StoredEvent) => [...list, (e.data as { n: number }).n];

  it("answers each stream as fold would, in one statement, and then reads only what was appended since", async () => {
    const statements: number[] = [];
    const store = new EventStore(countingPool(statements));
    const [a, b, none] = [1, 2, 3].map(() => `balance-${randomUUID()}`) as [string, string, string];
    await store.append([
      { streamId: a, expected: "no_stream", events: [add(1), add(2), add(3)] },
      { streamId: b, expected: "no_stream", events: [add(10)] },
    ]);
    // The same stream folded two ways, another stream, and one with no events.
    const requests = {
      aSum: { streamId: a, evolve: sum, initial: 0 },
      aList: { streamId: a, evolve: listed, initial: [] as number[] },
      b: { streamId: b, evolve: sum, initial: 0 },
      none: { streamId: none, evolve: sum, initial: 0 },
    };
    statements.length = 0;
    const first = await store.foldStreams(Object.values(requests));
    expect(statements).toEqual([7]);
    expect(first(requests.aSum)).toEqual({ state: 6, version: 3 });
    expect(first(requests.aList)).toEqual({ state: [1, 2, 3], version: 3 });
    expect(first(requests.b)).toEqual({ state: 10, version: 1 });
    expect(first(requests.none)).toEqual({ state: 0, version: 0 });

    // Another process appends to a: the next fold reads that one event (twice: once per way), and nothing of b.
    await appendElsewhere(a, 100);
    statements.length = 0;
    const second = await store.foldStreams(Object.values(requests));
    expect(statements).toEqual([2]);
    expect(second(requests.aSum)).toEqual({ state: 106, version: 4 });
    expect(second(requests.aList)).toEqual({ state: [1, 2, 3, 100], version: 4 });
    expect(second(requests.b)).toEqual({ state: 10, version: 1 });
    // And fold itself starts from there too.
    statements.length = 0;
    expect(await store.fold(a, sum, 0)).toEqual({ state: 106, version: 4 });
    expect(statements).toEqual([0]);
    expect(() => second({ streamId: b, evolve: sum, initial: 0 })).toThrow(/not asked/);
  });
});
