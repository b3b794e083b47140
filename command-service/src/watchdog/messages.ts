import { AUTO_CANCEL_BEFORE_MS } from "@skyward/contracts/deadline-events";
import type { Language } from "@skyward/contracts/ids";
import type { OutgoingMail } from "../notifications/ports.ts";

interface ReminderFacts {
  locator: string;
  route: string;
  timeLimit: Date;
  /** When the agency's setting cancels it: then the moment it is really lost, named first. */
  autoCancelAt: Date | null;
}

interface AutoCancelledFacts {
  locator: string;
  route: string;
  timeLimit: Date;
  cancelledAt: Date;
}

type When = (date: Date) => string;
type Mail = Omit<OutgoingMail, "to">;

/** Times in the agency's time zone, with the zone named (the agent may read the mail anywhere). */
const at = (date: Date, language: Language, timeZone: string) =>
  `${new Intl.DateTimeFormat(language === "ua" ? "uk" : language, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone,
  }).format(date)} ${timeZone}`;

const reminder: Record<Language, (f: ReminderFacts, when: When) => Mail> = {
  en: (f, when) => ({
    subject: `Booking ${f.locator}: the time limit is near`,
    text: f.autoCancelAt
      ? `Booking ${f.locator} (${f.route}) is held until ${when(f.autoCancelAt)}: your agency's setting cancels it then if the tickets are not issued. The airline's time limit is ${when(f.timeLimit)}.`
      : `Booking ${f.locator} (${f.route}) is held until ${when(f.timeLimit)}. Issue the tickets before then, or the airline will cancel it.`,
  }),
  ua: (f, when) => ({
    subject: `Бронювання ${f.locator}: тайм-ліміт спливає`,
    text: f.autoCancelAt
      ? `Бронювання ${f.locator} (${f.route}) утримується до ${when(f.autoCancelAt)}: за налаштуванням вашої агенції його буде скасовано в цей час, якщо квитки не виписано. Тайм-ліміт авіакомпанії — ${when(f.timeLimit)}.`
      : `Бронювання ${f.locator} (${f.route}) утримується до ${when(f.timeLimit)}. Випишіть квитки до цього часу, інакше авіакомпанія його скасує.`,
  }),
  pl: (f, when) => ({
    subject: `Rezerwacja ${f.locator}: zbliża się limit czasu`,
    text: f.autoCancelAt
      ? `Rezerwacja ${f.locator} (${f.route}) jest utrzymywana do ${when(f.autoCancelAt)}: zgodnie z ustawieniem Twojej agencji zostanie wtedy anulowana, jeśli bilety nie zostaną wystawione. Limit czasu linii lotniczej: ${when(f.timeLimit)}.`
      : `Rezerwacja ${f.locator} (${f.route}) jest utrzymywana do ${when(f.timeLimit)}. Wystaw bilety przed tym terminem, inaczej linia lotnicza ją anuluje.`,
  }),
  fr: (f, when) => ({
    subject: `Réservation ${f.locator} : la date limite approche`,
    text: f.autoCancelAt
      ? `La réservation ${f.locator} (${f.route}) est maintenue jusqu'au ${when(f.autoCancelAt)} : selon le réglage de votre agence, elle sera alors annulée si les billets ne sont pas émis. La date limite de la compagnie est le ${when(f.timeLimit)}.`
      : `La réservation ${f.locator} (${f.route}) est maintenue jusqu'au ${when(f.timeLimit)}. Émettez les billets avant cette heure, sinon la compagnie l'annulera.`,
  }),
  es: (f, when) => ({
    subject: `Reserva ${f.locator}: el plazo de emisión se acerca`,
    text: f.autoCancelAt
      ? `La reserva ${f.locator} (${f.route}) se mantiene hasta el ${when(f.autoCancelAt)}: según el ajuste de tu agencia, se cancelará entonces si los billetes no se emiten. El plazo de la aerolínea es el ${when(f.timeLimit)}.`
      : `La reserva ${f.locator} (${f.route}) se mantiene hasta el ${when(f.timeLimit)}. Emite los billetes antes, o la aerolínea la cancelará.`,
  }),
};

const minutes = AUTO_CANCEL_BEFORE_MS / 60_000;

const autoCancelled: Record<Language, (f: AutoCancelledFacts, when: When) => Mail> = {
  en: (f, when) => ({
    subject: `Booking ${f.locator} was cancelled automatically`,
    text: `Booking ${f.locator} (${f.route}) was cancelled at ${when(f.cancelledAt)} by your agency's setting: its tickets were not issued ${minutes} minutes before the airline's time limit (${when(f.timeLimit)}). Book again if the traveller still needs the trip.`,
  }),
  ua: (f, when) => ({
    subject: `Бронювання ${f.locator} скасовано автоматично`,
    text: `Бронювання ${f.locator} (${f.route}) скасовано ${when(f.cancelledAt)} за налаштуванням вашої агенції: квитки не було виписано за ${minutes} хвилин до тайм-ліміту авіакомпанії (${when(f.timeLimit)}). Забронюйте знову, якщо подорож ще потрібна.`,
  }),
  pl: (f, when) => ({
    subject: `Rezerwacja ${f.locator} została anulowana automatycznie`,
    text: `Rezerwacja ${f.locator} (${f.route}) została anulowana ${when(f.cancelledAt)} zgodnie z ustawieniem Twojej agencji: bilety nie zostały wystawione ${minutes} minut przed limitem czasu linii lotniczej (${when(f.timeLimit)}). Zarezerwuj ponownie, jeśli podróż jest nadal potrzebna.`,
  }),
  fr: (f, when) => ({
    subject: `La réservation ${f.locator} a été annulée automatiquement`,
    text: `La réservation ${f.locator} (${f.route}) a été annulée le ${when(f.cancelledAt)} selon le réglage de votre agence : ses billets n'étaient pas émis ${minutes} minutes avant la date limite de la compagnie (${when(f.timeLimit)}). Réservez de nouveau si le voyageur a toujours besoin du voyage.`,
  }),
  es: (f, when) => ({
    subject: `La reserva ${f.locator} se canceló automáticamente`,
    text: `La reserva ${f.locator} (${f.route}) se canceló el ${when(f.cancelledAt)} según el ajuste de tu agencia: sus billetes no se emitieron ${minutes} minutos antes del plazo de la aerolínea (${when(f.timeLimit)}). Reserva de nuevo si el viajero aún necesita el viaje.`,
  }),
};

/** The e-mail reminding an agent of a held booking's deadline, in the agent's language and the agency's zone. */
export const timeLimitReminderMail = (
  to: string,
  language: Language,
  timeZone: string,
  facts: ReminderFacts,
): OutgoingMail => ({
  to,
  ...reminder[language](facts, (date) => at(date, language, timeZone)),
});

/** The e-mail telling an agent the watchdog cancelled their held booking, and why. */
export const autoCancelledMail = (
  to: string,
  language: Language,
  timeZone: string,
  facts: AutoCancelledFacts,
): OutgoingMail => ({
  to,
  ...autoCancelled[language](facts, (date) => at(date, language, timeZone)),
});
