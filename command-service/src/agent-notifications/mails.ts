import type { NotificationKind } from "@skyward/contracts/agent-notifications";
import { Language } from "@skyward/contracts/ids";
import type { JobContext } from "@skyward/infra/jobs/runtime";
import type { CommandDeps } from "../deps.ts";
import { refusedMails, sendMarked } from "../notifications/marked-batch.ts";
import type { Mailer } from "../notifications/port-types.ts";

/*
 * The agents' notification e-mails (issue 24, item 2): each notification the projection marked for mail (the
 * recipient's switch was on) is queued once, with its row in app.notification_mails, a sweep's batch by one
 * send-mails job written by the same statement. Run by the mail sweep; only notifications of the last day, so a rebuilt read model mails no history.
 * An automatic cancellation is mailed by the watchdog itself (its mail names the deadlines in the agency's zone), which
 * asks the same switch: it is not mailed twice.
 */

interface Facts {
  locator: string;
  route: string | null;
  detail: string | null;
}

/** The kinds this sweep mails (an automatic cancellation is the watchdog's mail). */
type MailedKind = Exclude<NotificationKind, "auto_cancelled">;
type Texts = Record<MailedKind, (f: Facts) => string> & { footer: string };

const route = (f: Facts) => (f.route ? ` (${f.route})` : "");

const TEXTS: Record<Language, Texts> = {
  en: {
    issued: (f) => `Booking ${f.locator}${route(f)}: tickets issued`,
    booking_confirmed: (f) => `Booking ${f.locator}${route(f)}: the airline confirmed it`,
    booking_failed: (f) => `Booking ${f.locator}${route(f)}: the airline could not confirm it`,
    schedule_change: (f) => `Booking ${f.locator}${route(f)}: the airline changed the schedule`,
    footer:
      "Open the booking in Skyward for the details. You can switch these e-mails off on your account page.",
  },
  ua: {
    issued: (f) => `Бронювання ${f.locator}${route(f)}: квитки виписано`,
    booking_confirmed: (f) => `Бронювання ${f.locator}${route(f)}: авіакомпанія підтвердила його`,
    booking_failed: (f) => `Бронювання ${f.locator}${route(f)}: авіакомпанія не змогла його підтвердити`,
    schedule_change: (f) => `Бронювання ${f.locator}${route(f)}: авіакомпанія змінила розклад`,
    footer:
      "Відкрийте бронювання в Skyward, щоб побачити подробиці. Ці листи можна вимкнути на сторінці облікового запису.",
  },
  pl: {
    issued: (f) => `Rezerwacja ${f.locator}${route(f)}: bilety wystawione`,
    booking_confirmed: (f) => `Rezerwacja ${f.locator}${route(f)}: linia lotnicza ją potwierdziła`,
    booking_failed: (f) => `Rezerwacja ${f.locator}${route(f)}: linia lotnicza nie mogła jej potwierdzić`,
    schedule_change: (f) => `Rezerwacja ${f.locator}${route(f)}: linia lotnicza zmieniła rozkład`,
    footer:
      "Otwórz rezerwację w Skyward, aby zobaczyć szczegóły. Te e-maile można wyłączyć na stronie konta.",
  },
  fr: {
    issued: (f) => `Réservation ${f.locator}${route(f)} : billets émis`,
    booking_confirmed: (f) => `Réservation ${f.locator}${route(f)} : la compagnie l'a confirmée`,
    booking_failed: (f) => `Réservation ${f.locator}${route(f)} : la compagnie n'a pas pu la confirmer`,
    schedule_change: (f) => `Réservation ${f.locator}${route(f)} : la compagnie a modifié l'horaire`,
    footer:
      "Ouvrez la réservation dans Skyward pour les détails. Vous pouvez désactiver ces e-mails sur la page de votre compte.",
  },
  es: {
    issued: (f) => `Reserva ${f.locator}${route(f)}: billetes emitidos`,
    booking_confirmed: (f) => `Reserva ${f.locator}${route(f)}: la aerolínea la ha confirmado`,
    booking_failed: (f) => `Reserva ${f.locator}${route(f)}: la aerolínea no ha podido confirmarla`,
    schedule_change: (f) => `Reserva ${f.locator}${route(f)}: la aerolínea ha cambiado el horario`,
    footer:
      "Abra la reserva en Skyward para ver los detalles. Puede desactivar estos correos en la página de su cuenta.",
  },
};

/** A notification's e-mail in the agent's language: the line as its subject, the detail and where to look. */
export function notificationMail(
  to: string,
  language: Language,
  kind: MailedKind,
  facts: Facts,
): { to: string; subject: string; text: string } {
  const texts = TEXTS[language];
  const subject = texts[kind](facts);
  const detail = facts.detail ? `\n${facts.detail}` : "";
  return { to, subject, text: `${subject}.${detail}\n\n${texts.footer}` };
}

