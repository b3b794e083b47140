import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import { TRAVELLER_EVENT_TYPES, TravellerEvent } from "@skyward/contracts/travellers";
import { defineProjection } from "@skyward/infra/projections/projection";
import { unsealSql } from "@skyward/infra/travellers/personal-data";

/** The columns a profile (jsonb `p`, null once its key is gone) fills, searched by name and document number. */
const PROFILE_COLUMNS = `p AS profile, p->>'first_name' AS first_name, p->>'last_name' AS last_name,
  (p->>'date_of_birth')::date AS date_of_birth,
  upper(concat_ws(' ', p->>'first_name', p->>'last_name', p->>'last_name' || ' ' || (p->>'first_name'),
    (SELECT string_agg(d->>'number', ' ') FROM jsonb_array_elements(coalesce(p->'documents', '[]')) d))) AS search`;

/**
 * The travellers the agency keeps (issue 23, item 4), unsealed with each traveller's key in the statement that writes
 * the row: an erased traveller (its key destroyed) is a placeholder with no personal field, and a rebuild after the
 * erasure cannot bring one back.
 */
export const travellers = defineProjection({
  name: "travellers",
  version: 1,
  eventTypes: TRAVELLER_EVENT_TYPES,
  tables: ["travellers"],
  setup: (t) => `
    CREATE TABLE ${t.travellers} (
      id text PRIMARY KEY, company_id text NOT NULL, agency_id text NOT NULL, demo_owner text,
      erased boolean NOT NULL DEFAULT false, profile jsonb, first_name text, last_name text, date_of_birth date,
      search text, created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.travellers} (company_id, last_name, first_name);
    CREATE INDEX ON ${t.travellers} (agency_id);
  `,
  async apply(writer, stored, t) {
    for (const e of stored.map((s) => parseEvent(TravellerEvent, s))) {
      const at = e.recordedAt;
      switch (e.type) {
        case "TravellerRegistered": {
          const d = e.data;
          await writer.query(
            `INSERT INTO ${t.travellers} (id, company_id, agency_id, demo_owner, erased, profile, first_name,
               last_name, date_of_birth, search, created_at, updated_at)
             SELECT $1, $2, $3, $4, s.profile IS NULL, s.profile, s.first_name, s.last_name, s.date_of_birth,
                    s.search, $7, $7
               FROM (SELECT ${PROFILE_COLUMNS} FROM (SELECT ${unsealSql("$1", "$5", "$6")} AS p) u) s
             ON CONFLICT (id) DO NOTHING`,
            [
              d.traveller_id,
              d.company_id,
              d.agency_id,
              d.demo_owner,
              d.personal.iv,
              d.personal.ciphertext,
              at,
            ],
          );
          break;
        }
        case "TravellerUpdated":
          await writer.query(
            `UPDATE ${t.travellers} r SET profile = s.profile, first_name = s.first_name, last_name = s.last_name,
                    date_of_birth = s.date_of_birth, search = s.search, erased = s.profile IS NULL, updated_at = $4
               FROM (SELECT ${PROFILE_COLUMNS} FROM (SELECT ${unsealSql("$1", "$2", "$3")} AS p) u) s
              WHERE r.id = $1`,
            [e.data.traveller_id, e.data.personal.iv, e.data.personal.ciphertext, at],
          );
          break;
        case "TravellerErased":
          await writer.query(
            `UPDATE ${t.travellers} SET erased = true, profile = NULL, first_name = NULL, last_name = NULL,
                    date_of_birth = NULL, search = NULL, updated_at = $2
              WHERE id = $1`,
            [e.data.traveller_id, at],
          );
          break;
        default:
          unhandledEvent(e);
      }
    }
  },
});
