import { USER_NOTIFICATION_EVENT_TYPES, UserNotificationEvent } from "@skyward/contracts/agent-notifications";
import { StoredBookingEvent } from "@skyward/contracts/booking-events";
import { HeldBookingAutoCancelled } from "@skyward/contracts/deadline-events";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { defineProjection, type Tables } from "@skyward/infra/projections/projection";

/**
 * Notifications to the agent (issue 24, item 2), derived from the bookings' events: tickets issued, a held booking
 * cancelled by the watchdog, an asynchronous booking confirmed or failed by the supplier, a schedule change. Each goes
 * to the booking's agent; a schedule change also to the agency's active supervisors (who answer it when the agent is
 * away). A user's switches (their `notifications-{user_id}` stream) decide, when the event is projected, whether it is
 * shown in the app and whether it is mailed (the mail itself is queued from here by the mail sweep, once per id).
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
    // Set-based per batch (issue 26): the batch's new bookings are one INSERT, sent first (a BookingHeld is its
    // stream's first event, so every notification of its booking comes after it anyway); the notifications are one
    // INSERT per run of events between two inbox events, each run sent before the inbox event that follows it, so a
    // switch turned off or a read mark applies to exactly the notifications projected before it, as one by one.
    const held: HeldRow[] = [];
    let notices: Notice[] = [];
    const later: { text: string; values: unknown[] }[] = [];
    const sendNotices = () => {
      if (notices.length > 0) later.push(notifyAll(t, notices));
      notices = [];
    };
    for (const s of stored) {
      if (s.type === "HeldBookingAutoCancelled") {
        const cancelled = HeldBookingAutoCancelled.parse(s.data);
        notices.push(notice(s, "auto_cancelled", cancelled.locator, null));
      } else if ((USER_NOTIFICATION_EVENT_TYPES as readonly string[]).includes(s.type)) {
        sendNotices();
        later.push(inboxStatement(t, s));
      } else {
        const outcome = bookingOutcome(s);
        if (outcome?.held) held.push(outcome.held);
        else if (outcome?.notice) notices.push(outcome.notice);
      }
    }
    sendNotices();
    if (held.length > 0)
      await writer.query(
        `INSERT INTO ${t.notification_bookings} (locator, agency_id, agent_id, route, fake_booking)
         SELECT locator, agency_id, agent_id, route, fake_booking
           FROM jsonb_to_recordset($1::jsonb)
             AS h(locator text, agency_id text, agent_id text, route text, fake_booking boolean)
         ON CONFLICT (locator) DO NOTHING`,
        [JSON.stringify(held)],
      );
    for (const { text, values } of later) await writer.query(text, values);
  },
});

/** A held booking's row (notification_bookings). */
interface HeldRow {
  locator: string;
  agency_id: string;
  agent_id: string;
  route: string;
  fake_booking: boolean;
}

/** A notification to make: its event, kind, booking and detail (one row per recipient). */
interface Notice {
  event_id: string;
  kind: string;
  locator: string;
  detail: string | null;
  at: string;
}

const notice = (s: StoredEvent, kind: string, locator: string, detail: string | null): Notice => ({
  event_id: s.eventId,
  kind,
  locator,
  detail,
  at: s.recordedAt.toISOString(),
});

/** What a booking event adds: its booking's row (BookingHeld), a notification, or nothing. */
function bookingOutcome(s: StoredEvent): { held?: HeldRow; notice?: Notice } | null {
  const e = StoredBookingEvent.parse({ type: s.type, data: s.data });
  const locator = s.streamId.slice("booking-".length);
  switch (e.type) {
    case "BookingHeld":
      return {
        held: {
          locator: e.data.locator,
          agency_id: e.data.agency_id,
          agent_id: e.data.agent_id,
          route: e.data.fare.route,
          fake_booking: e.data.fake_booking,
        },
      };
    case "TicketsIssued":
      return { notice: notice(s, "issued", locator, null) };
    case "BookingConfirmedByProvider":
      return { notice: notice(s, "booking_confirmed", locator, null) };
    case "BookingFailedByProvider":
      return { notice: notice(s, "booking_failed", locator, e.data.error ?? null) };
    case "ScheduleChanged":
      return { notice: notice(s, "schedule_change", locator, e.data.kind) };
    default:
      return null;
  }
}

/**
 * One notification per notice and recipient, with the recipient's switches as they stand now: none when both are
 * off. The agency's supervisors are read from the directory's users (who they are when the change is learnt).
 */
function notifyAll(t: Tables<Table>, notices: readonly Notice[]): { text: string; values: unknown[] } {
  return {
    text: `INSERT INTO ${t.notifications} (id, user_id, kind, locator, route, detail, at, in_app, mail)
     SELECT n.event_id || ':' || r.user_id, r.user_id, n.kind, b.locator, b.route, n.detail, n.at,
            coalesce(st.in_app, true), coalesce(st.mail, true)
       FROM jsonb_to_recordset($1::jsonb) AS n(event_id text, kind text, locator text, detail text, at timestamptz)
       JOIN ${t.notification_bookings} b ON b.locator = n.locator
       CROSS JOIN LATERAL (
         SELECT b.agent_id AS user_id
         UNION
         SELECT u.id FROM read.users u
          WHERE n.kind = 'schedule_change' AND NOT b.fake_booking AND u.agency_id = b.agency_id
            AND u.user_type = 'Supervisor' AND u.active
       ) r
       LEFT JOIN ${t.notification_settings} st ON st.user_id = r.user_id AND st.kind = n.kind
      WHERE coalesce(st.in_app, true) OR coalesce(st.mail, true)
     ON CONFLICT (id) DO NOTHING`,
    values: [JSON.stringify(notices)],
  };
}

function inboxStatement(t: Tables<Table>, s: StoredEvent): { text: string; values: unknown[] } {
  const e = parseEvent(UserNotificationEvent, s);
  switch (e.type) {
    case "NotificationSettingChanged":
      return {
        text: `INSERT INTO ${t.notification_settings} (user_id, kind, in_app, mail) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, kind) DO UPDATE SET in_app = EXCLUDED.in_app, mail = EXCLUDED.mail`,
        values: [e.data.user_id, e.data.kind, e.data.in_app, e.data.mail],
      };
    case "NotificationsMarkedRead":
      // Only the user's own: another user's ids in the mark match nothing.
      return {
        text: `UPDATE ${t.notifications} SET read_at = $2
          WHERE user_id = $1 AND read_at IS NULL AND ($3 OR id = ANY($4::text[]))`,
        values: [e.data.user_id, e.data.at, e.data.all, e.data.notification_ids],
      };
    default:
      return unhandledEvent(e);
  }
}
