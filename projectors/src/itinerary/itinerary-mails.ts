import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import { ITINERARY_EVENT_TYPES, ItineraryEvent } from "@skyward/contracts/itinerary";
import { defineProjection } from "@skyward/infra/projections/projection";

/** Every itinerary e-mail of a booking (who sent it, to whom, when), and its schedule-change mails, for its page's history. */
export const itineraryMails = defineProjection({
  name: "itinerary_mails",
  version: 1,
  eventTypes: ITINERARY_EVENT_TYPES,
  tables: ["itinerary_mails"],
  setup: (t) => `
    CREATE TABLE ${t.itinerary_mails} (
      mail_id text PRIMARY KEY, locator text NOT NULL, agency_id text NOT NULL, company_id text NOT NULL,
      recipient text NOT NULL, note text, language text NOT NULL, reason text NOT NULL, by_user_id text,
      by_email text, at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.itinerary_mails} (locator, at);
  `,
  async apply(writer, stored, t) {
    for (const e of stored.map((s) => parseEvent(ItineraryEvent, s))) {
      const d = e.data;
      switch (e.type) {
        case "ItineraryMailed":
          await writer.query(
            `INSERT INTO ${t.itinerary_mails} (mail_id, locator, agency_id, company_id, recipient, note, language,
                 reason, by_user_id, by_email, at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (mail_id) DO NOTHING`,
            [
              d.mail_id,
              d.locator,
              d.agency_id,
              d.company_id,
              d.to,
              e.data.note,
              d.language,
              e.data.reason,
              e.data.by?.user_id ?? null,
              e.data.by?.email ?? null,
              d.at,
            ],
          );
          break;
        case "ScheduleChangeMailed":
          // Sent by the schedule-change sweep: no note, nobody asked.
          await writer.query(
            `INSERT INTO ${t.itinerary_mails} (mail_id, locator, agency_id, company_id, recipient, note, language,
                 reason, by_user_id, by_email, at)
               VALUES ($1, $2, $3, $4, $5, NULL, $6, 'schedule_change', NULL, NULL, $7) ON CONFLICT (mail_id) DO NOTHING`,
            [d.mail_id, d.locator, d.agency_id, d.company_id, d.to, d.language, d.at],
          );
          break;
        default:
          unhandledEvent(e);
      }
    }
  },
});
