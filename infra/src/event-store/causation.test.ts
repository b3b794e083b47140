// Every stored event carries its causation (issue 14): set by the caller, or filled in by the append.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { EventStore } from "./event-store.ts";
import { systemMetadata } from "./metadata.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

it("the first event of an append is caused by its request, the others by that first event", async () => {
  const metadata = systemMetadata("trace-causation");
  const booking = `booking-${randomUUID()}`;
  const balance = `balance-${randomUUID()}`;
  await store.append([
    {
      streamId: booking,
      expected: "no_stream",
      events: [
        { type: "BookingHeld", data: {}, metadata },
        { type: "TicketsIssued", data: {}, metadata },
      ],
    },
    { streamId: balance, expected: "any", events: [{ type: "BalanceCharged", data: {}, metadata }] },
  ]);
  const [held, issued] = await store.readStream(booking);
  const [charged] = await store.readStream(balance);
  expect(held?.metadata.causation_id).toBe("trace-causation");
  expect(issued?.metadata.causation_id).toBe(held?.eventId);
  expect(charged?.metadata.causation_id).toBe(held?.eventId);
});

it("a causation the caller set is kept", async () => {
  const stream = `test-${randomUUID()}`;
  const cause = randomUUID();
  await store.append({
    streamId: stream,
    expected: "no_stream",
    events: [{ type: "Noted", data: {}, metadata: { ...systemMetadata(), causation_id: cause } }],
  });
  expect((await store.readStream(stream))[0]?.metadata.causation_id).toBe(cause);
});
