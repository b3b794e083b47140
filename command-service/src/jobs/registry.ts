import { runReplay } from "@skyward/infra/audit/replay-runs";
import { type JobHandlers, type JobRunner, RetryLater, startJobRunner } from "@skyward/infra/jobs/runtime";
import { mailNotifications, sendNotificationMails } from "../agent-notifications/mails.ts";
import { bookingsAwaitingEmds, confirmEmds } from "../ancillaries/confirm-emds.ts";
import { purgeUnexecutedPlans } from "../assistant/purge.ts";
import { bookingsToAskAboutSchedule, checkScheduleChangeJob } from "../bookings/commands/schedule-change.ts";
import { reconcileOperations } from "../bookings/reconcile.ts";
import { bookingsDue, confirmBooking, expireBooking } from "../bookings/scheduler.ts";
import { releaseOrphanHolds } from "../bookings/supplier-holds.ts";
import type { CommandDeps } from "../deps.ts";
import { numberSaleDocuments } from "../invoices/numbering.ts";
import { composeStatementMail, queueStatementMails } from "../invoices/statement-mails.ts";
import { sendItineraryBatch } from "../itinerary/batch.ts";
import { composeItineraryMail } from "../itinerary/compose.ts";
import { drainItineraryMails, mailAndBooking, mailItinerariesOnIssue } from "../itinerary/itinerary.ts";
import type { Mailer } from "../notifications/port-types.ts";
import { notificationPorts } from "../notifications/ports.ts";
import { SmtpMailer } from "../notifications/smtp-mailer.ts";
import { runSalesReport } from "../sales/report-job.ts";
import { mailScheduleChanges } from "../watchdog/schedule-change-mails.ts";
import { deadlinesDue, drainReminderMails, watchTimeLimit } from "../watchdog/watchdog.ts";
import { commandJobs } from "./specs.ts";

export { type CommandJobs, commandJobs, openCommandJobs } from "./specs.ts";

export interface CommandJobOptions {
  /** How often the booking sweep looks for bookings due (expiry, confirmation). */
  sweepEveryMs: number;
  /**
   * How often the mail sweep queues the mails due. Shorter than the booking sweep's: a traveller's itinerary leaves
   * within about a second of the issue, and each sweep's batch of PDFs is a fifth of the size. With both sweeps at 5 s
   * the jobs process composed a burst of mails every 5 s; mails every second instead gave a lower p95 of every call of
   * the booking flow in each of three alternating pairs at 42 flows/s (issue 26).
   */
  mailEveryMs: number;
}

