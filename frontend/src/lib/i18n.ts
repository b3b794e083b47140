import { Language } from "@skyward/contracts/ids";
import i18next, { type i18n as I18n } from "i18next";
import { initReactI18next, useTranslation } from "react-i18next";
import { type Catalogue, type Namespace, resources } from "../locales/resources.ts";

export type { Language };

/** The product's languages (seed spec, section 9), in the language picker's default order. */
export const LANGUAGES: readonly Language[] = ["en", "ua", "fr", "es", "pl"];

export const DEFAULT_LANGUAGE: Language = "en";
export const LOCALE_STORAGE_KEY = "skyward.locale";

/**
 * BCP 47 tags for i18next, Intl and `<html lang>`: the product calls Ukrainian "ua", but plural rules, number and
 * date formats only exist for "uk". Code outside this file speaks product codes (`siteLanguage()`).
 */
export const LOCALE_TAGS: Record<Language, string> = { en: "en", ua: "uk", fr: "fr", es: "es", pl: "pl" };

export const NAMESPACES = Object.keys(resources.en) as Namespace[];

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: Catalogue;
  }
}

export function isLanguage(value: unknown): value is Language {
  return Language.safeParse(value).success;
}

export function languageFromTag(tag: string | undefined): Language | undefined {
  return LANGUAGES.find((language) => LOCALE_TAGS[language] === tag);
}

function storedLanguage(): Language | undefined {
  try {
    const stored = window.localStorage.getItem(LOCALE_STORAGE_KEY);
    return isLanguage(stored) ? stored : undefined;
  } catch {
    return undefined; // storage disabled by the browser's privacy settings
  }
}

function rememberLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, language);
  } catch {
    // The choice still holds for this page; it is only not remembered.
  }
}

export const i18n: I18n = i18next.createInstance();

i18n.on("languageChanged", (tag) => {
  const language = languageFromTag(tag);
  if (!language) return;
  rememberLanguage(language);
  document.documentElement.lang = tag;
});

void i18n.use(initReactI18next).init({
  resources: Object.fromEntries(LANGUAGES.map((language) => [LOCALE_TAGS[language], resources[language]])),
  lng: LOCALE_TAGS[storedLanguage() ?? DEFAULT_LANGUAGE],
  fallbackLng: LOCALE_TAGS[DEFAULT_LANGUAGE],
  supportedLngs: Object.values(LOCALE_TAGS),
  ns: NAMESPACES,
  defaultNS: "common",
  interpolation: { escapeValue: false }, // React escapes
  initAsync: false,
  react: { useSuspense: false },
});
document.documentElement.lang = i18n.language;

export function siteLanguage(): Language {
  return languageFromTag(i18n.language) ?? DEFAULT_LANGUAGE;
}

/** Switches the interface language and remembers it in this browser. */
export async function setSiteLanguage(language: Language): Promise<void> {
  await i18n.changeLanguage(LOCALE_TAGS[language]);
}

/** The site language as a product code; re-renders the caller when it changes. */
export function useSiteLanguage(): Language {
  const { i18n: instance } = useTranslation();
  return languageFromTag(instance.language) ?? DEFAULT_LANGUAGE;
}
