import {
  autoCancelDueAt,
  DeadlineEvent,
  type HeldBookingAutoCancelled,
  reminderDueAt,
  type TimeLimitReminderSent,
} from "@skyward/contracts/deadline-events";
import { Language } from "@skyward/contracts/ids";
import { inTransaction } from "@skyward/infra/db";
import { runCommand } from "@skyward/infra/event-store/command";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { DomainError } from "@skyward/infra/http/errors";
import { type ActiveBooking, bookingStream, evolveBooking, initialBooking } from "../bookings/booking.ts";
import { systemActor } from "../bookings/execute.ts";
import { runSupplierOperation } from "../bookings/supplier-operation.ts";
import type { CommandDeps } from "../deps.ts";
import { agencyStream, evolveAgency, noAgency } from "../directory/agency.ts";
import {
  type DeadlineCommand,
  deadlineStream,
  decideDeadline,
  evolveDeadline,
  initialDeadline,
} from "./deadline.ts";
import { timeLimitReminderMail } from "./messages.ts";

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
  const autoCancel = await agencyCancelsHeld(deps, booking.agency_id);
  if (now < reminderDueAt(new Date(booking.held_at), timeLimit)) return "none";
  // Never cancelled unannounced: the reminder goes first, whichever step runs first.
  const reminded = await remind(deps, booking, autoCancel ? cancelAt : null, traceId);
  if (stage === "remind" || !autoCancel || now < cancelAt || now >= timeLimit)
    return reminded ? "reminded" : "none";
  return (await autoCancelHeld(deps, booking, traceId)) ? "cancelled" : reminded ? "reminded" : "none";
}

async function agencyCancelsHeld(deps: CommandDeps, agencyId: string): Promise<boolean> {
  const { state } = await deps.store.fold(agencyStream(agencyId), evolveAgency, noAgency);
  return state.status === "active" && state.flags.auto_cancel_held_on;
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
 * Queues a recorded reminder's e-mail at most once: its app.reminder_mails row and its send-mail job are written in
 * one transaction, so no crash separates them; a reminder whose row exists was queued already. False when it was.
 */
export async function queueReminderMail(
  deps: CommandDeps,
  reminder: TimeLimitReminderSent,
  route: string,
  traceId: string,
): Promise<boolean> {
  const { rows } = await deps.pool.query<{ language: string }>(
    "SELECT language FROM read.users WHERE id = $1",
    [reminder.agent_id],
  );
  const language = Language.catch("en").parse(rows[0]?.language);
  return inTransaction(deps.pool, async (client) => {
    const claimed = await client.query(
      "INSERT INTO app.reminder_mails (locator) VALUES ($1) ON CONFLICT (locator) DO NOTHING",
      [reminder.locator],
    );
    if (claimed.rowCount === 0) return false;
    // An agent without a known address gets the in-app notice only; the row says the reminder is settled.
    if (!reminder.emailed_to) return true;
    const mail = timeLimitReminderMail(reminder.emailed_to, language, {
      locator: reminder.locator,
      route,
      timeLimit: new Date(reminder.time_limit),
      autoCancelAt: reminder.auto_cancel_at ? new Date(reminder.auto_cancel_at) : null,
    });
    const jobId = await deps.jobs.sendIn(client, "send-mail", mail, { traceId });
    await client.query("UPDATE app.reminder_mails SET job_id = $2 WHERE locator = $1", [
      reminder.locator,
      jobId,
    ]);
    return true;
  });
}

/**
 * The outbox's drain, run by the deadline sweep: reminders recorded (the notices view lists them) whose e-mail was
 * never queued, because the process died between the two, get it now. Returns how many were queued.
 */
export async function drainReminderMails(deps: CommandDeps, traceId: string): Promise<number> {
  const { rows } = await deps.pool.query<{ locator: string }>(
    `SELECT n.locator FROM read.time_limit_notices n
      WHERE n.reminded_at IS NOT NULL AND n.time_limit > $1
        AND NOT EXISTS (SELECT 1 FROM app.reminder_mails m WHERE m.locator = n.locator)
      ORDER BY n.time_limit LIMIT 100`,
    [deps.now()],
  );
  let queued = 0;
  for (const { locator } of rows) {
    const events = await deps.store.readStream(deadlineStream(locator));
    const recorded = events.map((e) => DeadlineEvent.parse({ type: e.type, data: e.data }));
    const reminder = recorded.find((e) => e.type === "TimeLimitReminderSent");
    if (reminder?.type !== "TimeLimitReminderSent") continue;
    const { state: booking } = await deps.store.fold(bookingStream(locator), evolveBooking, initialBooking);
    const route = booking.status === "none" ? locator : booking.fare.route;
    if (await queueReminderMail(deps, reminder.data, route, traceId)) queued++;
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
    if (error instanceof DomainError && error.status === 422) return false;
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
  await recordDeadline(deps, booking, { type: "RecordAutoCancel", cancelled }, traceId);
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
      appends:
        events.length > 0
          ? [
              {
                streamId: stream,
                expected: version === 0 ? ("no_stream" as const) : version,
                events: events.map((e) => ({ ...e, metadata })),
              },
            ]
          : [],
      result: events,
    };
  });
  return result;
}
