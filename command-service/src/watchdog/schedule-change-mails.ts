import type { Language } from "@skyward/contracts/ids";
import { Language as LanguageSchema } from "@skyward/contracts/ids";
import type { Flight } from "@skyward/contracts/offers";
import type { ScheduleChangeKind } from "@skyward/contracts/supplier";
import { inTransaction } from "@skyward/infra/db";
import { escapeHtml } from "@skyward/infra/documents/itinerary";
import type { CommandDeps } from "../deps.ts";
import { recordScheduleChangeMail } from "../itinerary/itinerary.ts";
import type { OutgoingMail } from "../notifications/ports.ts";

/*
 * The e-mails of a schedule change (issue 24.3): the traveller is told the change (old → new), and the watchdog
 * reminds the booking's agent while the change waits unanswered, every REMIND_EVERY_MS until it is answered or its
 * deadline passes. Both are queued from the read model by the schedule-change sweep: the traveller's once per change,
 * each reminder once per round (app.schedule_change_mails, the outbox, one row per change, kind and round).
 */

/** The agent is reminded a day after the notice, or a day before the answer is due if that comes first. */
export const REMIND_AFTER_MS = 24 * 3_600_000;
export const REMIND_BEFORE_DUE_MS = 24 * 3_600_000;

/** Then again this often while the change waits: three or four times in the usual 72 hours. */
export const REMIND_EVERY_MS = 12 * 3_600_000;

export const reminderDueAt = (notifiedAt: Date, respondBy: Date): Date =>
  new Date(Math.min(notifiedAt.getTime() + REMIND_AFTER_MS, respondBy.getTime() - REMIND_BEFORE_DUE_MS));

/**
 * The reminder round due at `now` (0 the first), or null before the first or once the answer is due. A round missed
 * (the sweep did not run for a while) is not sent late: only the round of now.
 */
export function reminderRound(notifiedAt: Date, respondBy: Date, now: Date): number | null {
  const first = reminderDueAt(notifiedAt, respondBy).getTime();
  if (now.getTime() < first || now >= respondBy) return null;
  return Math.floor((now.getTime() - first) / REMIND_EVERY_MS);
}

interface ChangeFacts {
  locator: string;
  route: string;
  kind: ScheduleChangeKind;
  oldFlights: Flight[];
  newFlights: Flight[];
  respondBy: Date;
}

type Mail = Omit<OutgoingMail, "to">;

/** A flight as a line: its flight numbers and local times as the ticket shows them (the airport's own time). */
const flightLine = (f: Flight) =>
  f.segments
    .map(
      (s) =>
        `${s.carrier}${s.flight_number} ${s.from.code} ${s.departure_at.slice(0, 16).replace("T", " ")} → ${s.to.code} ${s.arrival_at.slice(0, 16).replace("T", " ")}`,
    )
    .join(", ");
const changes = (f: ChangeFacts) =>
  f.oldFlights
    .map((old, i) => {
      const now = f.newFlights[i];
      return now && flightLine(now) !== flightLine(old) ? `${flightLine(old)}\n  → ${flightLine(now)}` : null;
    })
    .filter((l) => l !== null)
    .join("\n");
const when = (date: Date, language: Language) =>
  `${new Intl.DateTimeFormat(language === "ua" ? "uk" : language, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(date)} UTC`;

const KIND: Record<Language, Record<ScheduleChangeKind, string>> = {
  en: { minor: "a minor time change", major: "a major schedule change", cancelled: "a cancelled flight" },
  ua: { minor: "незначна зміна часу", major: "суттєва зміна розкладу", cancelled: "скасований рейс" },
  pl: { minor: "niewielka zmiana godziny", major: "istotna zmiana rozkładu", cancelled: "odwołany lot" },
  fr: {
    minor: "un léger changement d'horaire",
    major: "un changement d'horaire important",
    cancelled: "un vol annulé",
  },
  es: {
    minor: "un cambio de hora menor",
    major: "un cambio de horario importante",
    cancelled: "un vuelo cancelado",
  },
};

