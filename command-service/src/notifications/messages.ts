import { ONE_TIME_CODE } from "@skyward/contracts/account";
import type { Language } from "@skyward/contracts/ids";
import type { OutgoingMail } from "./ports.ts";

const minutes = ONE_TIME_CODE.ttlMinutes;

const signInCode: Record<Language, (code: string) => Omit<OutgoingMail, "to">> = {
  en: (code) => ({
    subject: "Your Skyward sign-in code",
    text: `Your sign-in code is ${code}. It expires in ${minutes} minutes.\n\nIf you did not try to sign in to Skyward, ignore this e-mail.`,
  }),
  ua: (code) => ({
    subject: "Ваш код для входу в Skyward",
    text: `Ваш код для входу: ${code}. Він діє ${minutes} хвилин.\n\nЯкщо ви не намагалися увійти до Skyward, проігноруйте цей лист.`,
  }),
  pl: (code) => ({
    subject: "Twój kod logowania do Skyward",
    text: `Twój kod logowania to ${code}. Wygaśnie za ${minutes} minut.\n\nJeśli to nie Ty logujesz się do Skyward, zignoruj tę wiadomość.`,
  }),
  fr: (code) => ({
    subject: "Votre code de connexion Skyward",
    text: `Votre code de connexion est ${code}. Il expire dans ${minutes} minutes.\n\nSi vous n'avez pas essayé de vous connecter à Skyward, ignorez cet e-mail.`,
  }),
  es: (code) => ({
    subject: "Tu código de acceso a Skyward",
    text: `Tu código de acceso es ${code}. Caduca en ${minutes} minutos.\n\nSi no intentaste iniciar sesión en Skyward, ignora este correo.`,
  }),
};

const emailChangeCode: Record<Language, (code: string) => Omit<OutgoingMail, "to">> = {
  en: (code) => ({
    subject: "Confirm your new Skyward e-mail address",
    text: `Your confirmation code is ${code}. It expires in ${minutes} minutes.\n\nEnter it in Skyward to use this address for your account.`,
  }),
  ua: (code) => ({
    subject: "Підтвердьте нову адресу e-mail у Skyward",
    text: `Ваш код підтвердження: ${code}. Він діє ${minutes} хвилин.\n\nВведіть його в Skyward, щоб використовувати цю адресу для свого облікового запису.`,
  }),
  pl: (code) => ({
    subject: "Potwierdź nowy adres e-mail w Skyward",
    text: `Twój kod potwierdzenia to ${code}. Wygaśnie za ${minutes} minut.\n\nWpisz go w Skyward, aby używać tego adresu na swoim koncie.`,
  }),
  fr: (code) => ({
    subject: "Confirmez votre nouvelle adresse e-mail Skyward",
    text: `Votre code de confirmation est ${code}. Il expire dans ${minutes} minutes.\n\nSaisissez-le dans Skyward pour utiliser cette adresse pour votre compte.`,
  }),
  es: (code) => ({
    subject: "Confirma tu nueva dirección de correo en Skyward",
    text: `Tu código de confirmación es ${code}. Caduca en ${minutes} minutos.\n\nIntrodúcelo en Skyward para usar esta dirección en tu cuenta.`,
  }),
};

/** To an address someone asked to move their account to while it already has an account of its own. */
const emailInUse: Record<Language, Omit<OutgoingMail, "to">> = {
  en: {
    subject: "Your e-mail address is already used on Skyward",
    text: "Someone asked to use this address for a Skyward account, but it already belongs to an account, so nothing was changed.\n\nIf it was you, sign in with this address instead. If not, ignore this e-mail.",
  },
  ua: {
    subject: "Ваша адреса e-mail уже використовується у Skyward",
    text: "Хтось попросив використати цю адресу для облікового запису Skyward, але вона вже належить обліковому запису, тож нічого не змінено.\n\nЯкщо це були ви, увійдіть із цією адресою. Якщо ні, проігноруйте цей лист.",
  },
  pl: {
    subject: "Twój adres e-mail jest już używany w Skyward",
    text: "Ktoś poprosił o użycie tego adresu dla konta Skyward, ale należy on już do konta, więc niczego nie zmieniono.\n\nJeśli to Ty, zaloguj się tym adresem. Jeśli nie, zignoruj tę wiadomość.",
  },
  fr: {
    subject: "Votre adresse e-mail est déjà utilisée sur Skyward",
    text: "Quelqu'un a demandé à utiliser cette adresse pour un compte Skyward, mais elle appartient déjà à un compte : rien n'a été modifié.\n\nSi c'était vous, connectez-vous plutôt avec cette adresse. Sinon, ignorez cet e-mail.",
  },
  es: {
    subject: "Tu dirección de correo ya se usa en Skyward",
    text: "Alguien pidió usar esta dirección para una cuenta de Skyward, pero ya pertenece a una cuenta, así que no se cambió nada.\n\nSi fuiste tú, inicia sesión con esta dirección. Si no, ignora este correo.",
  },
};

/** Digits read one by one, twice, so the code survives a bad line. */
const spoken = (code: string) => code.split("").join(", ");
const voiceCode: Record<Language, (code: string) => string> = {
  en: (code) => `Your Skyward code is ${spoken(code)}. Again: ${spoken(code)}.`,
  ua: (code) => `Ваш код Skyward: ${spoken(code)}. Ще раз: ${spoken(code)}.`,
  pl: (code) => `Twój kod Skyward to ${spoken(code)}. Powtarzam: ${spoken(code)}.`,
  fr: (code) => `Votre code Skyward est ${spoken(code)}. Je répète : ${spoken(code)}.`,
  es: (code) => `Tu código de Skyward es ${spoken(code)}. Repito: ${spoken(code)}.`,
};

export const signInCodeMail = (to: string, code: string, language: Language): OutgoingMail => ({
  to,
  ...signInCode[language](code),
});

export const emailChangeCodeMail = (to: string, code: string, language: Language): OutgoingMail => ({
  to,
  ...emailChangeCode[language](code),
});

export const emailInUseMail = (to: string, language: Language): OutgoingMail => ({
  to,
  ...emailInUse[language],
});

export const voiceCodeText = (code: string, language: Language): string => voiceCode[language](code);
