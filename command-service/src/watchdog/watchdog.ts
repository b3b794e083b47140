import { notificationsStream } from "@skyward/contracts/agent-notifications";
import {
  autoCancelDueAt,
  DeadlineEvent,
  type HeldBookingAutoCancelled,
  reminderDueAt,
  type TimeLimitReminderSent,
} from "@skyward/contracts/deadline-events";
import { Language } from "@skyward/contracts/ids";
import { DEFAULT_TIME_ZONE } from "@skyward/contracts/time-zone";
import { inTransaction } from "@skyward/infra/db";
import { decidedAppends, runCommand } from "@skyward/infra/event-store/command";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { DomainError } from "@skyward/infra/http/errors";
import { isRefusal } from "@skyward/infra/refusal";
import { evolveInbox, noInbox } from "../agent-notifications/inbox.ts";
import { type ActiveBooking, bookingStream, evolveBooking, initialBooking } from "../bookings/booking.ts";
import { systemActor } from "../bookings/execute.ts";
import { runSupplierOperation } from "../bookings/supplier-operation.ts";
import type { CommandDeps } from "../deps.ts";
import { agencyStream, evolveAgency, noAgency } from "../directory/agency.ts";
import type { OutgoingMail } from "../notifications/ports.ts";
import {
  type DeadlineCommand,
  deadlineStream,
  decideDeadline,
  evolveDeadline,
  initialDeadline,
} from "./deadline.ts";
import { autoCancelledMail, timeLimitReminderMail } from "./messages.ts";

/**
 * The ticketing-deadline watchdog: a held booking gets one reminder (e-mail to its agent and an in-app notice, the
 * `deadline-{locator}` stream read by the time_limit_notices projection) before its time limit, and, when its
 * agency's `auto_cancel_held_on` is set, is cancelled through the ordinary cancel operation shortly before the
 * airline would drop it. The read model only finds candidates; each step is decided on the streams, once.
 */

export type WatchStage = "remind" | "cancel";

/** Held bookings whose reminder or automatic cancellation falls before `horizon`, with when each is due. */
export async function deadlinesDue(
  deps: CommandDeps,
  horizon: Date,
): Promise<{ locator: string; stage: WatchStage; due_at: Date }[]> {
  // Candidates only: the notices view may lag, which queues a step that then decides nothing.
  const { rows } = await deps.pool.query<{
    locator: string;
    time_limit: Date;
    created_at: Date;
    reminded: boolean;
  }>(
    `SELECT b.locator, b.time_limit, b.created_at, (n.reminded_at IS NOT NULL) AS reminded
       FROM read.bookings b LEFT JOIN read.time_limit_notices n ON n.locator = b.locator
      WHERE b.status = 'held' AND b.time_limit IS NOT NULL AND b.time_limit <= $1
        AND n.auto_cancelled_at IS NULL
      ORDER BY b.time_limit LIMIT 500`,
    [new Date(horizon.getTime() + 60 * 60_000)],
  );
  const due: { locator: string; stage: WatchStage; due_at: Date }[] = [];
  for (const row of rows) {
    const step = row.reminded
      ? { stage: "cancel" as const, due_at: autoCancelDueAt(row.time_limit) }
      : { stage: "remind" as const, due_at: reminderDueAt(row.created_at, row.time_limit) };
    if (step.due_at <= horizon) due.push({ locator: row.locator, ...step });
  }
  return due;
}

/**
 * One step of the watchdog for a booking, decided now: "reminded", "cancelled", or "none" (not held, not due, done
 * already, or the agency cancels nothing). A cancellation the airline refuses for now throws, to be retried.
 */
export async function watchTimeLimit(
  deps: CommandDeps,
  locator: string,
  stage: WatchStage,
  traceId: string,
): Promise<"reminded" | "cancelled" | "none"> {
  const { state: booking } = await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking);
  if (booking.status !== "held" || !booking.time_limit) return "none";
  const now = deps.now();
  const timeLimit = new Date(booking.time_limit);
  const cancelAt = autoCancelDueAt(timeLimit);
  const { autoCancel } = await agencyDeadlines(deps, booking.agency_id);
  if (now < reminderDueAt(new Date(booking.held_at), timeLimit)) return "none";
  // Never cancelled unannounced: the reminder goes first, whichever step runs first.
  const reminded = await remind(deps, booking, autoCancel ? cancelAt : null, traceId);
  if (stage === "remind" || !autoCancel || now < cancelAt || now >= timeLimit)
    return reminded ? "reminded" : "none";
  return (await autoCancelHeld(deps, booking, traceId)) ? "cancelled" : reminded ? "reminded" : "none";
}