export function commandJobHandlers(
  deps: CommandDeps,
  options: CommandJobOptions,
  // The transport itself (no queue), for the send-mail job.
  mailer: Mailer = notificationPorts({ config: deps.config, pool: deps.pool, logger: deps.logger }).mailer,
): JobHandlers<CommandDeps, typeof commandJobs> {
  // Expiry jobs are queued this far ahead, so each runs at its time limit rather than at the next sweep.
  const lookaheadMs = Math.max(60_000, 2 * options.sweepEveryMs);
  return {
    async "expire-booking"({ locator }, deps, job) {
      if (await expireBooking(deps, locator, job.traceId)) job.logger.info({ locator }, "booking expired");
    },
    async "confirm-booking"({ locator }, deps, job) {
      const outcome = await confirmBooking(deps, locator, job.traceId);
      if (outcome === "in_progress") throw new RetryLater(`the supplier is still confirming ${locator}`);
      if (outcome === "settled") job.logger.info({ locator }, "supplier's confirmation recorded");
    },
    async "booking-sweep"(_payload, deps, job) {
      // The next sweep is queued first, so a failing sweep never ends the chain.
      await deps.jobs.send(
        "booking-sweep",
        {},
        { delayMs: options.sweepEveryMs, jobKey: "booking-sweep", jobKeyMode: "preserve_run_at" },
      );
      const now = deps.now();
      const due = await bookingsDue(deps, new Date(now.getTime() + lookaheadMs));
      // Delays, not times: the app's clock (deps.now) may differ from the database's, which runs the queue.
      for (const { locator, time_limit } of due.expiring)
        await deps.jobs.send(
          "expire-booking",
          { locator },
          {
            delayMs: Math.max(0, time_limit.getTime() - now.getTime()),
            jobKey: `expire-booking:${locator}`,
            jobKeyMode: "unsafe_dedupe",
            traceId: job.traceId,
          },
        );
      for (const locator of due.confirming)
        await deps.jobs.send(
          "confirm-booking",
          { locator },
          { jobKey: `confirm-booking:${locator}`, jobKeyMode: "unsafe_dedupe", traceId: job.traceId },
        );
      // Every sale document gets its invoice or credit note, numbered per agency without gaps.
      const documents = await numberSaleDocuments(deps, job.traceId);
      if (documents > 0) job.logger.info({ documents }, "invoices and credit notes numbered");
    },
    async "mail-sweep"(_payload, deps, job) {
      await deps.jobs.send(
        "mail-sweep",
        {},
        { delayMs: options.mailEveryMs, jobKey: "mail-sweep", jobKeyMode: "preserve_run_at" },
      );
      // Travellers' itineraries: on issue, and any recorded send whose job was lost with its process.
      const onIssue = await mailItinerariesOnIssue(deps, job.traceId);
      if (onIssue > 0) job.logger.info({ mailed: onIssue }, "itineraries mailed on issue");
      const late = await drainItineraryMails(deps, job.traceId);
      if (late > 0)
        job.logger.warn({ queued: late }, "itinerary e-mails queued late (lost with their process)");
      // The agents' notifications whose recipient wants them by mail, each queued once.
      const notified = await mailNotifications(deps, job.traceId);
      if (notified > 0) job.logger.info({ notified }, "notification e-mails queued");
    },
    async "time-limit-watch"({ locator, stage }, deps, job) {
      const done = await watchTimeLimit(deps, locator, stage, job.traceId);
      if (done !== "none") job.logger.info({ locator, done }, "ticketing-deadline watchdog");
    },
    async "deadline-sweep"(_payload, deps, job) {
      await deps.jobs.send(
        "deadline-sweep",
        {},
        { delayMs: options.sweepEveryMs, jobKey: "deadline-sweep", jobKeyMode: "preserve_run_at" },
      );
      const mailed = await drainReminderMails(deps, job.traceId);
      if (mailed > 0) job.logger.warn({ mailed }, "reminder e-mails queued late (lost with their process)");
      const now = deps.now();
      const due = await deadlinesDue(deps, new Date(now.getTime() + lookaheadMs));
      for (const { locator, stage, due_at } of due)
        await deps.jobs.send(
          "time-limit-watch",
          { locator, stage },
          {
            delayMs: Math.max(0, due_at.getTime() - now.getTime()),
            jobKey: `time-limit-watch:${stage}:${locator}`,
            jobKeyMode: "unsafe_dedupe",
            traceId: job.traceId,
          },
        );
    },
    async "confirm-emds"({ locator }, deps, job) {
      if ((await confirmEmds(deps, locator, job.traceId)) === "pending")
        throw new RetryLater(`the airline is still issuing EMDs of ${locator}`);
      job.logger.info({ locator }, "asynchronous EMDs recorded");
    },
    async "emd-sweep"(_payload, deps, job) {
      for (const locator of await bookingsAwaitingEmds(deps))
        await deps.jobs.send(
          "confirm-emds",
          { locator },
          { jobKey: `confirm-emds:${locator}`, jobKeyMode: "preserve_run_at", traceId: job.traceId },
        );
    },
    async "check-schedule-change"({ locator }, deps, job) {
      const { outcome } = await checkScheduleChangeJob(deps, locator, job.traceId);
      if (outcome === "recorded") job.logger.info({ locator }, "schedule change recorded");
    },
    async "schedule-change-sweep"(_payload, deps, job) {
      // The traveller's mail of each change waiting, and the agent's reminders while it waits (the watchdog's part).
      const mailed = await mailScheduleChanges(deps, job.traceId);
      if (mailed > 0) job.logger.info({ mailed }, "schedule-change e-mails queued");
      for (const locator of await bookingsToAskAboutSchedule(deps))
        await deps.jobs.send(
          "check-schedule-change",
          { locator },
          { jobKey: `check-schedule-change:${locator}`, jobKeyMode: "unsafe_dedupe", traceId: job.traceId },
        );
    },
    async "purge-search-pages"(_payload, deps) {
      await deps.searches.purge();
    },
    async "purge-assistant-plans"(_payload, deps, job) {
      const purged = await purgeUnexecutedPlans(deps.pool);
      if (purged > 0) job.logger.info({ purged }, "unexecuted assistant plans purged");
    },
    async "reconcile-operations"(_payload, deps, job) {
      const staleAfterMs = deps.config.OPERATION_STALE_AFTER_MS;
      const outcome = await reconcileOperations(deps, { staleAfterMs });
      if (outcome.completed + outcome.undone > 0) job.logger.info(outcome, "supplier operations reconciled");
      // Seats held for bookings whose append never committed (a full disk, a crash).
      const holds = await releaseOrphanHolds(deps, { staleAfterMs, traceId: job.traceId });
      if (holds.released > 0) job.logger.warn(holds, "orphan supplier holds released");
    },
    async "send-mail"(mail) {
      await mailer.send(mail);
    },
    async "send-mails"({ mails }, deps, job) {
      const sent = await sendNotificationMails(deps, mailer, mails, job);
      if (sent > 0) job.logger.info({ sent, of: mails.length }, "notification e-mails sent");
    },
    async "send-itinerary"({ locator, mail_id }, deps, job) {
      const found = await mailAndBooking(deps, locator, mail_id);
      if (!found) {
        job.logger.error({ locator, mail_id }, "itinerary e-mail of an unknown booking or send: not sent");
        return;
      }
      await mailer.send({
        ...(await composeItineraryMail(deps, found.booking, found.mail)),
        traceId: job.traceId,
      });
    },
    async "send-itineraries"({ mails }, deps, job) {
      const sent = await sendItineraryBatch(deps, mailer, mails, job);
      if (sent > 0) job.logger.info({ sent, of: mails.length }, "itineraries on issue sent");
    },
    async "statement-mails"({ month }, deps, job) {
      const queued = await queueStatementMails(deps, month, job.traceId);
      if (queued > 0) job.logger.info({ queued }, "monthly statements queued");
    },
    async "send-statement"({ company_id, month, to }, deps, job) {
      const mail = await composeStatementMail(deps, company_id, month, to);
      if (!mail) {
        job.logger.error({ company_id, month }, "statement of an unknown company: not sent");
        return;
      }
      await mailer.send({ ...mail, traceId: job.traceId });
    },
    "sales-report": runSalesReport,
    async "replay-projection"({ run_id }, deps, job) {
      const run = await runReplay(deps.pool, deps.store, deps.replayable ?? [], run_id);
      job.logger.info({ run_id, agree: run.report?.agree }, `${run.projection} replayed`);
    },
  };
}

