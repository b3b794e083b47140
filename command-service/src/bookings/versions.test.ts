// The booking fold over events stored at older versions (the golden fixtures, as the code of their time wrote
// them), read through a real event store: each stream folds to the state of its current-shape twin.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { EventStore } from "@skyward/infra/event-store/event-store";
import {
  appendFixtures,
  bookingStreamFixtures,
  OLD_BOOKING_STREAMS,
} from "@skyward/infra/event-store/fixtures";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { evolveBooking, initialBooking } from "./booking.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe("the booking fold of older event versions", () => {
  it.each(Object.keys(OLD_BOOKING_STREAMS))(
    "when the stream %s is stored in its older shapes, then it folds to the state of its current-shape twin",
    async (name) => {
      const store = new EventStore(db.pool);
      const old = `booking-O${randomUUID().slice(0, 8)}`;
      const current = `booking-C${randomUUID().slice(0, 8)}`;
      await appendFixtures(db.pool, [
        { streamId: old, events: bookingStreamFixtures(name, "old"), stamped: false },
        { streamId: current, events: bookingStreamFixtures(name, "current"), stamped: true },
      ]);
      const expected = await store.fold(current, evolveBooking, initialBooking);
      expect(await store.fold(old, evolveBooking, initialBooking)).toEqual(expected);
      expect(expected.version).toBe(OLD_BOOKING_STREAMS[name]?.length);
      expect(expected.state.status).not.toBe("held");
    },
  );
});
