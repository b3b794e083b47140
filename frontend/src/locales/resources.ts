import type { Language } from "../lib/i18n.ts";
import enAccount from "./en/account.json" with { type: "json" };
import enBalance from "./en/balance.json" with { type: "json" };
import enBookings from "./en/bookings.json" with { type: "json" };
import enCommon from "./en/common.json" with { type: "json" };
import enErrors from "./en/errors.json" with { type: "json" };
import enLanguage from "./en/language.json" with { type: "json" };
import enLegal from "./en/legal.json" with { type: "json" };
import enNotifications from "./en/notifications.json" with { type: "json" };
import enOnboarding from "./en/onboarding.json" with { type: "json" };
import enSearch from "./en/search.json" with { type: "json" };
import enSignIn from "./en/sign-in.json" with { type: "json" };
import esAccount from "./es/account.json" with { type: "json" };
import esBalance from "./es/balance.json" with { type: "json" };
import esBookings from "./es/bookings.json" with { type: "json" };
import esCommon from "./es/common.json" with { type: "json" };
import esErrors from "./es/errors.json" with { type: "json" };
import esLanguage from "./es/language.json" with { type: "json" };
import esLegal from "./es/legal.json" with { type: "json" };
import esNotifications from "./es/notifications.json" with { type: "json" };
import esOnboarding from "./es/onboarding.json" with { type: "json" };
import esSearch from "./es/search.json" with { type: "json" };
import esSignIn from "./es/sign-in.json" with { type: "json" };
import frAccount from "./fr/account.json" with { type: "json" };
import frBalance from "./fr/balance.json" with { type: "json" };
import frBookings from "./fr/bookings.json" with { type: "json" };
import frCommon from "./fr/common.json" with { type: "json" };
import frErrors from "./fr/errors.json" with { type: "json" };
import frLanguage from "./fr/language.json" with { type: "json" };
import frLegal from "./fr/legal.json" with { type: "json" };
import frNotifications from "./fr/notifications.json" with { type: "json" };
import frOnboarding from "./fr/onboarding.json" with { type: "json" };
import frSearch from "./fr/search.json" with { type: "json" };
import frSignIn from "./fr/sign-in.json" with { type: "json" };
import plAccount from "./pl/account.json" with { type: "json" };
import plBalance from "./pl/balance.json" with { type: "json" };
import plBookings from "./pl/bookings.json" with { type: "json" };
import plCommon from "./pl/common.json" with { type: "json" };
import plErrors from "./pl/errors.json" with { type: "json" };
import plLanguage from "./pl/language.json" with { type: "json" };
import plLegal from "./pl/legal.json" with { type: "json" };
import plNotifications from "./pl/notifications.json" with { type: "json" };
import plOnboarding from "./pl/onboarding.json" with { type: "json" };
import plSearch from "./pl/search.json" with { type: "json" };
import plSignIn from "./pl/sign-in.json" with { type: "json" };
import uaAccount from "./ua/account.json" with { type: "json" };
import uaBalance from "./ua/balance.json" with { type: "json" };
import uaBookings from "./ua/bookings.json" with { type: "json" };
import uaCommon from "./ua/common.json" with { type: "json" };
import uaErrors from "./ua/errors.json" with { type: "json" };
import uaLanguage from "./ua/language.json" with { type: "json" };
import uaLegal from "./ua/legal.json" with { type: "json" };
import uaNotifications from "./ua/notifications.json" with { type: "json" };
import uaOnboarding from "./ua/onboarding.json" with { type: "json" };
import uaSearch from "./ua/search.json" with { type: "json" };
import uaSignIn from "./ua/sign-in.json" with { type: "json" };

// One namespace per feature; English is the reference every other catalogue must match.
const en = {
  common: enCommon,
  language: enLanguage,
  notifications: enNotifications,
  "sign-in": enSignIn,
  onboarding: enOnboarding,
  account: enAccount,
  legal: enLegal,
  bookings: enBookings,
  search: enSearch,
  balance: enBalance,
  errors: enErrors,
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
    onboarding: uaOnboarding,
    account: uaAccount,
    legal: uaLegal,
    bookings: uaBookings,
    search: uaSearch,
    balance: uaBalance,
    errors: uaErrors,
  },
  fr: {
    common: frCommon,
    language: frLanguage,
    notifications: frNotifications,
    "sign-in": frSignIn,
    onboarding: frOnboarding,
    account: frAccount,
    legal: frLegal,
    bookings: frBookings,
    search: frSearch,
    balance: frBalance,
    errors: frErrors,
  },
  es: {
    common: esCommon,
    language: esLanguage,
    notifications: esNotifications,
    "sign-in": esSignIn,
    onboarding: esOnboarding,
    account: esAccount,
    legal: esLegal,
    bookings: esBookings,
    search: esSearch,
    balance: esBalance,
    errors: esErrors,
  },
  pl: {
    common: plCommon,
    language: plLanguage,
    notifications: plNotifications,
    "sign-in": plSignIn,
    onboarding: plOnboarding,
    account: plAccount,
    legal: plLegal,
    bookings: plBookings,
    search: plSearch,
    balance: plBalance,
    errors: plErrors,
  },
} satisfies Record<Language, Catalogue>;
