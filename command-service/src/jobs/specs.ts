import { JobQueue } from "@skyward/infra/jobs/runtime";
import { salesJobs } from "@skyward/infra/sales/report-job";
import type pg from "pg";
import { z } from "zod";

/**
 * Every background job of the command service, in one place: its name, payload schema, attempts and schedule
 * here, its handler in `commandJobHandlers` (registry.ts). This module imports no handler, so `CommandDeps` and the
 * modules that send jobs can name the queue without importing the handlers that import them. Jobs run in command processes (they need the supplier and the mail
 * transport); with several command processes each job still runs once. Send one with `deps.jobs.send(name, payload)`.
 */
export const commandJobs = {
  /**
   * A held booking at its time limit. Tried for about four days: a job that fails for good keeps its key (the sweep
   * will not queue that booking again), so it stays in graphile_worker.jobs, logged, for someone to look at.
   */
  "expire-booking": { payload: z.object({ locator: z.string() }), maxAttempts: 25 },
  /** A booking the supplier is still confirming: asked again with backoff until it answers (about a day and a half). */
  "confirm-booking": { payload: z.object({ locator: z.string() }), maxAttempts: 15 },
  /** Finds bookings due for the two above; queues its own next run, and the cron line restarts a broken chain. */
  "booking-sweep": { payload: z.object({}), maxAttempts: 1, cron: "* * * * *" },
  /**
   * Queues the mails due (travellers' itineraries on issue, recorded sends whose job was lost, the agents'
   * notifications); chained like the booking sweep, on a shorter cadence of its own (issue 26).
   */
  "mail-sweep": { payload: z.object({}), maxAttempts: 1, cron: "* * * * *" },
  "purge-search-pages": { payload: z.object({}), maxAttempts: 3, cron: "* * * * *" },
  /** Assistant plans never executed, a day after they expired (executed ones stay: their events name them). */
  "purge-assistant-plans": { payload: z.object({}), maxAttempts: 3, cron: "17 * * * *" },
  /** Ticketing-deadline watchdog: a held booking's reminder, or its automatic cancellation (command-service/src/watchdog). */
  "time-limit-watch": {
    payload: z.object({ locator: z.string(), stage: z.enum(["remind", "cancel"]) }),
    maxAttempts: 8,
  },
  /** Finds held bookings whose reminder or automatic cancellation is due; chained like the booking sweep. */
  "deadline-sweep": { payload: z.object({}), maxAttempts: 1, cron: "* * * * *" },
  /** EMDs the airline issues asynchronously (`async_emd_issue`): asked again with backoff until all are issued. */
  "confirm-emds": { payload: z.object({ locator: z.string() }), maxAttempts: 15 },
  /** Queues confirm-emds for every booking still awaiting EMDs (a confirmation lost with its process too). */
  "emd-sweep": { payload: z.object({}), maxAttempts: 1, cron: "* * * * *" },
  /** Asks the airline whether it changed an issued booking's flights, and records a change once (issue 24.3). */
  "check-schedule-change": { payload: z.object({ locator: z.string() }), maxAttempts: 5 },
  /** Queues check-schedule-change for every issued booking whose change, if any, is answered. */
  "schedule-change-sweep": { payload: z.object({}), maxAttempts: 1, cron: "*/5 * * * *" },
  /**
   * Supplier operations left in flight, and seats held for bookings never recorded; also sendable on demand (job key
   * "reconcile-operations").
   */
  "reconcile-operations": { payload: z.object({}), maxAttempts: 5, cron: "* * * * *" },
  /** Outgoing e-mail, retried while the mail server fails. */
  "send-mail": {
    payload: z.object({
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      /** An HTML part beside the text (the schedule-change mail to the traveller). */
      html: z.string().optional(),
    }),
    maxAttempts: 10,
  },
  /**
   * The agents' notification e-mails of a mail sweep's batch (issue 26): sent four at a time, each four marked sent
   * together; run again (a mail refused, its process killed), it sends only those not marked. Retried like mail.
   */
  "send-mails": {
    payload: z.object({
      mails: z.array(
        z.object({ notification_id: z.string(), to: z.string(), subject: z.string(), text: z.string() }),
      ),
    }),
    maxAttempts: 10,
  },
  /** A traveller's itinerary e-mail (issue 24), written from its booking and sent with its PDFs; retried like mail. */
  "send-itinerary": { payload: z.object({ locator: z.string(), mail_id: z.string() }), maxAttempts: 10 },
  /**
   * The itinerary mails on issue of a mail sweep's batch (issue 26): sent together, each marked sent once the mail
   * server took it; run again (a mail refused, its process killed), it sends only those not marked. Retried like mail.
   */
  "send-itineraries": {
    payload: z.object({ mails: z.array(z.object({ locator: z.string(), mail_id: z.string() })) }),
    maxAttempts: 10,
  },
  /** Each company's statement of the month before, to its billing contact, on the first day of the month. */
  "statement-mails": {
    payload: z.object({ month: z.string().optional() }),
    maxAttempts: 3,
    cron: "0 6 1 * *",
  },
  /** One company's monthly statement e-mail (PDF and xlsx attached); retried like mail. */
  "send-statement": {
    payload: z.object({ company_id: z.string(), month: z.string(), to: z.string() }),
    maxAttempts: 10,
  },
  /** A projection replayed side by side from the audit screen (and switched, if asked and it agrees); not retried. */
  "replay-projection": { payload: z.object({ run_id: z.string() }), maxAttempts: 1 },
  /** An export too large to answer at once: built, kept for download, its link e-mailed. */
  ...salesJobs,
};

export type CommandJobs = JobQueue<typeof commandJobs>;

export const openCommandJobs = (pool: pg.Pool): Promise<CommandJobs> => JobQueue.open(pool, commandJobs);