/** Whether the agency cancels its held bookings itself, and the zone its mails write times in. */
async function agencyDeadlines(
  deps: CommandDeps,
  agencyId: string,
): Promise<{ autoCancel: boolean; timeZone: string }> {
  const { state } = await deps.store.fold(agencyStream(agencyId), evolveAgency, noAgency);
  return state.status === "active"
    ? { autoCancel: state.flags.auto_cancel_held_on, timeZone: state.time_zone }
    : { autoCancel: false, timeZone: DEFAULT_TIME_ZONE };
}

/**
 * Records the reminder once, then queues its e-mail. The event is the outbox: a crash before the e-mail is queued
 * leaves the reminder recorded without its row in app.reminder_mails, and the deadline sweep queues it then.
 */
async function remind(
  deps: CommandDeps,
  booking: ActiveBooking,
  autoCancelAt: Date | null,
  traceId: string,
): Promise<boolean> {
  const { rows } = await deps.pool.query<{ email: string }>("SELECT email FROM read.users WHERE id = $1", [
    booking.agent_id,
  ]);
  const reminder: TimeLimitReminderSent = {
    ...scopeOf(booking),
    at: deps.now().toISOString(),
    auto_cancel_at: autoCancelAt?.toISOString() ?? null,
    emailed_to: rows[0]?.email ?? null,
  };
  const events = await recordDeadline(deps, booking, { type: "RecordReminder", reminder }, traceId);
  if (events.length === 0) return false;
  await queueReminderMail(deps, reminder, booking.fare.route, traceId);
  return true;
}

/**
 * The watchdog's e-mail outboxes, one row per booking and mail: a row and its send-mail job are written in one
 * transaction, so no crash separates them, and a mail whose row exists was queued already.
 */
const OUTBOX = {
  reminder: {
    claim: "INSERT INTO app.reminder_mails (locator) VALUES ($1) ON CONFLICT (locator) DO NOTHING",
    queued: "UPDATE app.reminder_mails SET job_id = $2 WHERE locator = $1",
  },
  auto_cancel: {
    claim: "INSERT INTO app.auto_cancel_mails (locator) VALUES ($1) ON CONFLICT (locator) DO NOTHING",
    queued: "UPDATE app.auto_cancel_mails SET job_id = $2 WHERE locator = $1",
  },
} as const;

/**
 * Queues a watchdog mail of a booking at most once; `write` gets the agent's language and the agency's zone. An agent
 * without a known address gets the in-app notice only, and the row says the mail is settled. False when it was.
 */
async function queueOnce(
  deps: CommandDeps,
  outbox: keyof typeof OUTBOX,
  scope: { locator: string; agent_id: string; agency_id: string },
  to: string | null,
  write: (to: string, language: Language, timeZone: string) => OutgoingMail,
  traceId: string,
): Promise<boolean> {
  const { rows } = await deps.pool.query<{ language: string }>(
    "SELECT language FROM read.users WHERE id = $1",
    [scope.agent_id],
  );
  const language = Language.catch("en").parse(rows[0]?.language);
  const { timeZone } = await agencyDeadlines(deps, scope.agency_id);
  return inTransaction(deps.pool, async (client) => {
    const claimed = await client.query(OUTBOX[outbox].claim, [scope.locator]);
    if (claimed.rowCount === 0) return false;
    if (!to) return true;
    const jobId = await deps.jobs.sendIn(client, "send-mail", write(to, language, timeZone), { traceId });
    await client.query(OUTBOX[outbox].queued, [scope.locator, jobId]);
    return true;
  });
}

/** Queues a recorded reminder's e-mail at most once (app.reminder_mails). */
export function queueReminderMail(
  deps: CommandDeps,
  reminder: TimeLimitReminderSent,
  route: string,
  traceId: string,
): Promise<boolean> {
  return queueOnce(
    deps,
    "reminder",
    reminder,
    reminder.emailed_to,
    (to, language, timeZone) =>
      timeLimitReminderMail(to, language, timeZone, {
        locator: reminder.locator,
        route,
        timeLimit: new Date(reminder.time_limit),
        autoCancelAt: reminder.auto_cancel_at ? new Date(reminder.auto_cancel_at) : null,
      }),
    traceId,
  );
}

/** Queues the e-mail of a recorded automatic cancellation at most once (app.auto_cancel_mails), to the agent. */
async function queueAutoCancelMail(
  deps: CommandDeps,
  cancelled: HeldBookingAutoCancelled,
  route: string,
  traceId: string,
): Promise<boolean> {
  const { rows } = await deps.pool.query<{ email: string }>("SELECT email FROM read.users WHERE id = $1", [
    cancelled.agent_id,
  ]);
  // This mail is the agent's auto-cancel notification by mail (issue 24.2): the agent's switch for it decides.
  const { state: inbox } = await deps.store.fold(
    notificationsStream(cancelled.agent_id),
    evolveInbox,
    noInbox,
  );
  return queueOnce(
    deps,
    "auto_cancel",
    cancelled,
    inbox.auto_cancelled.mail ? (rows[0]?.email ?? null) : null,
    (to, language, timeZone) =>
      autoCancelledMail(to, language, timeZone, {
        locator: cancelled.locator,
        route,
        timeLimit: new Date(cancelled.time_limit),
        cancelledAt: new Date(cancelled.at),
      }),
    traceId,
  );
}

