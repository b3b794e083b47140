import type { Cabin, FareFamilyCode, SearchRequest } from "@skyward/contracts/offers";

/**
 * Sandbox ids carry the normalized request, so any fare can be rebuilt from its id alone (no stored search, and it
 * survives a restart):
 *   search id  SBX1-KBPWAW-20250601-20250608-210-Y-LOPS-UAH   (OW instead of a return date, ALL carriers)
 *   offer id   <search id>-<itinerary index>                  (an origin_destination)
 *   fare id    <offer id>-<LT|ST|FX>                          (light, standard, flex)
 */
export interface SearchKey {
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

export function searchKey(request: SearchRequest, currency: string): SearchKey {
  return {
    origin: request.origin,
    destination: request.destination,
    departureDate: request.departure_date,
    returnDate: request.return_date ?? null,
    adults: request.passengers.adults,
    children: request.passengers.children,
    infants: request.passengers.infants,
    cabin: request.cabin,
    carriers: request.carriers ? [...new Set(request.carriers)].sort() : null,
    currency,
  };
}

export function searchId(key: SearchKey): string {
  return [
    "SBX1",
    `${key.origin}${key.destination}`,
    compact(key.departureDate),
    key.returnDate ? compact(key.returnDate) : "OW",
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
const FARE_ID = /^(SBX1-.+)-(\d{1,3})-(LT|ST|FX)$/;

function parseSearchId(id: string): SearchKey | null {
  const m = SEARCH_ID.exec(id);
  if (!m) return null;
  const [, origin, destination, departure, ret, adults, children, infants, cabinLetter, carriers, currency] =
    m;
  const cabin = (Object.keys(CABIN_LETTERS) as Cabin[]).find((c) => CABIN_LETTERS[c] === cabinLetter);
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
    carriers: carriers === "ALL" ? null : (carriers.match(/.{2}/g) ?? []),
    currency,
  };
}

export function parseFareId(id: string): FareKey | null {
  const m = FARE_ID.exec(id);
  const search = m?.[1] ? parseSearchId(m[1]) : null;
  const family = (Object.keys(FAMILY_CODES) as FareFamilyCode[]).find((f) => FAMILY_CODES[f] === m?.[3]);
  if (!m || !search || !family) return null;
  return { search, itinerary: Number(m[2]), family };
}
