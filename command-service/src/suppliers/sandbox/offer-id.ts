import {
  type Cabin,
  type FareFamilyCode,
  isMultiCity,
  type JourneySearchRequest,
  searchSlices,
} from "@skyward/contracts/offers";

/**
 * Sandbox ids carry the normalized request, so any fare can be rebuilt from its id alone (no stored search, and it
 * survives a restart):
 *   search id  SBX1-KBPWAW-20250601-20250608-210-Y-LOPS-UAH   (OW instead of a return date, ALL carriers)
 *              SBX1-M-KBPWAW20251220.WAWPAR20251223-100-Y-ALL-UAH   (a multi-city journey, slice by slice)
 *   offer id   <search id>-<itinerary index>                  (an origin_destination)
 *   fare id    <offer id>-<LT|ST|FX>                          (light, standard, flex)
 */
/** One slice of a journey as the sandbox keys it. */
export interface KeySlice {
  origin: string;
  destination: string;
  date: string;
}

export interface SearchKey {
  /** The first slice's (the only pair of a one-pair search). */
  origin: string;
  destination: string;
  departureDate: string;
  returnDate: string | null;
  adults: number;
  children: number;
  infants: number;
  cabin: Cabin;
  carriers: readonly string[] | null;
  currency: string;
  /** The slices of a multi-city search (returnDate is then null); null for the one-pair shape. */
  multiCity: readonly KeySlice[] | null;
}

/** The slices a key flies, in order. */
export function keySlices(key: SearchKey): KeySlice[] {
  if (key.multiCity) return [...key.multiCity];
  const out = { origin: key.origin, destination: key.destination, date: key.departureDate };
  return key.returnDate
    ? [out, { origin: key.destination, destination: key.origin, date: key.returnDate }]
    : [out];
}

export interface FareKey {
  search: SearchKey;
  itinerary: number;
  family: FareFamilyCode;
}

const CABIN_LETTERS: Readonly<Record<Cabin, string>> = {
  economy: "Y",
  premium_economy: "W",
  business: "C",
  first: "F",
};
const FAMILY_CODES: Readonly<Record<FareFamilyCode, string>> = { light: "LT", standard: "ST", flex: "FX" };

const compact = (isoDate: string) => isoDate.replaceAll("-", "");
const expand = (yyyymmdd: string) =>
  `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;

export function searchKey(request: JourneySearchRequest, currency: string): SearchKey {
  const [first] = searchSlices(request);
  if (!first) throw new Error("a search has at least one slice");
  const multiCity = isMultiCity(request)
    ? request.slices.map((s) => ({ origin: s.origin, destination: s.destination, date: s.departure_date }))
    : null;
  return {
    origin: first.origin,
    destination: first.destination,
    departureDate: first.departure_date,
    returnDate: isMultiCity(request) ? null : (request.return_date ?? null),
    multiCity,
    adults: request.passengers.adults,
    children: request.passengers.children,
    infants: request.passengers.infants,
    cabin: request.cabin,
    carriers: request.carriers ? [...new Set(request.carriers)].sort() : null,
    currency,
  };
}

export function searchId(key: SearchKey): string {
  const journey = key.multiCity
    ? ["M", key.multiCity.map((s) => `${s.origin}${s.destination}${compact(s.date)}`).join(".")]
    : [
        `${key.origin}${key.destination}`,
        compact(key.departureDate),
        key.returnDate ? compact(key.returnDate) : "OW",
      ];
  return [
    "SBX1",
    ...journey,
    `${key.adults}${key.children}${key.infants}`,
    CABIN_LETTERS[key.cabin],
    key.carriers ? key.carriers.join("") : "ALL",
    key.currency,
  ].join("-");
}

export const offerId = (searchIdText: string, itinerary: number): string => `${searchIdText}-${itinerary}`;

export const fareId = (searchIdText: string, itinerary: number, family: FareFamilyCode): string =>
  `${offerId(searchIdText, itinerary)}-${FAMILY_CODES[family]}`;

const SEARCH_ID =
  /^SBX1-([A-Z]{3})([A-Z]{3})-(\d{8})-(\d{8}|OW)-(\d)(\d)(\d)-([YWCF])-((?:[A-Z0-9]{2})+|ALL)-([A-Z]{3})$/;
const MULTI_CITY_SEARCH_ID =
  /^SBX1-M-((?:[A-Z]{6}\d{8})(?:\.[A-Z]{6}\d{8}){0,5})-(\d)(\d)(\d)-([YWCF])-((?:[A-Z0-9]{2})+|ALL)-([A-Z]{3})$/;
const FARE_ID = /^(SBX1-.+)-(\d{1,3})-(LT|ST|FX)$/;

const cabinOf = (letter: string | undefined) =>
  (Object.keys(CABIN_LETTERS) as Cabin[]).find((c) => CABIN_LETTERS[c] === letter);
const carriersOf = (text: string) => (text === "ALL" ? null : (text.match(/.{2}/g) ?? []));

function parseMultiCityId(id: string): SearchKey | null {
  const m = MULTI_CITY_SEARCH_ID.exec(id);
  if (!m) return null;
  const [, journey, adults, children, infants, cabinLetter, carriers, currency] = m;
  const cabin = cabinOf(cabinLetter);
  const slices = (journey ?? "").split(".").map((s) => ({
    origin: s.slice(0, 3),
    destination: s.slice(3, 6),
    date: expand(s.slice(6)),
  }));
  const [first] = slices;
  if (!first || !cabin || !carriers || !currency) return null;
  return {
    origin: first.origin,
    destination: first.destination,
    departureDate: first.date,
    returnDate: null,
    adults: Number(adults),
    children: Number(children),
    infants: Number(infants),
    cabin,
    carriers: carriersOf(carriers),
    currency,
    multiCity: slices,
  };
}

function parseSearchId(id: string): SearchKey | null {
  if (id.startsWith("SBX1-M-")) return parseMultiCityId(id);
  const m = SEARCH_ID.exec(id);
  if (!m) return null;
  const [, origin, destination, departure, ret, adults, children, infants, cabinLetter, carriers, currency] =
    m;
  const cabin = cabinOf(cabinLetter);
  if (!origin || !destination || !departure || !ret || !cabin || !carriers || !currency) return null;
  return {
    origin,
    destination,
    departureDate: expand(departure),
    returnDate: ret === "OW" ? null : expand(ret),
    adults: Number(adults),
    children: Number(children),
    infants: Number(infants),
    cabin,
    carriers: carriersOf(carriers),
    currency,
    multiCity: null,
  };
}

export function parseFareId(id: string): FareKey | null {
  const m = FARE_ID.exec(id);
  const search = m?.[1] ? parseSearchId(m[1]) : null;
  const family = (Object.keys(FAMILY_CODES) as FareFamilyCode[]).find((f) => FAMILY_CODES[f] === m?.[3]);
  if (!m || !search || !family) return null;
  return { search, itinerary: Number(m[2]), family };
}