const traveller: Record<Language, (f: ChangeFacts) => Mail> = {
  en: (f) => ({
    subject: `Your flight changed: booking ${f.locator}`,
    text: `The airline made ${KIND.en[f.kind]} to your trip ${f.route} (booking ${f.locator}):\n${changes(f)}\nYour travel agent will contact you about the options.`,
  }),
  ua: (f) => ({
    subject: `Ваш рейс змінився: бронювання ${f.locator}`,
    text: `Авіакомпанія внесла зміну (${KIND.ua[f.kind]}) у вашу подорож ${f.route} (бронювання ${f.locator}):\n${changes(f)}\nВаш турагент зв'яжеться з вами щодо варіантів.`,
  }),
  pl: (f) => ({
    subject: `Twój lot się zmienił: rezerwacja ${f.locator}`,
    text: `Linia lotnicza wprowadziła zmianę (${KIND.pl[f.kind]}) w Twojej podróży ${f.route} (rezerwacja ${f.locator}):\n${changes(f)}\nTwój agent skontaktuje się w sprawie możliwości.`,
  }),
  fr: (f) => ({
    subject: `Votre vol a changé : réservation ${f.locator}`,
    text: `La compagnie a apporté ${KIND.fr[f.kind]} à votre voyage ${f.route} (réservation ${f.locator}) :\n${changes(f)}\nVotre agent de voyage vous contactera au sujet des options.`,
  }),
  es: (f) => ({
    subject: `Su vuelo ha cambiado: reserva ${f.locator}`,
    text: `La aerolínea ha hecho ${KIND.es[f.kind]} en su viaje ${f.route} (reserva ${f.locator}):\n${changes(f)}\nSu agente de viajes se pondrá en contacto con usted sobre las opciones.`,
  }),
};

/** The mail's HTML part, line for line its text: old flights struck through, new ones in bold. */
function withHtml(mail: Mail, language: Language): Mail & { html: string } {
  const line = (l: string) => {
    const text = escapeHtml(l.trim());
    if (l.startsWith("  → ")) return `<p style="margin:0 0 8px 16px"><strong>${text}</strong></p>`;
    if (/^[A-Z0-9]{2}\d/.test(l)) return `<p style="margin:0"><s>${text}</s></p>`;
    return `<p>${text}</p>`;
  };
  return {
    ...mail,
    html: `<!doctype html>
<html lang="${language === "ua" ? "uk" : language}"><head><meta charset="utf-8"><title>${escapeHtml(mail.subject)}</title></head>
<body style="font-family:Arial,sans-serif;color:#1a1a1a;max-width:640px">
<h1 style="font-size:20px">${escapeHtml(mail.subject)}</h1>
${mail.text.split("\n").map(line).join("\n")}
</body></html>
`,
  };
}

const reminder: Record<Language, (f: ChangeFacts, language: Language) => Mail> = {
  en: (f, l) => ({
    subject: `Booking ${f.locator}: a schedule change waits for your answer`,
    text: `The airline made ${KIND.en[f.kind]} to booking ${f.locator} (${f.route}):\n${changes(f)}\nAnswer it on the booking page by ${when(f.respondBy, l)}.`,
  }),
  ua: (f, l) => ({
    subject: `Бронювання ${f.locator}: зміна розкладу чекає на вашу відповідь`,
    text: `Авіакомпанія внесла зміну (${KIND.ua[f.kind]}) у бронювання ${f.locator} (${f.route}):\n${changes(f)}\nДайте відповідь на сторінці бронювання до ${when(f.respondBy, l)}.`,
  }),
  pl: (f, l) => ({
    subject: `Rezerwacja ${f.locator}: zmiana rozkładu czeka na odpowiedź`,
    text: `Linia lotnicza wprowadziła zmianę (${KIND.pl[f.kind]}) w rezerwacji ${f.locator} (${f.route}):\n${changes(f)}\nOdpowiedz na stronie rezerwacji do ${when(f.respondBy, l)}.`,
  }),
  fr: (f, l) => ({
    subject: `Réservation ${f.locator} : un changement d'horaire attend votre réponse`,
    text: `La compagnie a apporté ${KIND.fr[f.kind]} à la réservation ${f.locator} (${f.route}) :\n${changes(f)}\nRépondez sur la page de la réservation avant le ${when(f.respondBy, l)}.`,
  }),
  es: (f, l) => ({
    subject: `Reserva ${f.locator}: un cambio de horario espera su respuesta`,
    text: `La aerolínea ha hecho ${KIND.es[f.kind]} en la reserva ${f.locator} (${f.route}):\n${changes(f)}\nResponda en la página de la reserva antes del ${when(f.respondBy, l)}.`,
  }),
};

