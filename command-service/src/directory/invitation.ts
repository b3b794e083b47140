import type { Language } from "@skyward/contracts/ids";
import type { CommandDeps } from "../deps.ts";

type Role = "Supervisor" | "Support";

const texts: Record<
  Language,
  (role: Role, name: string, partner: string | null) => { subject: string; text: string }
> = {
  en: (role, name, partner) => ({
    subject: "You are invited to Skyward",
    text: `Hello ${name},\n\nYou were given a Skyward ${role === "Supervisor" ? `supervisor account for ${partner}` : "support account"}. Sign in with this e-mail address: a one-time code will be sent to you.\n\nIf you did not expect this, ignore this e-mail.`,
  }),
  ua: (role, name, partner) => ({
    subject: "Запрошення до Skyward",
    text: `Вітаємо, ${name}!\n\nДля вас створено ${role === "Supervisor" ? `обліковий запис супервайзера ${partner}` : "обліковий запис служби підтримки"} у Skyward. Увійдіть із цією адресою e-mail: ми надішлемо вам одноразовий код.\n\nЯкщо ви цього не очікували, проігноруйте цей лист.`,
  }),
  pl: (role, name, partner) => ({
    subject: "Zaproszenie do Skyward",
    text: `Dzień dobry, ${name}!\n\nUtworzono dla Ciebie ${role === "Supervisor" ? `konto supervisora ${partner}` : "konto wsparcia"} w Skyward. Zaloguj się tym adresem e-mail: wyślemy Ci jednorazowy kod.\n\nJeśli się tego nie spodziewałeś, zignoruj tę wiadomość.`,
  }),
  fr: (role, name, partner) => ({
    subject: "Invitation à Skyward",
    text: `Bonjour ${name},\n\nUn ${role === "Supervisor" ? `compte superviseur de ${partner}` : "compte support"} Skyward a été créé pour vous. Connectez-vous avec cette adresse e-mail : un code à usage unique vous sera envoyé.\n\nSi vous ne l'attendiez pas, ignorez cet e-mail.`,
  }),
  es: (role, name, partner) => ({
    subject: "Invitación a Skyward",
    text: `Hola, ${name}:\n\nSe ha creado para usted una ${role === "Supervisor" ? `cuenta de supervisor de ${partner}` : "cuenta de soporte"} en Skyward. Inicie sesión con esta dirección de e-mail: le enviaremos un código de un solo uso.\n\nSi no lo esperaba, ignore este e-mail.`,
  }),
};

/** Tells a new supervisor or support user how to get in; queued, so a mail server outage only delays it. */
export async function sendInvitation(
  deps: Pick<CommandDeps, "jobs">,
  invited: { email: string; first_name: string; language: Language; role: Role; partner: string | null },
  traceId: string,
): Promise<void> {
  const mail = texts[invited.language](invited.role, invited.first_name, invited.partner);
  await deps.jobs.send("send-mail", { to: invited.email, ...mail }, { traceId });
}
