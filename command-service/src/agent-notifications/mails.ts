import type { NotificationKind } from "@skyward/contracts/agent-notifications";
import { Language } from "@skyward/contracts/ids";
import type { CommandDeps } from "../deps.ts";

/*
 * The agents' notification e-mails (issue 24, item 2): each notification the projection marked for mail (the
 * recipient's switch was on) is queued once as a send-mail job, with its row in app.notification_mails in the same
 * transaction. Run by the booking sweep; only notifications of the last day, so a rebuilt read model mails no history.
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

/** Queues every notification of the last day marked for mail and not queued yet; returns how many were queued. */
export async function mailNotifications(
  deps: Pick<CommandDeps, "pool" | "jobs">,
  traceId: string,
): Promise<number> {
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
      ORDER BY n.at LIMIT 200`,
  );
  if (rows.length === 0) return 0;
  // Every claim and its job in one statement (app.queue_notification_mail per row, in a stable order): a recipient
  // without an address is settled by the claim alone (the in-app notice), one claimed by another sweep is skipped.
  const jobs = rows.map((row) =>
    row.email
      ? JSON.stringify(
          deps.jobs.spec(
            "send-mail",
            notificationMail(row.email, Language.catch("en").parse(row.language), row.kind, row),
            { traceId },
          ),
        )
      : null,
  );
  const { rows: queued } = await deps.pool.query<{ job_id: string | null }>(
    `SELECT app.queue_notification_mail(q.id, q.user_id, q.job) AS job_id
       FROM (SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS u(id, user_id, job) ORDER BY id) q`,
    [rows.map((r) => r.id), rows.map((r) => r.user_id), jobs],
  );
  return queued.filter((q) => q.job_id !== null).length;
}
