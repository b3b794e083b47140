// The event store's read path upcasts: events stored at an older version (the golden fixtures, written straight
// through es.append as the code of their time wrote them) read as the current version from every read, and the
// append stamps the version it writes at. Against a real PostgreSQL.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { currentVersion } from "@skyward/contracts/event-versions";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { EventStore } from "./event-store.ts";
import { eventFixture, eventFixtures } from "./fixtures.ts";
import { systemMetadata } from "./metadata.ts";
import type { StoredEvent } from "./types.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const metadata = systemMetadata("upcasting-test");
/** Appended as older code did: no version in the metadata. */
const appendAsStored = (streamId: string, events: { type: string; data: unknown }[]) =>
  db.pool.query("SELECT * FROM es.append($1::jsonb)", [
    JSON.stringify([
      {
        stream_id: streamId,
        stream_type: "booking",
        expected: "any",
        events: events.map((e) => ({ event_id: randomUUID(), event_type: e.type, data: e.data, metadata })),
      },
    ]),
  ]);

const OLD = [
  eventFixture("TicketingStarted", 1),
  eventFixture("TicketingFailed", 1),
  eventFixture("TicketingStarted", 2),
  eventFixture("TicketsIssued", 1),
  eventFixture("BookingVoided", 1),
];
const twin = (type: string) => eventFixture(type, currentVersion(type)).data;
const dataOf = (events: StoredEvent[]) => events.map((e) => ({ type: e.type, data: e.data }));
const EXPECTED = OLD.map((f) => ({ type: f.type, data: twin(f.type) }));

describe("upcasting on the event store's read path", () => {
  it("when events of older versions are stored, then readStream, readStreams, readFeed and fold answer them in their current shape", async () => {
    const store = new EventStore(db.pool);
    const streamId = `booking-${randomUUID()}`;
    await appendAsStored(streamId, OLD);

    expect(dataOf(await store.readStream(streamId))).toEqual(EXPECTED);
    expect(dataOf((await store.readStreams([streamId])).get(streamId) ?? [])).toEqual(EXPECTED);
    // The feed delivers a transaction once every older one of the cluster has ended (other tests' too): wait for it.
    let fromFeed: StoredEvent[] = [];
    for (let tries = 0; fromFeed.length < OLD.length && tries < 200; tries++) {
      if (tries > 0) await sleep(50);
      fromFeed = (await store.readFeed({ tx: 0n, gp: 0n }, 10_000)).filter((e) => e.streamId === streamId);
    }
    expect(dataOf(fromFeed)).toEqual(EXPECTED);
    const folded = await store.fold(streamId, (seen: unknown[], e) => [...seen, e.data], []);
    expect(folded.state).toEqual(EXPECTED.map((e) => e.data));
    // What is stored is never rewritten.
    const { rows } = await db.pool.query("SELECT data FROM es.events WHERE stream_id = $1 ORDER BY 1", [
      streamId,
    ]);
    expect(rows.map((r) => r.data)).toEqual(expect.arrayContaining(OLD.map((f) => f.data)));
  });

  it("when an event is appended, then its metadata records the version of its type written (none at version 1), and it reads back as written", async () => {
    const store = new EventStore(db.pool);
    const streamId = `booking-${randomUUID()}`;
    const current = ["BookingHeld", "TicketingStarted", "AncillariesStarted"].map((type) => ({
      type,
      data: (eventFixtures(type).at(-1) as { data: unknown }).data,
      metadata,
    }));
    await store.append({ streamId, expected: "no_stream", events: current });
    const { rows } = await db.pool.query<{ event_type: string; v: number | null }>(
      "SELECT event_type, (metadata->>'schema_version')::int AS v FROM es.events WHERE stream_id = $1 ORDER BY stream_position",
      [streamId],
    );
    expect(rows).toEqual([
      { event_type: "BookingHeld", v: null },
      { event_type: "TicketingStarted", v: 3 },
      { event_type: "AncillariesStarted", v: 2 },
    ]);
    expect(dataOf(await store.readStream(streamId))).toEqual(
      current.map(({ type, data }) => ({ type, data })),
    );
  });
});