/** A notification's mail as its batch's send-mails job carries it. */
export interface NotificationMail {
  notification_id: string;
  to: string;
  subject: string;
  text: string;
}

/** Notifications a sweep's batch takes at most; batch after batch until none is left (200 a sweep were). */
export const NOTIFICATION_BATCH = 200;
const NOTIFICATION_BATCHES = 50;

/**
 * Queues every notification of the last day marked for mail and not queued yet, a batch at a time: each batch's
 * claims and one send-mails job for their mails in one statement (a send-mail job per mail was, issue 26). Returns
 * how many mails were queued.
 */
export async function mailNotifications(
  deps: Pick<CommandDeps, "pool" | "jobs">,
  traceId: string,
  options: { batch?: number } = {},
): Promise<number> {
  const size = options.batch ?? NOTIFICATION_BATCH;
  let queued = 0;
  for (let batches = 0; batches < NOTIFICATION_BATCHES; batches++) {
    const batch = await mailNotificationBatch(deps, traceId, size);
    queued += batch.queued;
    if (batch.found < size) break;
  }
  return queued;
}

async function mailNotificationBatch(
  deps: Pick<CommandDeps, "pool" | "jobs">,
  traceId: string,
  size: number,
): Promise<{ found: number; queued: number }> {
  const { rows } = await deps.pool.query<{
    id: string;
    user_id: string;
    kind: MailedKind;
    locator: string;
    route: string | null;
    detail: string | null;
    email: string | null;
    language: string | null;
  }>(
    `SELECT n.id, n.user_id, n.kind, n.locator, n.route, n.detail, u.email, u.language
       FROM read.notifications n LEFT JOIN read.users u ON u.id = n.user_id
      WHERE n.mail AND n.kind <> 'auto_cancelled' AND n.at > now() - interval '1 day'
        AND NOT EXISTS (SELECT 1 FROM app.notification_mails m WHERE m.notification_id = n.id)
      ORDER BY n.at LIMIT $1`,
    [size],
  );
  if (rows.length === 0) return { found: 0, queued: 0 };
  // Every claim and the batch's job in one statement (app.queue_notification_mail_batch): a recipient without an
  // address is settled by the claim alone (the in-app notice), one claimed by another sweep is left out of the job.
  const mails: NotificationMail[] = rows.flatMap((row) =>
    row.email
      ? [
          {
            notification_id: row.id,
            ...notificationMail(row.email, Language.catch("en").parse(row.language), row.kind, row),
          },
        ]
      : [],
  );
  const job = deps.jobs.spec("send-mails", { mails }, { traceId });
  const { rows: queued } = await deps.pool.query<{ job_id: string | null; queued: number }>(
    "SELECT job_id, queued FROM app.queue_notification_mail_batch($1::text[], $2::text[], $3::jsonb)",
    [rows.map((r) => r.id), rows.map((r) => r.user_id), JSON.stringify(job)],
  );
  return { found: rows.length, queued: queued[0]?.queued ?? 0 };
}

/** The send-mails job's mails already marked sent (by an earlier run of it). */
async function sentBefore(deps: Pick<CommandDeps, "pool">, ids: readonly string[]): Promise<Set<string>> {
  const { rows } = await deps.pool.query<{ notification_id: string }>(
    "SELECT notification_id FROM app.notification_mails WHERE notification_id = ANY($1::text[]) AND sent_at IS NOT NULL",
    [ids],
  );
  return new Set(rows.map((r) => r.notification_id));
}

/**
 * The send-mails job: a batch's notification mails not sent before, four at a time, each four marked sent together
 * (notifications/marked-batch.ts); a refused mail fails the job once the others went, to be run again for it.
 */
export async function sendNotificationMails(
  deps: Pick<CommandDeps, "pool">,
  mailer: Mailer,
  mails: readonly NotificationMail[],
  job: Pick<JobContext, "attempt" | "traceId">,
): Promise<number> {
  const sent =
    job.attempt > 1
      ? await sentBefore(
          deps,
          mails.map((m) => m.notification_id),
        )
      : new Set();
  const left = mails.filter((m) => !sent.has(m.notification_id));
  const { sent: sentNow, refused } = await sendMarked(left, {
    id: (m) => m.notification_id,
    send: ({ to, subject, text }) => mailer.send({ to, subject, text, traceId: job.traceId }),
    markSent: async (ids) => {
      await deps.pool.query(
        "UPDATE app.notification_mails SET sent_at = now() WHERE notification_id = ANY($1::text[]) AND sent_at IS NULL",
        [ids],
      );
    },
  });
  if (refused.length > 0) throw refusedMails(refused, left.length, "notification e-mails");
  return sentNow;
}