/** Runs the command jobs in this process (beside any other command process) and starts the sweeps. */
export async function startCommandJobs(deps: CommandDeps, options: CommandJobOptions): Promise<JobRunner> {
  // One transport for the process's life: its pooled SMTP connections are closed when the runner stops.
  const { mailer } = notificationPorts({ config: deps.config, pool: deps.pool, logger: deps.logger });
  const runner = await startJobRunner({
    pool: deps.pool,
    specs: commandJobs,
    handlers: commandJobHandlers(deps, options, mailer),
    deps,
    logger: deps.logger,
    // Jobs due later (an expiry, a retry) are looked for this often; new jobs arrive at once by LISTEN/NOTIFY.
    pollIntervalMs: Math.min(1000, options.sweepEveryMs, options.mailEveryMs),
  });
  await deps.jobs.send("booking-sweep", {}, { jobKey: "booking-sweep", jobKeyMode: "preserve_run_at" });
  await deps.jobs.send("mail-sweep", {}, { jobKey: "mail-sweep", jobKeyMode: "preserve_run_at" });
  await deps.jobs.send("deadline-sweep", {}, { jobKey: "deadline-sweep", jobKeyMode: "preserve_run_at" });
  return {
    async stop() {
      await runner.stop();
      if (mailer instanceof SmtpMailer) mailer.close();
    },
  };
}
