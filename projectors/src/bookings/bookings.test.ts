// The bookings read model from events stored at older versions (the golden fixtures, as the code of their time
// wrote them) in a real PostgreSQL: each stream gives the rows its current-shape twin gives.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { EventStore } from "@skyward/infra/event-store/event-store";
import {
  appendFixtures,
  bookingStreamFixtures,
  OLD_BOOKING_STREAMS,
} from "@skyward/infra/event-store/fixtures";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { bookings } from "./bookings.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

/** A booking's row as JSON, its locator left out (the two streams differ only in it). */
async function row(locator: string): Promise<Record<string, unknown>> {
  const { rows } = await db.pool.query<{ row: Record<string, unknown> }>(
    "SELECT to_jsonb(b) - 'locator' AS row FROM read.bookings b WHERE locator = $1",
    [locator],
  );
  expect(rows).toHaveLength(1);
  return rows[0]?.row ?? {};
}

describe("bookings projection of older event versions", () => {
  it.each(Object.keys(OLD_BOOKING_STREAMS))(
    "when the stream %s is stored in its older shapes, then its row is the row of its current-shape twin",
    async (name) => {
      const old = `O${randomUUID().slice(0, 8)}`;
      const current = `C${randomUUID().slice(0, 8)}`;
      await appendFixtures(db.pool, [
        { streamId: `booking-${old}`, events: bookingStreamFixtures(name, "old"), stamped: false },
        { streamId: `booking-${current}`, events: bookingStreamFixtures(name, "current"), stamped: true },
      ]);
      await rebuildProjection(db.pool, store, bookings, { batchSize: 100 });
      const expected = await row(current);
      expect(await row(old)).toEqual(expected);
      // The twin's row is a booking's row: the fixtures' events reached it.
      expect(expected.status).not.toBe("held");
    },
  );
});
