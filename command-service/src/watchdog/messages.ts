import type { Language } from "@skyward/contracts/ids";
import type { OutgoingMail } from "../notifications/ports.ts";

interface ReminderFacts {
  locator: string;
  route: string;
  timeLimit: Date;
  autoCancelAt: Date | null;
}

/** Times in UTC with its name: the agent's own time zone is not known to the server. */
const at = (date: Date, language: Language) =>
  `${new Intl.DateTimeFormat(language === "ua" ? "uk" : language, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(date)} UTC`;

const reminder: Record<Language, (f: ReminderFacts, when: (d: Date) => string) => Omit<OutgoingMail, "to">> =
  {
    en: (f, when) => ({
      subject: `Booking ${f.locator}: the time limit is near`,
      text:
        `Booking ${f.locator} (${f.route}) is held until ${when(f.timeLimit)}. Issue the tickets before then, or the airline will cancel it.` +
        (f.autoCancelAt
          ? `\n\nYour agency's setting cancels it automatically at ${when(f.autoCancelAt)} if it is still not issued.`
          : ""),
    }),
    ua: (f, when) => ({
      subject: `Бронювання ${f.locator}: тайм-ліміт спливає`,
      text:
        `Бронювання ${f.locator} (${f.route}) утримується до ${when(f.timeLimit)}. Випишіть квитки до цього часу, інакше авіакомпанія його скасує.` +
        (f.autoCancelAt
          ? `\n\nЗа налаштуванням вашої агенції його буде скасовано автоматично о ${when(f.autoCancelAt)}, якщо квитки не виписано.`
          : ""),
    }),
    pl: (f, when) => ({
      subject: `Rezerwacja ${f.locator}: zbliża się limit czasu`,
      text:
        `Rezerwacja ${f.locator} (${f.route}) jest utrzymywana do ${when(f.timeLimit)}. Wystaw bilety przed tym terminem, inaczej linia lotnicza ją anuluje.` +
        (f.autoCancelAt
          ? `\n\nZgodnie z ustawieniem Twojej agencji zostanie anulowana automatycznie o ${when(f.autoCancelAt)}, jeśli bilety nie zostaną wystawione.`
          : ""),
    }),
    fr: (f, when) => ({
      subject: `Réservation ${f.locator} : la date limite approche`,
      text:
        `La réservation ${f.locator} (${f.route}) est maintenue jusqu'au ${when(f.timeLimit)}. Émettez les billets avant cette heure, sinon la compagnie l'annulera.` +
        (f.autoCancelAt
          ? `\n\nSelon le réglage de votre agence, elle sera annulée automatiquement à ${when(f.autoCancelAt)} si elle n'est toujours pas émise.`
          : ""),
    }),
    es: (f, when) => ({
      subject: `Reserva ${f.locator}: el plazo de emisión se acerca`,
      text:
        `La reserva ${f.locator} (${f.route}) se mantiene hasta el ${when(f.timeLimit)}. Emite los billetes antes, o la aerolínea la cancelará.` +
        (f.autoCancelAt
          ? `\n\nSegún el ajuste de tu agencia, se cancelará automáticamente a las ${when(f.autoCancelAt)} si sigue sin emitir.`
          : ""),
    }),
  };

/** The e-mail reminding an agent of a held booking's time limit, in the agent's language. */
export const timeLimitReminderMail = (
  to: string,
  language: Language,
  facts: ReminderFacts,
): OutgoingMail => ({
  to,
  ...reminder[language](facts, (date) => at(date, language)),
});
