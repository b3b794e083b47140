import type { ChannelCreated } from "@skyward/contracts/ticketing";
import { defineProjection } from "@skyward/infra/projections/projection";

/** Ticketing channels per agency, for finding an agency's channels (decisions still read the channel stream). */
export const channels = defineProjection({
  name: "channels",
  version: 1,
  eventTypes: ["ChannelCreated", "ChannelToggledByAdmin", "ChannelToggledBySupervisor", "ChannelDeleted"],
  tables: ["channels"],
  setup: (t) => `
    CREATE TABLE ${t.channels} (
      id text PRIMARY KEY, agency_id text NOT NULL, title text NOT NULL, currency text NOT NULL,
      form_of_payment text NOT NULL, active_by_admin boolean NOT NULL DEFAULT true,
      active_by_supervisor boolean NOT NULL DEFAULT true, deleted boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.channels} (agency_id);
  `,
  async apply(client, events, t) {
    for (const e of events) {
      const id = e.streamId.slice("channel-".length);
      const d = e.data as Record<string, unknown>;
      switch (e.type) {
        case "ChannelCreated": {
          const c = d as unknown as ChannelCreated;
          await client.query(
            `INSERT INTO ${t.channels} (id, agency_id, title, currency, form_of_payment, created_at)
             VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (id) DO NOTHING`,
            [c.channel_id, c.agency_id, c.title, c.currency, c.form_of_payment, e.recordedAt],
          );
          break;
        }
        case "ChannelToggledByAdmin":
          await client.query(`UPDATE ${t.channels} SET active_by_admin = $2 WHERE id = $1`, [id, d.active]);
          break;
        case "ChannelToggledBySupervisor":
          await client.query(`UPDATE ${t.channels} SET active_by_supervisor = $2 WHERE id = $1`, [
            id,
            d.active,
          ]);
          break;
        case "ChannelDeleted":
          await client.query(`UPDATE ${t.channels} SET deleted = true WHERE id = $1`, [id]);
          break;
      }
    }
  },
});
