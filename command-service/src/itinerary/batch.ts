import type { JobContext } from "@skyward/infra/jobs/runtime";
import type { CommandDeps } from "../deps.ts";
import { agencyStream } from "../directory/agency.ts";
import { refusedMails, sendMarked } from "../notifications/marked-batch.ts";
import type { Mailer } from "../notifications/port-types.ts";
import { composeItineraryMail, sellingAgentOf, sellingAgents } from "./compose.ts";
import { type BatchMail, mailsAndBookings } from "./itinerary.ts";

/**
 * The itinerary mails on issue a batch at a time (issue 26). The mail sweep claims a batch's mails and queues one
 * `send-itineraries` job for them in one statement (`queueItineraryMailBatch` in itinerary.ts, migration 111); the
 * job reads every mail and its booking in one statement, their agents in another, sends each through the mail
 * transport and marks it sent once the server took it, four at a time (`sendItineraryBatch`,
 * notifications/marked-batch.ts). A statement per mail and a job per mail were (claim, read, agent, done). Run again,
 * after a refused mail or a killed process, the job sends only the mails not marked: at most the mails in flight
 * when a process died go out twice, as with a job per mail.
 */

async function markSent(deps: Pick<CommandDeps, "pool">, mailIds: readonly string[]): Promise<void> {
  await deps.pool.query(
    "UPDATE app.itinerary_mails SET sent_at = now() WHERE mail_id = ANY($1::text[]) AND sent_at IS NULL",
    [mailIds],
  );
}

/** The batch's mails already marked sent (by an earlier run of its job). */
async function sentBefore(
  deps: Pick<CommandDeps, "pool">,
  mails: readonly BatchMail[],
): Promise<Set<string>> {
  const { rows } = await deps.pool.query<{ mail_id: string }>(
    "SELECT mail_id FROM app.itinerary_mails WHERE mail_id = ANY($1::text[]) AND sent_at IS NOT NULL",
    [mails.map((m) => m.mail_id)],
  );
  return new Set(rows.map((r) => r.mail_id));
}

/**
 * The send-itineraries job: sends a batch's mails not sent before, each marked sent once the mail server took it.
 * A mail refused (the server down) leaves the rest going; the job then fails, to be run again with the library's
 * backoff for the mails left. Answers how many it sent.
 */
export async function sendItineraryBatch(
  deps: CommandDeps,
  mailer: Mailer,
  mails: readonly BatchMail[],
  job: Pick<JobContext, "attempt" | "traceId" | "logger">,
): Promise<number> {
  // A first run has sent nothing yet: only a run again asks what was.
  const sent = job.attempt > 1 ? await sentBefore(deps, mails) : new Set<string>();
  const left = mails.filter((m) => !sent.has(m.mail_id));
  if (left.length === 0) return 0;
  const found = await mailsAndBookings(deps, left);
  for (const m of left)
    if (!found.has(m.mail_id))
      job.logger.error(m, "itinerary e-mail of an unknown booking or send: not sent");
  const sending = [...found.values()];
  // Their agencies read into the directory cache at once (as a rule it has them already), not each mail its own.
  await deps.directory.readStreams([...new Set(sending.map((s) => agencyStream(s.booking.agency_id)))]);
  const agents = await sellingAgents(
    deps,
    sending.map((s) => s.booking),
  );
  const { sent: sentNow, refused } = await sendMarked(sending, {
    id: ({ mail }) => mail.mail_id,
    send: async ({ mail, booking }) => {
      const outgoing = await composeItineraryMail(deps, booking, mail, sellingAgentOf(agents, booking));
      await mailer.send({ ...outgoing, traceId: job.traceId });
    },
    markSent: (ids) => markSent(deps, ids),
  });
  if (refused.length > 0) throw refusedMails(refused, sending.length, "itinerary e-mails");
  return sentNow;
}