/**
 * The outboxes' drain, run by the deadline sweep: reminders and automatic cancellations recorded (the notices view
 * lists them) whose e-mail was never queued, because the process died between the two, get it now. Returns how many
 * were queued.
 */
export async function drainReminderMails(deps: CommandDeps, traceId: string): Promise<number> {
  const { rows } = await deps.pool.query<{ locator: string }>(
    // Two reads, each along an index of its own (the projection's): an OR of the two scanned every notice ever.
    `SELECT x.locator FROM (
       (SELECT n.locator, n.time_limit FROM read.time_limit_notices n
         WHERE n.reminded_at IS NOT NULL AND n.auto_cancelled_at IS NULL AND n.time_limit > $1
           AND NOT EXISTS (SELECT 1 FROM app.reminder_mails m WHERE m.locator = n.locator)
         ORDER BY n.time_limit LIMIT 100)
       UNION
       (SELECT n.locator, n.time_limit FROM read.time_limit_notices n
         WHERE n.auto_cancelled_at > $1::timestamptz - interval '1 day'
           AND NOT EXISTS (SELECT 1 FROM app.auto_cancel_mails m WHERE m.locator = n.locator)
         ORDER BY n.time_limit LIMIT 100)) x
      ORDER BY x.time_limit LIMIT 100`,
    [deps.now()],
  );
  let queued = 0;
  for (const { locator } of rows) {
    const events = await deps.store.readStream(deadlineStream(locator));
    const recorded = events.map((e) => DeadlineEvent.parse({ type: e.type, data: e.data }));
    const { state: booking } = await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking);
    const route = booking.status === "none" ? locator : booking.fare.route;
    // Once cancelled, only the cancellation's mail: a reminder then would name a deadline already gone.
    const cancelled = recorded.find((e) => e.type === "HeldBookingAutoCancelled");
    const reminder = recorded.find((e) => e.type === "TimeLimitReminderSent");
    const done =
      cancelled?.type === "HeldBookingAutoCancelled"
        ? await queueAutoCancelMail(deps, cancelled.data, route, traceId)
        : reminder?.type === "TimeLimitReminderSent"
          ? await queueReminderMail(deps, reminder.data, route, traceId)
          : false;
    if (done) queued++;
  }
  return queued;
}

/** Cancels through the ordinary cancel operation (claim, airline, record), then notes that the watchdog did it. */
async function autoCancelHeld(deps: CommandDeps, booking: ActiveBooking, traceId: string): Promise<boolean> {
  let run: Awaited<ReturnType<typeof runSupplierOperation>>;
  try {
    run = await runSupplierOperation(deps, systemActor(traceId), booking.locator, {
      start: (_booking, operationId) => ({ type: "StartCancel", operation_id: operationId, now: deps.now() }),
    });
  } catch (error) {
    // Issued, cancelled or being issued meanwhile: the agent acted, nothing for the watchdog to do.
    if (
      isRefusal(error) ? error.kind === "not_allowed" : error instanceof DomainError && error.status === 422
    )
      return false;
    throw error;
  }
  if (!run.outcome.ok)
    throw (
      run.outcome.error ?? new Error(`automatic cancel of ${booking.locator} failed: ${run.outcome.reason}`)
    );
  const cancelled: HeldBookingAutoCancelled = {
    ...scopeOf(booking),
    at: deps.now().toISOString(),
    operation_id: run.claimed.booking.operation?.id ?? "unknown",
  };
  const recorded = await recordDeadline(deps, booking, { type: "RecordAutoCancel", cancelled }, traceId);
  if (recorded.length > 0) await queueAutoCancelMail(deps, cancelled, booking.fare.route, traceId);
  return true;
}

const scopeOf = (booking: ActiveBooking) => ({
  locator: booking.locator,
  agency_id: booking.agency_id,
  company_id: booking.company_id,
  agent_id: booking.agent_id,
  fake_booking: booking.fake_booking,
  time_limit: new Date(booking.time_limit ?? 0).toISOString(),
});

async function recordDeadline(
  deps: CommandDeps,
  booking: ActiveBooking,
  command: DeadlineCommand,
  traceId: string,
): Promise<DeadlineEvent[]> {
  const stream = deadlineStream(booking.locator);
  const metadata = {
    ...systemMetadata(traceId),
    scope: { agency_id: booking.agency_id, company_id: booking.company_id },
  };
  const { result } = await runCommand(deps.store, async (cmd) => {
    const { state, version } = await cmd.load(stream, evolveDeadline, initialDeadline);
    const events = decideDeadline(command, state);
    return {
      appends: decidedAppends(stream, version, events, metadata),
      result: events,
    };
  });
  return result;
}
