import { DEADLINE_EVENT_TYPES, DeadlineEvent } from "@skyward/contracts/deadline-events";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import { defineProjection } from "@skyward/infra/projections/projection";

/**
 * The in-app notices of the ticketing-deadline watchdog: a held booking reminded of its time limit, and one it
 * cancelled automatically. Scoped like bookings (agency, company, agent, fake) by the query that reads them.
 */
export const timeLimitNotices = defineProjection({
  name: "time_limit_notices",
  version: 2,
  eventTypes: DEADLINE_EVENT_TYPES,
  tables: ["time_limit_notices"],
  setup: (t) => `
    CREATE TABLE ${t.time_limit_notices} (
      locator text PRIMARY KEY, agency_id text NOT NULL, company_id text NOT NULL, agent_id text NOT NULL,
      fake_booking boolean NOT NULL, time_limit timestamptz NOT NULL, reminded_at timestamptz,
      auto_cancel_at timestamptz, auto_cancelled_at timestamptz, operation_id text
    );
    CREATE INDEX ON ${t.time_limit_notices} (company_id, time_limit);
    CREATE INDEX ON ${t.time_limit_notices} (agency_id, time_limit);
    -- The drain of the watchdog's mails reads the reminders still running and the last day's cancellations
    -- (drainReminderMails), not every notice ever.
    CREATE INDEX ON ${t.time_limit_notices} (time_limit) WHERE reminded_at IS NOT NULL AND auto_cancelled_at IS NULL;
    CREATE INDEX ON ${t.time_limit_notices} (auto_cancelled_at) WHERE auto_cancelled_at IS NOT NULL;
  `,
  async apply(writer, stored, t) {
    for (const e of stored.map((s) => parseEvent(DeadlineEvent, s))) {
      const d = e.data;
      const scope = [d.locator, d.agency_id, d.company_id, d.agent_id, d.fake_booking, d.time_limit];
      switch (e.type) {
        case "TimeLimitReminderSent":
          await writer.query(
            `INSERT INTO ${t.time_limit_notices} AS n (locator, agency_id, company_id, agent_id, fake_booking,
               time_limit, reminded_at, auto_cancel_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (locator) DO UPDATE SET reminded_at = EXCLUDED.reminded_at,
               auto_cancel_at = EXCLUDED.auto_cancel_at`,
            [...scope, e.data.at, e.data.auto_cancel_at],
          );
          break;
        case "HeldBookingAutoCancelled":
          await writer.query(
            `INSERT INTO ${t.time_limit_notices} AS n (locator, agency_id, company_id, agent_id, fake_booking,
               time_limit, auto_cancelled_at, operation_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (locator) DO UPDATE SET auto_cancelled_at = EXCLUDED.auto_cancelled_at,
               operation_id = EXCLUDED.operation_id`,
            [...scope, e.data.at, e.data.operation_id],
          );
          break;
        default:
          unhandledEvent(e);
      }
    }
  },
});
