import { useCallback, useSyncExternalStore } from "react";
import { type Language, useSiteLanguage } from "./i18n.ts";

type Names = Readonly<Record<string, string>>;

/** One chunk per language (contracts/src/place-names, generated from CLDR): only the active one is fetched. */
const LOADERS: Record<Language, () => Promise<{ CITY_NAMES: Names }>> = {
  en: () => import("@skyward/contracts/place-names/en"),
  ua: () => import("@skyward/contracts/place-names/ua"),
  pl: () => import("@skyward/contracts/place-names/pl"),
  fr: () => import("@skyward/contracts/place-names/fr"),
  es: () => import("@skyward/contracts/place-names/es"),
};

const loaded = new Map<Language, Names>();
const pending = new Map<Language, Promise<Names>>();
const listeners = new Set<() => void>();

/** Fetches a language's city names once; a failed fetch is retried on the next call (names fall back to English). */
export function loadPlaceNames(language: Language): Promise<Names> {
  const ready = loaded.get(language);
  if (ready) return Promise.resolve(ready);
  let promise = pending.get(language);
  if (!promise) {
    promise = LOADERS[language]()
      .then((module) => {
        loaded.set(language, module.CITY_NAMES);
        for (const listener of listeners) listener();
        return module.CITY_NAMES;
      })
      .finally(() => pending.delete(language));
    pending.set(language, promise);
  }
  return promise;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** An airport's city in a language already loaded, else the English one the server sent. */
export function cityNameIn(language: Language, code: string, english: string): string {
  return loaded.get(language)?.[code] ?? english;
}

/**
 * `cityName(code, englishCity)`: the city of an airport in the interface language. Shows the English name until
 * the language's names arrive (a few KB), then re-renders. Fetched on the first name asked for, not on mount, so a
 * screen that shows no city (the empty search form) costs no request.
 */
export function useCityName(): (code: string, english: string) => string {
  const language = useSiteLanguage();
  const names = useSyncExternalStore(subscribe, () => loaded.get(language));
  return useCallback(
    (code: string, english: string) => {
      if (!names) {
        loadPlaceNames(language).catch(() => {
          // Offline or a stale deployment: the English names stay, nothing else breaks.
        });
        return english;
      }
      return names[code] ?? english;
    },
    [names, language],
  );
}
