import { USER_NOTIFICATION_EVENT_TYPES, UserNotificationEvent } from "@skyward/contracts/agent-notifications";
import { StoredBookingEvent } from "@skyward/contracts/booking-events";
import { HeldBookingAutoCancelled } from "@skyward/contracts/deadline-events";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import type { ProjectionWriter } from "@skyward/infra/db";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { defineProjection, type Tables } from "@skyward/infra/projections/projection";

/**
 * Notifications to the agent (issue 24, item 2), derived from the bookings' events: tickets issued, a held booking
 * cancelled by the watchdog, an asynchronous booking confirmed or failed by the supplier, a schedule change. Each goes
 * to the booking's agent; a schedule change also to the agency's active supervisors (who answer it when the agent is
 * away). A user's switches (their `notifications-{user_id}` stream) decide, when the event is projected, whether it is
 * shown in the app and whether it is mailed (the mail itself is queued from here by the booking sweep, once per id).
 * A notification's id is the event's id and the recipient's, so a rebuild writes the same ids and mails nothing again.
 */

const BOOKING_TYPES = [
  "BookingHeld",
  "TicketsIssued",
  "BookingConfirmedByProvider",
  "BookingFailedByProvider",
  "ScheduleChanged",
] as const;

type Table = "notifications" | "notification_bookings" | "notification_settings";

export const agentNotifications = defineProjection<Table>({
  name: "agent_notifications",
  version: 1,
  eventTypes: [...BOOKING_TYPES, "HeldBookingAutoCancelled", ...USER_NOTIFICATION_EVENT_TYPES],
  tables: ["notifications", "notification_bookings", "notification_settings"],
  setup: (t) => `
    CREATE TABLE ${t.notification_bookings} (
      locator text PRIMARY KEY, agency_id text NOT NULL, agent_id text NOT NULL, route text NOT NULL,
      fake_booking boolean NOT NULL
    );
    CREATE TABLE ${t.notification_settings} (
      user_id text NOT NULL, kind text NOT NULL, in_app boolean NOT NULL, mail boolean NOT NULL,
      PRIMARY KEY (user_id, kind)
    );
    CREATE TABLE ${t.notifications} (
      id text PRIMARY KEY, user_id text NOT NULL, kind text NOT NULL, locator text NOT NULL, route text,
      detail text, at timestamptz NOT NULL, in_app boolean NOT NULL, mail boolean NOT NULL, read_at timestamptz
    );
    CREATE INDEX ON ${t.notifications} (user_id, at DESC);
    CREATE INDEX ON ${t.notifications} (at) WHERE mail;
  `,
  async apply(writer, stored, t) {
    for (const s of stored) {
      if (s.type === "HeldBookingAutoCancelled") {
        const cancelled = HeldBookingAutoCancelled.parse(s.data);
        await notify(writer, t, s, "auto_cancelled", cancelled.locator, null);
      } else if ((USER_NOTIFICATION_EVENT_TYPES as readonly string[]).includes(s.type)) {
        await applyInbox(writer, t, s);
      } else await applyBooking(writer, t, s);
    }
  },
});

async function applyBooking(writer: ProjectionWriter, t: Tables<Table>, s: StoredEvent): Promise<void> {
  const e = StoredBookingEvent.parse({ type: s.type, data: s.data });
  const locator = s.streamId.slice("booking-".length);
  switch (e.type) {
    case "BookingHeld":
      await writer.query(
        `INSERT INTO ${t.notification_bookings} (locator, agency_id, agent_id, route, fake_booking)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (locator) DO NOTHING`,
        [e.data.locator, e.data.agency_id, e.data.agent_id, e.data.fare.route, e.data.fake_booking],
      );
      return;
    case "TicketsIssued":
      return notify(writer, t, s, "issued", locator, null);
    case "BookingConfirmedByProvider":
      return notify(writer, t, s, "booking_confirmed", locator, null);
    case "BookingFailedByProvider":
      return notify(writer, t, s, "booking_failed", locator, e.data.error ?? null);
    case "ScheduleChanged":
      return notify(writer, t, s, "schedule_change", locator, e.data.kind);
    default:
      return;
  }
}

/**
 * One notification per recipient, with the recipient's switches as they stand now: none when both are off. The
 * agency's supervisors are read from the directory's users (who they are when the change is learnt).
 */
async function notify(
  writer: ProjectionWriter,
  t: Tables<Table>,
  s: StoredEvent,
  kind: string,
  locator: string,
  detail: string | null,
): Promise<void> {
  await writer.query(
    `INSERT INTO ${t.notifications} (id, user_id, kind, locator, route, detail, at, in_app, mail)
     SELECT $1 || ':' || r.user_id, r.user_id, $2, b.locator, b.route, $3, $4,
            coalesce(st.in_app, true), coalesce(st.mail, true)
       FROM ${t.notification_bookings} b
       CROSS JOIN LATERAL (
         SELECT b.agent_id AS user_id
         UNION
         SELECT u.id FROM read.users u
          WHERE $2 = 'schedule_change' AND NOT b.fake_booking AND u.agency_id = b.agency_id
            AND u.user_type = 'Supervisor' AND u.active
       ) r
       LEFT JOIN ${t.notification_settings} st ON st.user_id = r.user_id AND st.kind = $2
      WHERE b.locator = $5 AND (coalesce(st.in_app, true) OR coalesce(st.mail, true))
     ON CONFLICT (id) DO NOTHING`,
    [s.eventId, kind, detail, s.recordedAt, locator],
  );
}

async function applyInbox(writer: ProjectionWriter, t: Tables<Table>, s: StoredEvent): Promise<void> {
  const e = parseEvent(UserNotificationEvent, s);
  switch (e.type) {
    case "NotificationSettingChanged":
      await writer.query(
        `INSERT INTO ${t.notification_settings} (user_id, kind, in_app, mail) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, kind) DO UPDATE SET in_app = EXCLUDED.in_app, mail = EXCLUDED.mail`,
        [e.data.user_id, e.data.kind, e.data.in_app, e.data.mail],
      );
      return;
    case "NotificationsMarkedRead":
      // Only the user's own: another user's ids in the mark match nothing.
      await writer.query(
        `UPDATE ${t.notifications} SET read_at = $2
          WHERE user_id = $1 AND read_at IS NULL AND ($3 OR id = ANY($4::text[]))`,
        [e.data.user_id, e.data.at, e.data.all, e.data.notification_ids],
      );
      return;
    default:
      unhandledEvent(e);
  }
}
