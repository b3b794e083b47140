import { afterAll, beforeAll, expect, it } from "@jest/globals";
import type { EventMetadata } from "@skyward/contracts/metadata";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { WrongExpectedVersionError } from "./errors.ts";
import { EventStore } from "./event-store.ts";

const metadata: EventMetadata = {
  actor: { user_id: null, role: "System" },
  scope: { agency_id: null, company_id: null },
  trace_id: "t",
  correlation_id: "c",
  causation_id: null,
  source: "system",
};
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

it("appends and reads back", async () => {
  const store = new EventStore(db.pool);
  const r = await store.append({
    streamId: "x-1",
    expected: "no_stream",
    events: [{ type: "A", data: { n: 1 }, metadata }],
  });
  expect(r.versions["x-1"]).toBe(1);
  await expect(
    store.append({ streamId: "x-1", expected: "no_stream", events: [{ type: "A", data: {}, metadata }] }),
  ).rejects.toBeInstanceOf(WrongExpectedVersionError);
  const feed = await store.readFeed({ tx: 0n, gp: 0n }, 10);
  expect(feed.map((e) => e.type)).toEqual(["A"]);
});
