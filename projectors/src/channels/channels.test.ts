// The channels read model from real events in a real PostgreSQL: switches folded within a batch must give the
// rows that applying the events one by one gives.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { ChannelCreated, ChannelEvent } from "@skyward/contracts/ticketing";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { channels } from "./channels.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

const created = (channelId: string, agencyId: string): ChannelCreated => ({
  channel_id: channelId,
  agency_id: agencyId,
  title: "Sandbox NDC",
  supplier: "sandbox",
  currency: "UAH",
  form_of_payment: "balance",
  void_window_hours: 24,
  credential_active: true,
  sources: { web: true, api: true, extension: true },
});

async function append(channelId: string, ...events: ChannelEvent[]): Promise<void> {
  const metadata = systemMetadata();
  for (const e of events)
    await store.append({ streamId: `channel-${channelId}`, expected: "any", events: [{ ...e, metadata }] });
}

async function rebuilt(batchSize: number, agencyId: string) {
  await rebuildProjection(db.pool, store, channels, { batchSize });
  const { rows } = await db.pool.query(
    `SELECT id, title, active_by_admin, active_by_supervisor, deleted FROM read.channels
      WHERE agency_id = $1 ORDER BY created_at`,
    [agencyId],
  );
  return rows;
}

describe("channels projection", () => {
  it("when switches flip several times and a channel is deleted, then a batch of all of them ends where the events one by one end", async () => {
    const agency = randomUUID();
    const [one, two] = [randomUUID(), randomUUID()];
    await append(
      one,
      { type: "ChannelCreated", data: created(one, agency) },
      { type: "ChannelToggledByAdmin", data: { active: false } },
      { type: "ChannelToggledBySupervisor", data: { active: false } },
      { type: "ChannelToggledByAdmin", data: { active: true } },
      { type: "ChannelCredentialChecked", data: { active: false } },
    );
    await append(
      two,
      { type: "ChannelCreated", data: created(two, agency) },
      { type: "ChannelToggledBySupervisor", data: { active: false } },
      { type: "ChannelDeleted", data: {} },
    );

    const oneByOne = await rebuilt(1, agency);
    const together = await rebuilt(1000, agency);

    expect(together).toEqual(oneByOne);
    expect(together).toEqual([
      { id: one, title: "Sandbox NDC", active_by_admin: true, active_by_supervisor: false, deleted: false },
      { id: two, title: "Sandbox NDC", active_by_admin: true, active_by_supervisor: false, deleted: true },
    ]);
  });
});
