import type { Language } from "./i18n.ts";

/** Each language is named in itself, so a reader finds their own whatever the page's language. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  ua: "Українська",
  fr: "Français",
  es: "Español",
  pl: "Polski",
};
