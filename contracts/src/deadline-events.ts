import { z } from "zod";

/**
 * The ticketing-deadline watchdog's record of a held booking (stream `deadline-{locator}`): the reminder sent before
 * its time limit (once), and its automatic cancellation shortly before the airline would drop it, when the agency
 * asks for that (agency flag `auto_cancel_held_on`).
 */

/** A reminder goes out this long before the time limit (or halfway through a shorter hold). */
export const REMIND_BEFORE_MS = 60 * 60_000;
/** With the agency's setting on, a held booking is cancelled this long before the airline's time limit. */
export const AUTO_CANCEL_BEFORE_MS = 10 * 60_000;

/** When a booking held since `heldAt` until `timeLimit` gets its reminder: an hour before, or halfway for short holds. */
export function reminderDueAt(heldAt: Date, timeLimit: Date): Date {
  const halfway = heldAt.getTime() + (timeLimit.getTime() - heldAt.getTime()) / 2;
  return new Date(Math.max(timeLimit.getTime() - REMIND_BEFORE_MS, halfway));
}

/** When the watchdog cancels a held booking whose agency asks for it: the one rule for that moment, everywhere. */
export const autoCancelDueAt = (timeLimit: Date): Date =>
  new Date(timeLimit.getTime() - AUTO_CANCEL_BEFORE_MS);

/**
 * The moment a held booking is really lost, the deadline every screen and mail names: its agency's automatic
 * cancellation when the agency has one (`auto_cancel_held_on`), else the airline's time limit.
 */
export const heldUntil = (timeLimit: Date, autoCancel: boolean): Date =>
  autoCancel ? autoCancelDueAt(timeLimit) : timeLimit;

/** Whose booking it is: the notice is scoped like the booking (agency, company, agent; demo bookings to their agent). */
const BookingScope = z.object({
  locator: z.string(),
  agency_id: z.string(),
  company_id: z.string(),
  agent_id: z.string(),
  fake_booking: z.boolean(),
  time_limit: z.string(),
});

export const TimeLimitReminderSent = BookingScope.extend({
  at: z.string(),
  /** When the watchdog will cancel it, or null when the agency leaves that to the agent. */
  auto_cancel_at: z.string().nullable(),
  /** Whom the reminder was e-mailed to; null when the agent has no known address. */
  emailed_to: z.string().nullable(),
});
export type TimeLimitReminderSent = z.infer<typeof TimeLimitReminderSent>;

export const HeldBookingAutoCancelled = BookingScope.extend({
  at: z.string(),
  /** The cancel operation it ran (the booking stream's CancelStarted / BookingCancelled). */
  operation_id: z.string(),
});
export type HeldBookingAutoCancelled = z.infer<typeof HeldBookingAutoCancelled>;

export const DeadlineEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("TimeLimitReminderSent"), data: TimeLimitReminderSent }),
  z.object({ type: z.literal("HeldBookingAutoCancelled"), data: HeldBookingAutoCancelled }),
]);
export type DeadlineEvent = z.infer<typeof DeadlineEvent>;
export const DEADLINE_EVENT_TYPES = DeadlineEvent.options.map((o) => o.shape.type.value);

/** One in-app notice of `GET /time_limit_notices`: a held booking near its time limit, or one cancelled for it. */
export const TimeLimitNotice = z.object({
  locator: z.string(),
  kind: z.enum(["time_limit_near", "auto_cancelled"]),
  time_limit: z.string(),
  reminded_at: z.string().nullable(),
  auto_cancel_at: z.string().nullable(),
  auto_cancelled_at: z.string().nullable(),
  route: z.string().nullable(),
});
export type TimeLimitNotice = z.infer<typeof TimeLimitNotice>;
/** `GET /time_limit_notices` answers the notices the caller may see. */
export const TimeLimitNoticesResponse = z.object({ data: z.array(TimeLimitNotice) });
export type TimeLimitNoticesResponse = z.infer<typeof TimeLimitNoticesResponse>;
