import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import { ITINERARY_EVENT_TYPES, ItineraryEvent } from "@skyward/contracts/itinerary";
import { defineProjection } from "@skyward/infra/projections/projection";

/** Every itinerary e-mail of a booking (who sent it, to whom, when), and its schedule-change mails, for its page's history. */
export const itineraryMails = defineProjection({
  name: "itinerary_mails",
  version: 2,
  eventTypes: ITINERARY_EVENT_TYPES,
  tables: ["itinerary_mails"],
  setup: (t) => `
    CREATE TABLE ${t.itinerary_mails} (
      mail_id text PRIMARY KEY, locator text NOT NULL, agency_id text NOT NULL, company_id text NOT NULL,
      recipient text NOT NULL, note text, language text NOT NULL, reason text NOT NULL, by_user_id text,
      by_email text, at timestamptz NOT NULL
    );
    CREATE INDEX ON ${t.itinerary_mails} (locator, at);
    -- The sweep's drain reads the last day's mails (drainItineraryMails), not every mail ever sent.
    CREATE INDEX ON ${t.itinerary_mails} (at);
  `,
  // A feed batch's mails in one statement (a sweep records its batch's mails together: one INSERT each was, issue
  // 26); the first row of a mail id wins, as it did one event at a time.
  async apply(writer, stored, t) {
    const rows = stored.map((s) => {
      const e = parseEvent(ItineraryEvent, s);
      const d = e.data;
      const mail = {
        mail_id: d.mail_id,
        locator: d.locator,
        agency_id: d.agency_id,
        company_id: d.company_id,
        recipient: d.to,
        language: d.language,
        at: d.at,
      };
      switch (e.type) {
        case "ItineraryMailed":
          return {
            ...mail,
            note: e.data.note,
            reason: e.data.reason,
            by_user_id: e.data.by?.user_id ?? null,
            by_email: e.data.by?.email ?? null,
          };
        case "ScheduleChangeMailed":
          // Sent by the schedule-change sweep: no note, nobody asked.
          return { ...mail, note: null, reason: "schedule_change", by_user_id: null, by_email: null };
        default:
          return unhandledEvent(e);
      }
    });
    if (rows.length === 0) return;
    await writer.query(
      `INSERT INTO ${t.itinerary_mails} (mail_id, locator, agency_id, company_id, recipient, note, language, reason,
           by_user_id, by_email, at)
         SELECT x.mail_id, x.locator, x.agency_id, x.company_id, x.recipient, x.note, x.language, x.reason,
                x.by_user_id, x.by_email, x.at
           FROM jsonb_to_recordset($1::jsonb) AS x(mail_id text, locator text, agency_id text, company_id text,
                recipient text, note text, language text, reason text, by_user_id text, by_email text,
                at timestamptz)
       ON CONFLICT (mail_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  },
});
