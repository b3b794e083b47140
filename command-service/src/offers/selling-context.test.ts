// The directory cache behind selling contexts, against a real PostgreSQL.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ChangeNotices } from "@skyward/infra/event-store/change-notices";
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
    const cache = new DirectoryCache(store, db.pool, { ttlMs: 60_000 });
    const streamId = `company-${randomUUID()}`;
    await note(streamId, 1);
    expect(await numbers(cache, streamId)).toEqual([1]);
    await note(streamId, 2);
    expect(await numbers(cache, streamId)).toEqual([1, 2]);
    cache.close();
  });

  it("when another process appends, then the change is seen once the entry is older than its time to live", async () => {
    const cache = new DirectoryCache(store, db.pool, { ttlMs: 150 });
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
    const cache = new DirectoryCache(store, db.pool, { ttlMs: 60_000 });
    const streamId = `agency-${randomUUID()}`;
    await note(streamId, 1);
    const reading = numbers(cache, streamId); // started before the append below
    await note(streamId, 2);
    await reading;
    expect(await numbers(cache, streamId)).toEqual([1, 2]);
    cache.close();
  });

  it("when a closed cache's streams are appended to, then it is no longer told", async () => {
    const cache = new DirectoryCache(store, db.pool, { ttlMs: 60_000 });
    const streamId = `channel-${randomUUID()}`;
    await note(streamId, 1);
    expect(await numbers(cache, streamId)).toEqual([1]);
    cache.close();
    await note(streamId, 2);
    expect(await numbers(cache, streamId)).toEqual([1]);
  });

  it("when another process announces its change, then the next read has it at once, long before the time to live", async () => {
    const heard = new ChangeNotices(db.pool);
    const stopListening = await heard.listen(db.url);
    const cache = new DirectoryCache(store, db.pool, { ttlMs: 60_000, notices: heard });
    const streamId = `company-${randomUUID()}`;
    await note(streamId, 1);
    expect(await numbers(cache, streamId)).toEqual([1]);
    const elsewhere = new ChangeNotices(db.pool); // the other process's, with its own identity
    await appendElsewhere(streamId, 2);
    const arrived = new Promise((resolve) => heard.onChange(resolve));
    elsewhere.announce([streamId]);
    expect(await arrived).toEqual([streamId]);
    expect(await numbers(cache, streamId)).toEqual([1, 2]);
    cache.close();
    await stopListening();
  });

  it("when the listening connection breaks, then everything cached is dropped and notices are heard again after it reconnects", async () => {
    const heard = new ChangeNotices(db.pool);
    const stopListening = await heard.listen(db.url, { retryMs: 20 });
    const cache = new DirectoryCache(store, db.pool, { ttlMs: 60_000, notices: heard });
    const first = `agency-${randomUUID()}`;
    const second = `channel-${randomUUID()}`;
    await note(first, 1);
    await note(second, 1);
    expect(await numbers(cache, first)).toEqual([1]);
    await appendElsewhere(first, 2); // a change whose notice is lost with the connection
    const told: (readonly string[] | "all")[] = [];
    heard.onChange((keys) => told.push(keys));
    await db.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'skyward-change-notices' AND datname = current_database()",
    );
    for (let i = 0; i < 200 && told.filter((k) => k === "all").length < 2; i++) await sleep(10);
    expect(told.filter((k) => k === "all")).toHaveLength(2); // at the break and after the new LISTEN
    expect(await numbers(cache, first)).toEqual([1, 2]);
    expect(await numbers(cache, second)).toEqual([1]);
    await appendElsewhere(second, 2);
    const arrived = new Promise((resolve) => heard.onChange(resolve));
    new ChangeNotices(db.pool).announce([second]);
    expect(await arrived).toEqual([second]);
    expect(await numbers(cache, second)).toEqual([1, 2]);
    cache.close();
    await stopListening();
  });

  it("when this process announces a change, then its own listener ignores it", async () => {
    const notices = new ChangeNotices(db.pool);
    const stopListening = await notices.listen(db.url);
    const told: unknown[] = [];
    notices.onChange((keys) => told.push(keys));
    notices.announce([`company-${randomUUID()}`]);
    await sleep(100); // time for the own notice to arrive, were it heard
    const other = new ChangeNotices(db.pool);
    const arrived = new Promise((resolve) => notices.onChange(resolve));
    other.announce(["company-marker"]);
    await arrived;
    expect(told).toEqual([["company-marker"]]);
    await stopListening();
  });

  it("when more keys change than one notice can carry, then they arrive split over several notices", async () => {
    const heard = new ChangeNotices(db.pool);
    const stopListening = await heard.listen(db.url);
    const keys = Array.from({ length: 500 }, () => `booking-${randomUUID()}`);
    const told: string[] = [];
    heard.onChange((k) => {
      if (k !== "all") told.push(...k);
    });
    new ChangeNotices(db.pool).announce(keys);
    for (let i = 0; i < 200 && told.length < keys.length; i++) await sleep(10);
    expect(told.sort()).toEqual([...keys].sort());
    await stopListening();
  });
});
