// The directory cache behind selling contexts, against a real PostgreSQL.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { DirectoryCache } from "./selling-context.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
});
afterAll(async () => {
  await db.drop();
});

const metadata = systemMetadata("directory-cache-test");
const note = (streamId: string, n: number) =>
  store.append({ streamId, expected: "any", events: [{ type: "Noted", data: { n }, metadata }] });

/** An append made as another process would: straight through es.append, unheard by this process's listeners. */
const appendElsewhere = (streamId: string, n: number) =>
  db.pool.query("SELECT * FROM es.append($1::jsonb)", [
    JSON.stringify([
      {
        stream_id: streamId,
        stream_type: "company",
        expected: "any",
        events: [{ event_id: randomUUID(), event_type: "Noted", data: { n }, metadata }],
      },
    ]),
  ]);

const numbers = async (cache: DirectoryCache, streamId: string) =>
  ((await cache.readStreams([streamId])).get(streamId) ?? []).map((e) => (e.data as { n: number }).n);

describe("directory cache", () => {
  it("when this process appends to a cached stream, then the next read has the new event at once", async () => {
    const cache = new DirectoryCache(store, db.pool, 60_000);
    const streamId = `company-${randomUUID()}`;
    await note(streamId, 1);
    expect(await numbers(cache, streamId)).toEqual([1]);
    await note(streamId, 2);
    expect(await numbers(cache, streamId)).toEqual([1, 2]);
    cache.close();
  });

  it("when another process appends, then the change is seen once the entry is older than its time to live", async () => {
    const cache = new DirectoryCache(store, db.pool, 150);
    const streamId = `company-${randomUUID()}`;
    await note(streamId, 1);
    expect(await numbers(cache, streamId)).toEqual([1]);
    await appendElsewhere(streamId, 2);
    expect(await numbers(cache, streamId)).toEqual([1]); // still within its time to live
    await sleep(200);
    expect(await numbers(cache, streamId)).toEqual([1, 2]);
    cache.close();
  });

  it("when an append lands while a read is on its way, then that read's answer is not kept", async () => {
    const cache = new DirectoryCache(store, db.pool, 60_000);
    const streamId = `agency-${randomUUID()}`;
    await note(streamId, 1);
    const reading = numbers(cache, streamId); // started before the append below
    await note(streamId, 2);
    await reading;
    expect(await numbers(cache, streamId)).toEqual([1, 2]);
    cache.close();
  });

  it("when a closed cache's streams are appended to, then it is no longer told", async () => {
    const cache = new DirectoryCache(store, db.pool, 60_000);
    const streamId = `channel-${randomUUID()}`;
    await note(streamId, 1);
    expect(await numbers(cache, streamId)).toEqual([1]);
    cache.close();
    await note(streamId, 2);
    expect(await numbers(cache, streamId)).toEqual([1]);
  });
});
