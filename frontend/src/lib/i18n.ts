import type { Language } from "@skyward/contracts/ids";
import i18next, { type BackendModule, type i18n as I18n, type ResourceKey } from "i18next";
import { initReactI18next, useTranslation } from "react-i18next";
import {
  type Catalogue,
  type Catalogues,
  loadCatalogue,
  loadStartupCatalogues,
  type StartupScope,
} from "../locales/resources.ts";
import { isOneOf } from "./one-of.ts";
import { sessionHinted } from "./session-hint.ts";

export type { Language };

/** The product's languages (seed spec, section 9), in the language picker's default order. */
export const LANGUAGES: readonly Language[] = ["en", "ua", "fr", "es", "pl"];

export const DEFAULT_LANGUAGE: Language = "en";
export const LOCALE_STORAGE_KEY = "skyward.locale";
const LANGUAGE_COOKIE = "skyward_lang";

/**
 * BCP 47 tags for i18next, Intl and `<html lang>`: the product calls Ukrainian "ua", but plural rules, number and
 * date formats only exist for "uk". Code outside this file speaks product codes (`siteLanguage()`).
 */
export const LOCALE_TAGS: Record<Language, string> = { en: "en", ua: "uk", fr: "fr", es: "es", pl: "pl" };

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: Catalogue;
  }
}

// The product's list itself rather than the contracts' schema: zod stays out of the first page's code.
export const isLanguage: (value: unknown) => value is Language = isOneOf(LANGUAGES);

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

/**
 * The language in a cookie too, so the server can send the page with that language's catalogues preloaded
 * (scripts/src/page-preloads.ts); local storage stays what the page reads.
 */
function mirrorLanguage(language: Language): void {
  const secure = window.location.protocol === "https:" ? "; secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: set at once, before the page's first request; the Cookie Store API is asynchronous and jsdom has none
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax${secure}`;
}

function rememberLanguage(language: Language): void {
  mirrorLanguage(language);
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, language);
  } catch {
    // The choice still holds for this page; it is only not remembered.
  }
}

/** Fetches only the catalogues of the language in use, one namespace at a time as screens ask for them. */
const catalogueBackend: BackendModule = {
  type: "backend",
  init() {},
  read(tag, namespace, callback) {
    const language = languageFromTag(tag);
    if (!language) return callback(new Error(`Not a product language: ${tag}`), false);
    try {
      const loaded = loadCatalogue(language, namespace);
      if (loaded instanceof Promise)
        loaded.then(
          (catalogue: ResourceKey) => callback(null, catalogue),
          (error: Error) => callback(error, false),
        );
      else callback(null, loaded as ResourceKey);
    } catch (error) {
      callback(error as Error, false);
    }
  },
};

export const i18n: I18n = i18next.createInstance();

i18n.on("languageChanged", (tag) => {
  const language = languageFromTag(tag);
  if (!language) return;
  rememberLanguage(language);
  document.documentElement.lang = tag;
});

const startLanguage = storedLanguage() ?? DEFAULT_LANGUAGE;
mirrorLanguage(startLanguage);

function initialise(catalogues: Catalogues): Promise<void> {
  const initialised = i18n
    .use(catalogueBackend)
    .use(initReactI18next)
    .init({
      lng: LOCALE_TAGS[startLanguage],
      resources: { [LOCALE_TAGS[startLanguage]]: catalogues },
      // Other languages and on-demand namespaces come from the backend when first needed.
      partialBundledLanguages: true,
      // Every catalogue has every key (catalogues.test.ts), so no second language is fetched as a fallback.
      fallbackLng: false,
      supportedLngs: Object.values(LOCALE_TAGS),
      load: "currentOnly",
      ns: Object.keys(catalogues),
      defaultNS: "common",
      interpolation: { escapeValue: false }, // React escapes
      initAsync: false, // with Jest's synchronous catalogues (test/catalogue-files.ts) i18n is ready at import
      react: { useSuspense: false },
    });
  document.documentElement.lang = LOCALE_TAGS[startLanguage];
  return initialised.then(() => undefined);
}

/** The pages a signed-out visitor opens first: only they start on the public catalogues. */
const PUBLIC_PAGE = /^\/(sign_in|legal\/[^/]+)\/?$/;

/** What a page needs at start: the public catalogues on a public page when nobody is signed in, else all of them. */
export function startupScope(pathname: string): StartupScope {
  return PUBLIC_PAGE.test(pathname) && !sessionHinted() ? "public" : "full";
}

/**
 * Before a page renders: the full catalogues when it needs them (after signing in on the public ones), so a screen
 * never shows its keys while its namespace loads. Fetched once; later calls resolve at once.
 */
export async function cataloguesFor(pathname: string): Promise<void> {
  if (startupScope(pathname) === "public") return;
  const language = siteLanguage();
  const catalogues = await loadStartupCatalogues(language, "full");
  const tag = LOCALE_TAGS[language];
  for (const [namespace, catalogue] of Object.entries(catalogues))
    if (!i18n.hasResourceBundle(tag, namespace)) i18n.addResourceBundle(tag, namespace, catalogue);
}

const startup = loadStartupCatalogues(startLanguage, startupScope(window.location.pathname));
/** Resolves once the stored language's start-up catalogues are in: the app renders after it, not before. */
export const i18nReady: Promise<void> =
  startup instanceof Promise ? startup.then(initialise) : initialise(startup);

export function siteLanguage(): Language {
  return languageFromTag(i18n.language) ?? DEFAULT_LANGUAGE;
}

/**
 * The server errors' texts, before one is shown: a public page starts without them (resources.ts), and a signed-in
 * one has them already (this resolves at once). A catalogue that cannot load leaves the server's own words.
 */
export function errorTextsReady(): Promise<void> {
  return i18n.loadNamespaces("errors").catch(() => undefined);
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
