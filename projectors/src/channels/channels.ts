import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import { CHANNEL_EVENT_TYPES, type ChannelCreated, ChannelEvent } from "@skyward/contracts/ticketing";
import { defineProjection } from "@skyward/infra/projections/projection";

/** What a batch changed on one channel; a switch flipped twice in the batch keeps its last position. */
interface ChannelChange {
  id: string;
  active_by_admin?: boolean;
  active_by_supervisor?: boolean;
  deleted?: boolean;
}

/** Ticketing channels per agency, for finding an agency's channels (decisions still read the channel stream). */
export const channels = defineProjection({
  name: "channels",
  version: 1,
  eventTypes: CHANNEL_EVENT_TYPES,
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
  async apply(writer, stored, t) {
    const created: (ChannelCreated & { at: string })[] = [];
    const changes = new Map<string, ChannelChange>();
    const change = (id: string, patch: Omit<ChannelChange, "id">) =>
      changes.set(id, { ...changes.get(id), id, ...patch });
    for (const e of stored) {
      const event = parseEvent(ChannelEvent, e);
      const id = e.streamId.slice("channel-".length);
      switch (event.type) {
        case "ChannelCreated":
          created.push({ ...event.data, at: e.recordedAt.toISOString() });
          break;
        case "ChannelToggledByAdmin":
          change(id, { active_by_admin: event.data.active });
          break;
        case "ChannelToggledBySupervisor":
          change(id, { active_by_supervisor: event.data.active });
          break;
        case "ChannelDeleted":
          change(id, { deleted: true });
          break;
        case "ChannelCredentialChecked":
          break; // the list shows no credential state: issue decisions read it from the channel stream
        default:
          unhandledEvent(event);
      }
    }
    // Creations first: a channel's switches come after its creation, in this batch or a later one.
    if (created.length > 0)
      await writer.query(
        `INSERT INTO ${t.channels} (id, agency_id, title, currency, form_of_payment, created_at)
         SELECT channel_id, agency_id, title, currency, form_of_payment, at
           FROM jsonb_to_recordset($1::jsonb) AS x(channel_id text, agency_id text, title text, currency text,
                form_of_payment text, at timestamptz)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(created)],
      );
    if (changes.size > 0)
      await writer.query(
        `UPDATE ${t.channels} c
            SET active_by_admin = coalesce(x.active_by_admin, c.active_by_admin),
                active_by_supervisor = coalesce(x.active_by_supervisor, c.active_by_supervisor),
                deleted = coalesce(x.deleted, c.deleted)
           FROM jsonb_to_recordset($1::jsonb) AS x(id text, active_by_admin boolean, active_by_supervisor boolean,
                deleted boolean)
          WHERE c.id = x.id`,
        [JSON.stringify([...changes.values()])],
      );
  },
});
