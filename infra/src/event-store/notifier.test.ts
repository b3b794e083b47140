// This process's NOTIFYs on one pool go together (issue 26): an append's wake-up and its streams' change notice are
// one statement, and what is asked for while one is in flight goes together in the next; all of it is heard by the
// other processes, against a real PostgreSQL.
import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { countingPool, createTestDatabase, type TestDatabase } from "../testing.ts";
import { appendNotifications, ChangeNotices, shareAppends } from "./change-notices.ts";
import { WrongExpectedVersionError } from "./errors.ts";
import { EventStore } from "./event-store.ts";
import { systemMetadata } from "./metadata.ts";
import { notifyStatements } from "./notifier.ts";
import { Wakeup } from "./wakeup.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const metadata = systemMetadata("notifier-test");

/** Another process's listeners: the keys it heard changed, and how many wake-ups. */
async function anotherProcess() {
  const notices = new ChangeNotices(db.pool);
  const wakeup = new Wakeup();
  const heard: string[] = [];
  let wakes = 0;
  const stops = [
    await notices.listen(db.url),
    await wakeup.listen(db.url),
    async () => {
      offChange();
      offWake();
    },
  ];
  const offChange = notices.onChange((keys) => {
    if (keys !== "all") heard.push(...keys);
  });
  const offWake = wakeup.onWake(() => {
    wakes++;
  });
  return {
    heard,
    wakes: () => wakes,
    /** Waits until `done` holds (NOTIFYs arrive within milliseconds). */
    until: async (done: () => boolean) => {
      for (let i = 0; i < 200 && !done(); i++) await sleep(10);
      expect(done()).toBe(true);
    },
    stop: async () => {
      for (const stop of stops) await stop();
    },
  };
}

describe("the NOTIFYs of a process", () => {
  it("when an append commits, then its wake-up and its stream's change notice are heard elsewhere, sent as one statement", async () => {
    const there = await anotherProcess();
    const wakeup = new Wakeup(db.pool);
    const store = new EventStore(db.pool, wakeup);
    const stopSharing = shareAppends(new ChangeNotices(db.pool));
    try {
      const streamId = `balance-${randomUUID()}`;
      const before = notifyStatements();
      await store.append({
        streamId,
        expected: "no_stream",
        events: [{ type: "Added", data: { n: 1 }, metadata }],
      });
      await there.until(() => there.heard.includes(streamId) && there.wakes() > 0);
      expect(notifyStatements() - before).toBe(1);
    } finally {
      stopSharing();
      await there.stop();
    }
  });

  it("when notices are asked for while one is in flight, then they go together in the next statement and all are heard", async () => {
    const there = await anotherProcess();
    const notices = new ChangeNotices(db.pool);
    try {
      const keys = Array.from({ length: 4 }, () => `key-${randomUUID()}`);
      const before = notifyStatements();
      notices.announce([keys[0] as string]);
      // The first statement is on its way; the next three asks wait for it, then go as one.
      await nextTurn();
      notices.announce([keys[1] as string]);
      notices.announce([keys[2] as string, keys[3] as string]);
      await there.until(() => keys.every((k) => there.heard.includes(k)));
      expect(notifyStatements() - before).toBe(2);
    } finally {
      await there.stop();
    }
  });
});

describe("an append's NOTIFYs in its own statement (EventStore's notify)", () => {
  /** A store as the app's split processes run it: group commit, the append's NOTIFYs in its statement. */
  function notifyingStore() {
    const { pool, statements } = countingPool(db.pool);
    const notices = new ChangeNotices(pool);
    const store = new EventStore(pool, new Wakeup(pool), 5000, {
      groupCommit: true,
      notify: appendNotifications(notices),
    });
    return { store, statements, stopSharing: shareAppends(notices) };
  }

  /** Runs `test` with a notifying store here and a listening process there, both stopped after it. */
  async function withListener(
    test: (
      there: Awaited<ReturnType<typeof anotherProcess>>,
      here: Omit<ReturnType<typeof notifyingStore>, "stopSharing">,
    ) => Promise<void>,
  ): Promise<void> {
    const there = await anotherProcess();
    const { stopSharing, ...here } = notifyingStore();
    try {
      await test(there, here);
    } finally {
      stopSharing();
      await there.stop();
    }
  }

  it("when an append commits, then its wake-up and change notice are heard elsewhere, and the append was the only statement", () =>
    withListener(async (there, { store, statements }) => {
      const streamId = `balance-${randomUUID()}`;
      const before = notifyStatements();
      await store.append({
        streamId,
        expected: "no_stream",
        events: [{ type: "Added", data: { n: 1 }, metadata }],
      });
      await there.until(() => there.heard.includes(streamId) && there.wakes() > 0);
      expect(statements()).toBe(1);
      expect(notifyStatements() - before).toBe(0);
    }));

  it("when commands append at once through group commit, then every stream is announced and nothing but their appends is sent", () =>
    withListener(async (there, { store, statements }) => {
      const streams = Array.from({ length: 12 }, () => `balance-${randomUUID()}`);
      const before = notifyStatements();
      await Promise.all(
        streams.map((streamId) =>
          store.append({ streamId, expected: "no_stream", events: [{ type: "Added", data: {}, metadata }] }),
        ),
      );
      await there.until(() => streams.every((s) => there.heard.includes(s)));
      expect(statements()).toBeLessThan(12);
      expect(notifyStatements() - before).toBe(0);
    }));

  it("when an append is refused, then nothing is heard of it", () =>
    withListener(async (there, { store }) => {
      const refused = `balance-${randomUUID()}`;
      const wakesBefore = there.wakes();
      await expect(
        store.append({ streamId: refused, expected: 3, events: [{ type: "Added", data: {}, metadata }] }),
      ).rejects.toBeInstanceOf(WrongExpectedVersionError);
      // A committed append after it is heard: the refused one, sent before, would have been heard by then.
      const committed = `balance-${randomUUID()}`;
      await store.append({
        streamId: committed,
        expected: "no_stream",
        events: [{ type: "Added", data: {}, metadata }],
      });
      // Its change notice and its wake-up reach the other process as two messages: both are waited for (a whole run
      // saw the notice counted before the wake-up).
      await there.until(() => there.heard.includes(committed) && there.wakes() > wakesBefore);
      expect(there.heard).not.toContain(refused);
      expect(there.wakes() - wakesBefore).toBe(1);
    }));
});
