import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { comparePositions, type FeedPosition, START_POSITION } from "@skyward/contracts/position";
import { EventStore } from "../event-store/event-store.ts";
import { systemMetadata } from "../event-store/metadata.ts";
import type { StoredEvent } from "../event-store/types.ts";
import { Wakeup } from "../event-store/wakeup.ts";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { SharedFeed } from "./shared-feed.ts";

const metadata = systemMetadata("shared-feed-test");
const positionOf = (e: StoredEvent): FeedPosition => ({ tx: e.transactionId, gp: e.globalPosition });

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe("a feed shared by the projectors of a process", () => {
  it("when several readers tail it while writers commit, hold transactions open and roll back, then each reads every committed event once and in order", async () => {
    const store = new EventStore(db.pool);
    const feed = new SharedFeed(store, 50); // a small window, so it is trimmed and restarted during the run
    const streams = Array.from({ length: 4 }, () => `shared-${randomUUID()}`);
    const committed: string[] = [];
    let writing = true;
    let stoppedAt = 0;
    // The feed's cut-off is the whole server's oldest running transaction (other test files' included), so a
    // reader waits for what was committed rather than stopping at the first empty read.
    const deadline = () => stoppedAt + 10_000;

    const writer = async (w: number) => {
      for (let i = 0; i < 40; i++) {
        const streamId = streams[(w + i) % streams.length] as string;
        const eventId = randomUUID();
        if (i % 7 === 3) {
          // An older transaction that stays open while others commit, then rolls back or commits.
          const client = await db.pool.connect();
          try {
            await client.query("BEGIN");
            await client.query("SELECT * FROM es.append($1::jsonb)", [
              JSON.stringify([
                {
                  stream_id: streamId,
                  stream_type: "shared",
                  expected: "any",
                  events: [{ event_id: eventId, event_type: "Noted", data: {}, metadata }],
                },
              ]),
            ]);
            await sleep(5 + Math.random() * 20);
            const commit = i % 2 === 0;
            await client.query(commit ? "COMMIT" : "ROLLBACK");
            if (commit) committed.push(eventId);
          } catch {
            await client.query("ROLLBACK").catch(() => {});
          } finally {
            client.release();
          }
          continue;
        }
        try {
          await store.append({
            streamId,
            expected: "any",
            events: [{ event_id: eventId, type: "Noted", data: {}, metadata }],
          });
          committed.push(eventId);
        } catch {
          // a stream-order conflict: this event was not written
        }
        await sleep(Math.random() * 3);
      }
    };

    const reader = async () => {
      const seen: StoredEvent[] = [];
      let at = START_POSITION;
      for (;;) {
        const { events: batch } = await feed.read(at, 7);
        for (const e of batch) {
          const previous = seen.at(-1);
          if (previous) expect(comparePositions(positionOf(previous), positionOf(e))).toBeLessThan(0);
          seen.push(e);
        }
        const last = batch.at(-1);
        if (last) at = positionOf(last);
        else if (!writing && committed.every((id) => seen.some((e) => e.eventId === id))) return seen;
        else if (!writing && Date.now() > deadline())
          return seen; // the assertions below name what is missing
        else await sleep(2);
      }
    };

    const readers = [reader(), reader(), reader()];
    await Promise.all(Array.from({ length: 6 }, (_, w) => writer(w)));
    writing = false;
    stoppedAt = Date.now();
    const results = await Promise.all(readers);
    const expected = [...committed].sort();
    for (const seen of results) {
      const ids = seen.map((e) => e.eventId).filter((id) => committed.includes(id));
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual(expected);
      // Each stream's events arrive in stream order.
      for (const streamId of streams) {
        const positions = seen.filter((e) => e.streamId === streamId).map((e) => e.streamPosition);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
      }
    }
    // All readers saw the same feed.
    expect(results[1]?.map((e) => e.eventId)).toEqual(results[0]?.map((e) => e.eventId));
  });

  it("when projectors at one place ask at once whether events wait behind a running transaction, then one query answers them all", async () => {
    let asked = 0;
    class CountingStore extends EventStore {
      override hasPendingAfter(after: FeedPosition): Promise<boolean> {
        asked++;
        return super.hasPendingAfter(after);
      }
    }
    const feed = new SharedFeed(new CountingStore(db.pool));
    const streamId = `pending-${randomUUID()}`;
    const held = await db.pool.connect();
    try {
      // An append left open, then one committed after it: the committed event waits behind the open one.
      await held.query("BEGIN");
      await held.query("SELECT * FROM es.append($1::jsonb)", [
        JSON.stringify([
          {
            stream_id: `${streamId}-held`,
            stream_type: "pending",
            expected: "any",
            events: [{ event_id: randomUUID(), event_type: "Noted", data: {}, metadata }],
          },
        ]),
      ]);
      const store = new EventStore(db.pool);
      const head = (await store.headPosition()) ?? START_POSITION;
      await store.append({
        streamId,
        expected: "any",
        events: [{ event_id: randomUUID(), type: "Noted", data: {}, metadata }],
      });
      const answers = await Promise.all([1, 2, 3, 4].map(() => feed.hasPendingAfter(head)));
      expect(answers).toEqual([true, true, true, true]);
      expect(asked).toBe(1);
      // Asked again later, it asks the store again: nothing is remembered past the question.
      expect(await feed.hasPendingAfter(head)).toBe(true);
      expect(asked).toBe(2);
      // A read of the head answers the same question with its page, on the same snapshot (issue 26).
      expect(await feed.read(head, 10)).toEqual({ events: [], pending: true });
      expect(await store.readFeedPage(head, 10)).toEqual({ events: [], pending: true });
    } finally {
      await held.query("ROLLBACK");
      held.release();
    }
  });

  it("when the head is read with nothing held back, then the page says so and carries the events in feed order", async () => {
    const store = new EventStore(db.pool);
    // The head is what lies below the whole server's oldest running transaction: the previous test's append (held
    // behind its rolled-back one) may pass that cut-off only now. Take the head once nothing is held back.
    const quiet = Date.now() + 10_000;
    let head = (await store.headPosition()) ?? START_POSITION;
    while ((await store.hasPendingAfter(head)) && Date.now() < quiet) {
      await sleep(20);
      head = (await store.headPosition()) ?? START_POSITION;
    }
    expect(await store.readFeedPage(head, 10)).toEqual({ events: [], pending: false });
    const streamId = `page-${randomUUID()}`;
    await store.append({
      streamId,
      expected: "any",
      events: [1, 2, 3].map((n) => ({ event_id: randomUUID(), type: "Noted", data: { n }, metadata })),
    });
    // The cut-off is the whole server's oldest running transaction (other test files' included): until it passes
    // these commits the page is empty and says pending; then it carries them all.
    const deadline = Date.now() + 10_000;
    let page = await store.readFeedPage(head, 10);
    while (page.pending && Date.now() < deadline) {
      expect(page.events).toEqual([]);
      await sleep(20);
      page = await store.readFeedPage(head, 10);
    }
    expect(page.pending).toBe(false);
    expect(page.events.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3]);
    expect(page.events).toEqual(await store.readFeed(head, 10));
    expect((await store.readFeedPage(head, 2)).events).toEqual(page.events.slice(0, 2));
  });

  it("when projectors come to the head one after another with no wake-up between, then one query answers them all; a wake-up, or a moment, makes the next read ask again", async () => {
    let pages = 0;
    class CountingStore extends EventStore {
      override readFeedPage(after: FeedPosition, limit: number) {
        pages++;
        return super.readFeedPage(after, limit);
      }
    }
    const wakeup = new Wakeup();
    const store = new CountingStore(db.pool, wakeup);
    const feed = new SharedFeed(store, 5000, wakeup);
    try {
      // A head with nothing held back (the cut-off is the whole server's oldest running transaction).
      const quiet = Date.now() + 10_000;
      let head = (await store.headPosition()) ?? START_POSITION;
      while ((await store.hasPendingAfter(head)) && Date.now() < quiet) {
        await sleep(20);
        head = (await store.headPosition()) ?? START_POSITION;
      }
      const before = pages;
      expect(await feed.read(head, 100)).toEqual({ events: [], pending: false });
      // Projectors done with their batch at different moments, each at the head.
      expect(await feed.read(head, 100)).toEqual({ events: [], pending: false });
      expect(await feed.read(head, 100)).toEqual({ events: [], pending: false });
      expect(pages - before).toBe(1);

      // An append wakes the feed (store.append pings the wake-up): the next read asks and finds it.
      const streamId = `head-${randomUUID()}`;
      await store.append({
        streamId,
        expected: "any",
        events: [{ event_id: randomUUID(), type: "Noted", data: {}, metadata }],
      });
      const deadline = Date.now() + 10_000;
      let page = await feed.read(head, 100);
      while (page.events.length === 0 && Date.now() < deadline) {
        await sleep(20);
        page = await feed.read(head, 100);
      }
      expect(page.events.map((e) => e.streamId)).toEqual([streamId]);
      // Read from the window by a projector behind, the page says the head lies right after it.
      const atNewHead = pages;
      expect(await feed.read(head, 100)).toEqual({ events: page.events, pending: false });
      const last = page.events.at(-1) as StoredEvent;
      expect(await feed.read(positionOf(last), 100)).toEqual({ events: [], pending: false });
      expect(pages).toBe(atNewHead);

      // Trusted a moment only: a NOTIFY missed costs a poll, never a stall.
      await sleep(150);
      await feed.read(positionOf(last), 100);
      expect(pages).toBe(atNewHead + 1);
    } finally {
      feed.close();
    }
  });
});
