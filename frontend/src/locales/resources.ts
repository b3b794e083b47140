import type { Language } from "../lib/i18n.ts";
import enBookings from "./en/bookings.json" with { type: "json" };
import enCommon from "./en/common.json" with { type: "json" };
import enLanguage from "./en/language.json" with { type: "json" };
import enNotifications from "./en/notifications.json" with { type: "json" };
import enSignIn from "./en/sign-in.json" with { type: "json" };
import esBookings from "./es/bookings.json" with { type: "json" };
import esCommon from "./es/common.json" with { type: "json" };
import esLanguage from "./es/language.json" with { type: "json" };
import esNotifications from "./es/notifications.json" with { type: "json" };
import esSignIn from "./es/sign-in.json" with { type: "json" };
import frBookings from "./fr/bookings.json" with { type: "json" };
import frCommon from "./fr/common.json" with { type: "json" };
import frLanguage from "./fr/language.json" with { type: "json" };
import frNotifications from "./fr/notifications.json" with { type: "json" };
import frSignIn from "./fr/sign-in.json" with { type: "json" };
import plBookings from "./pl/bookings.json" with { type: "json" };
import plCommon from "./pl/common.json" with { type: "json" };
import plLanguage from "./pl/language.json" with { type: "json" };
import plNotifications from "./pl/notifications.json" with { type: "json" };
import plSignIn from "./pl/sign-in.json" with { type: "json" };
import uaBookings from "./ua/bookings.json" with { type: "json" };
import uaCommon from "./ua/common.json" with { type: "json" };
import uaLanguage from "./ua/language.json" with { type: "json" };
import uaNotifications from "./ua/notifications.json" with { type: "json" };
import uaSignIn from "./ua/sign-in.json" with { type: "json" };

// One namespace per feature; English is the reference every other catalogue must match.
const en = {
  common: enCommon,
  language: enLanguage,
  notifications: enNotifications,
  "sign-in": enSignIn,
  bookings: enBookings,
};

export type Catalogue = typeof en;
export type Namespace = keyof Catalogue;

export const resources = {
  en,
  ua: {
    common: uaCommon,
    language: uaLanguage,
    notifications: uaNotifications,
    "sign-in": uaSignIn,
    bookings: uaBookings,
  },
  fr: {
    common: frCommon,
    language: frLanguage,
    notifications: frNotifications,
    "sign-in": frSignIn,
    bookings: frBookings,
  },
  es: {
    common: esCommon,
    language: esLanguage,
    notifications: esNotifications,
    "sign-in": esSignIn,
    bookings: esBookings,
  },
  pl: {
    common: plCommon,
    language: plLanguage,
    notifications: plNotifications,
    "sign-in": plSignIn,
    bookings: plBookings,
  },
} satisfies Record<Language, Catalogue>;
