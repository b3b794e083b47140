/**
 * An airport's own name without the English words around it, for the interface languages the airport data does not
 * name it in: "Kyiv Boryspil International Airport" (Kyiv) → "Boryspil", "Warsaw–Modlin Mazovia Airport" →
 * "Modlin Mazovia", "Frankfurt Airport" (Frankfurt am Main) → "". What is left is a proper noun (a place or a
 * person: Boryspil, Chopin, Charles de Gaulle), written as the airport data writes it; the city beside it comes in
 * the user's language from CLDR (./place-names). No localized airport names exist in a source we may ship, and a
 * translated generic word ("аеропорт") adds nothing the IATA code beside it does not say.
 */

/** The English words airport names are made of, not names themselves. */
const GENERIC = [
  "international",
  "intl",
  "airport",
  "airfield",
  "aerodrome",
  "regional",
  "municipal",
  "domestic",
  "air base",
  "airbase",
  "airpark",
  "heliport",
  "airstrip",
  "air terminal",
  "airport terminal",
  "air force base",
  "air force station",
  "air national guard base",
  "naval air station",
  "army air field",
  "army airfield",
  "air station",
  "seaplane base",
  "water aerodrome",
  "base",
  "station",
  "county",
  "memorial",
  "executive",
  "downtown",
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A whole word or phrase, whatever its letters' script (\b knows ASCII letters only). */
const wordPattern = (words: readonly string[]) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join("|")})\\.?(?![\\p{L}\\p{N}])`, "giu");

const GENERIC_WORDS = wordPattern(GENERIC.toSorted((a, b) => b.length - a.length));
/** "Field" names a place only at the end of a name ("Lambert Field"): there it is the generic word. */
const TRAILING_FIELD = /(?<![\p{L}\p{N}])field\s*$/iu;
/** "Warsaw–Modlin", "Kraków–Balice": the city served, a dash, the airport's own place. */
const CITY_DASH = /(?<![\p{L}\p{N}])[\p{L}.']+[–—](?=\p{L})/gu;

export function airportProperName(name: string, englishCity: string): string {
  const cityWords = englishCity
    .split(/[\s–—-]+/)
    .filter((word) => word.length > 2)
    .map((word) => word.toLowerCase());
  let rest = name.replace(CITY_DASH, " ");
  if (cityWords.length > 0) rest = rest.replace(wordPattern(cityWords), " ");
  rest = rest.replace(GENERIC_WORDS, " ").replace(TRAILING_FIELD, " ");
  return rest
    .replace(/[\s,/()–—-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}