interface PendingRow {
  locator: string;
  agency_id: string;
  company_id: string;
  route: string;
  agent_id: string;
  traveller_email: string | null;
  change: {
    change_id: string;
    kind: ScheduleChangeKind;
    old_flights: Flight[];
    new_flights: Flight[];
    notified_at: string;
    respond_by: string;
  };
  traveller_mailed: boolean;
}

/**
 * The sweep's part: each change still waiting gets its traveller mail once, and, once due, the agent's reminder once
 * per round. Returns how many mails were queued.
 */
export async function mailScheduleChanges(deps: CommandDeps, traceId: string): Promise<number> {
  const { rows } = await deps.pool.query<PendingRow>(
    `SELECT b.locator, b.agency_id, b.company_id, b.route, b.agent_id, b.held->'contacts'->>'email' AS traveller_email,
            b.schedule_change AS change,
            EXISTS (SELECT 1 FROM app.schedule_change_mails m
                     WHERE m.change_id = b.schedule_change->>'change_id' AND m.kind = 'traveller') AS traveller_mailed
       FROM read.bookings b
      WHERE b.schedule_change IS NOT NULL AND b.schedule_change->>'answer' IS NULL
        AND b.status IN ('issued', 'exchanged')
      ORDER BY b.updated_at LIMIT 200`,
  );
  const now = deps.now();
  let queued = 0;
  for (const row of rows) {
    const facts: ChangeFacts = {
      locator: row.locator,
      route: row.route,
      kind: row.change.kind,
      oldFlights: row.change.old_flights,
      newFlights: row.change.new_flights,
      respondBy: new Date(row.change.respond_by),
    };
    const language = await agentLanguage(deps, row.agent_id);
    if (!row.traveller_mailed && row.traveller_email) {
      // The send is recorded on the booking first (its history shows it), then queued; a crash between the two
      // leaves the record without its outbox row, and the next sweep queues it.
      const recorded = await recordScheduleChangeMail(
        deps,
        {
          mail_id: `schedule-change-${row.change.change_id}`,
          locator: row.locator,
          agency_id: row.agency_id,
          company_id: row.company_id,
          change_id: row.change.change_id,
          kind: row.change.kind,
          to: row.traveller_email,
          language: language.language,
          at: now.toISOString(),
        },
        traceId,
      );
      const mail = withHtml(traveller[recorded.language](facts), recorded.language);
      if (await queueOnce(deps, row, "traveller", 0, { ...mail, to: recorded.to }, traceId)) queued++;
    }
    const round = reminderRound(new Date(row.change.notified_at), facts.respondBy, now);
    if (round !== null && language.email) {
      const mail = reminder[language.language](facts, language.language);
      if (await queueOnce(deps, row, "reminder", round, { ...mail, to: language.email }, traceId)) queued++;
    }
  }
  return queued;
}

async function agentLanguage(
  deps: CommandDeps,
  agentId: string,
): Promise<{ language: Language; email: string | null }> {
  const { rows } = await deps.pool.query<{ language: string; email: string }>(
    "SELECT language, email FROM read.users WHERE id = $1",
    [agentId],
  );
  return { language: LanguageSchema.catch("en").parse(rows[0]?.language), email: rows[0]?.email ?? null };
}

/** Claims the outbox row and queues the send-mail job in one transaction: false when it was queued before. */
function queueOnce(
  deps: CommandDeps,
  row: PendingRow,
  kind: "traveller" | "reminder",
  round: number,
  mail: OutgoingMail,
  traceId: string,
): Promise<boolean> {
  return inTransaction(deps.pool, async (client) => {
    const claimed = await client.query(
      `INSERT INTO app.schedule_change_mails (change_id, kind, round, locator) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [row.change.change_id, kind, round, row.locator],
    );
    if (claimed.rowCount === 0) return false;
    const jobId = await deps.jobs.sendIn(client, "send-mail", mail, { traceId });
    await client.query(
      "UPDATE app.schedule_change_mails SET job_id = $4 WHERE change_id = $1 AND kind = $2 AND round = $3",
      [row.change.change_id, kind, round, jobId],
    );
    return true;
  });
}
