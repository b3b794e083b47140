import { airportsOf } from "@skyward/contracts/city-codes";
import type { Cabin, SupplierFare, SupplierOriginDestination } from "@skyward/contracts/offers";
import { OfferNotFound } from "../errors.ts";
import { findAirport } from "./airports.ts";
import {
  ancillaries,
  type FareQuote,
  flights,
  type Itinerary,
  legCabins,
  quoteFares,
  supplierFare,
} from "./fares.ts";
import {
  type FareKey,
  fareId,
  type KeySlice,
  keySlices,
  offerId,
  parseFareId,
  type SearchKey,
  searchId,
} from "./offer-id.ts";
import { SANDBOX_SCENARIOS, searchScenario } from "./scenarios.ts";
import { arrivalOf, departureOf, type Journey, journeyMinutes, journeys } from "./schedule.ts";

/** An itinerary with its fares, in the place it takes in the search result. */
export interface Offer {
  /** The origin_destination id. */
  id: string;
  index: number;
  itinerary: Itinerary;
  cabins: Cabin[][];
  fares: SupplierFare[];
  firstDepartureUtc: number;
}

const MAX_OFFERS = 25;
/** About 35 KB each, so some 16 MB in all: the searches of the last minutes, which agents price and book from. */
const MAX_RANKED_SEARCHES = 500;

/** An offer before its fares are built: what ranking needs. */
interface Candidate {
  itinerary: Itinerary;
  cabins: Cabin[][];
  quotes: FareQuote[];
  firstDepartureUtc: number;
  cheapest: number;
  minutes: number;
}
const JOURNEYS_PER_DIRECTION_PER_CARRIER = 3;
const MIN_SAME_DAY_TURNAROUND_MINUTES = 120;
const MINUTE = 60_000;

function fastest(list: Journey[], carrier: string, count = JOURNEYS_PER_DIRECTION_PER_CARRIER): Journey[] {
  return list
    .filter((j) => j.carrier.code === carrier)
    .sort((a, b) => journeyMinutes(a) - journeyMinutes(b) || departureOf(a) - departureOf(b))
    .slice(0, count);
}

/** Whether a search is the manyOffers scenario's (SCENARIOS.md): MNY stands for London, and the caps are lifted. */
const manyOffers = (key: SearchKey) =>
  keySlices(key).some((slice) => searchScenario(slice.origin, slice.destination) === "manyOffers");
const { airport: MANY_OFFERS_AIRPORT, standsFor: MANY_OFFERS_CITY } = SANDBOX_SCENARIOS.manyOffers;
const placeOf = (code: string) => (code === MANY_OFFERS_AIRPORT ? MANY_OFFERS_CITY : code);

/** The journeys of one slice: from every airport the origin names (a city code names several) to every one of the destination's. */
function sliceJourneys(slice: KeySlice, carriers: readonly string[] | undefined): Journey[] {
  const origins = airportsOf(placeOf(slice.origin)).flatMap((code) => findAirport(code) ?? []);
  const destinations = airportsOf(placeOf(slice.destination)).flatMap((code) => findAirport(code) ?? []);
  return origins.flatMap((from) =>
    destinations.flatMap((to) => (from.code === to.code ? [] : journeys(from, to, slice.date, carriers))),
  );
}

/** A multi-city journey of more than three slices pairs fewer journeys per slice, so the pairs stay a few hundred. */
const journeysPerSlice = (slices: number, key: SearchKey) =>
  manyOffers(key)
    ? SANDBOX_SCENARIOS.manyOffers.journeysPerSlice
    : slices > 3
      ? 2
      : JOURNEYS_PER_DIRECTION_PER_CARRIER;

/**
 * Round trips and multi-city journeys pair a carrier's best journeys of each slice, each leaving after the one
 * before lands; the carrier must fly every slice (it validates one fare for the whole journey).
 */
function itineraries(key: SearchKey): Itinerary[] {
  const carriers = key.carriers ?? undefined;
  const [first, ...rest] = keySlices(key).map((slice) => sliceJourneys(slice, carriers));
  if (!first) return [];
  const multiCity = key.multiCity !== null;
  if (rest.length === 0) return first.map((j) => ({ carrier: j.carrier, journeys: [j], multiCity }));

  const perSlice = journeysPerSlice(rest.length + 1, key);
  const flown = [...new Set(first.map((j) => j.carrier.code))];
  return flown.flatMap((carrier) => {
    const later = rest.map((list) => fastest(list, carrier, perSlice));
    let paths: Journey[][] = fastest(first, carrier, perSlice).map((j) => [j]);
    for (const options of later) {
      paths = paths.flatMap((path) =>
        options
          .filter(
            (next) => departureOf(next) >= arrivalOf(path.at(-1)) + MIN_SAME_DAY_TURNAROUND_MINUTES * MINUTE,
          )
          .map((next) => [...path, next]),
      );
    }
    return paths.flatMap((path) => {
      const [head] = path;
      return head ? [{ carrier: head.carrier, journeys: path, multiCity }] : [];
    });
  });
}

/** Breaks ties of price and duration; built only when two offers tie, which is rare. */
const signature = (candidate: Candidate) =>
  candidate.itinerary.journeys.map((j) => j.legs.map((l) => l.id).join()).join();

/** Every offer the sandbox has for a search, cheapest first, at most 25 (300 in the manyOffers scenario). */
function rank(key: SearchKey): Candidate[] {
  const candidates: Candidate[] = [];
  for (const itinerary of itineraries(key)) {
    const cabins = legCabins(itinerary, key.cabin);
    if (!cabins) continue;
    const quotes = quoteFares(itinerary, cabins, key);
    if (quotes.length === 0) continue;
    let cheapest = Number.POSITIVE_INFINITY;
    for (const quote of quotes) cheapest = Math.min(cheapest, quote.total);
    candidates.push({
      itinerary,
      cabins,
      quotes,
      firstDepartureUtc: departureOf(itinerary.journeys[0]),
      cheapest,
      minutes: itinerary.journeys.reduce((sum, j) => sum + journeyMinutes(j), 0),
    });
  }
  candidates.sort(
    (a, b) => a.cheapest - b.cheapest || a.minutes - b.minutes || signature(a).localeCompare(signature(b)),
  );
  return candidates.slice(0, manyOffers(key) ? SANDBOX_SCENARIOS.manyOffers.maxOffers : MAX_OFFERS);
}

/** Recent rankings by search id, least recently used first. */
const rankings = new Map<string, readonly Candidate[]>();

/**
 * The ranking depends on the key only (not on the clock), so the index inside a fare id always finds the same
 * itinerary again. Details, pricing and booking all resolve a fare of a search just made, so recent rankings are
 * kept rather than searched again. Only these internal objects are kept: every fare is built anew for each call.
 */
function ranking(key: SearchKey, search: string): readonly Candidate[] {
  let ranked = rankings.get(search);
  if (ranked) {
    rankings.delete(search);
  } else {
    ranked = rank(key);
    if (rankings.size >= MAX_RANKED_SEARCHES) {
      const leastRecent = rankings.keys().next().value;
      if (leastRecent !== undefined) rankings.delete(leastRecent);
    }
  }
  rankings.set(search, ranked);
  return ranked;
}

function toOffer(key: SearchKey, search: string, candidate: Candidate, index: number): Offer {
  const { itinerary, cabins, quotes, firstDepartureUtc } = candidate;
  return {
    id: offerId(search, index),
    index,
    itinerary,
    cabins,
    firstDepartureUtc,
    fares: quotes.map((q) => supplierFare(itinerary, cabins, key, q, fareId(search, index, q.family))),
  };
}

/** The offers still sold: departing no earlier than `earliestDeparture` (UTC ms), each in its place in the ranking. */
export function buildOffers(key: SearchKey, earliestDeparture: number): Offer[] {
  const search = searchId(key);
  const offers: Offer[] = [];
  ranking(key, search).forEach((candidate, index) => {
    if (candidate.firstDepartureUtc >= earliestDeparture) offers.push(toOffer(key, search, candidate, index));
  });
  return offers;
}

export function originDestination(key: SearchKey, offer: Offer): SupplierOriginDestination {
  return {
    id: offer.id,
    flights: flights(offer.itinerary, offer.cabins, key.cabin),
    fares: offer.fares,
    ancillaries: ancillaries(offer.itinerary, key.currency),
  };
}

export interface ResolvedFare {
  key: FareKey;
  offer: Offer;
  fare: SupplierFare;
}

/** Rebuilds the fare a fare id names; unknown or no longer sold: OfferNotFound. */
export function resolveFare(id: string): ResolvedFare {
  const key = parseFareId(id);
  const search = key ? searchId(key.search) : "";
  const candidate = key ? ranking(key.search, search)[key.itinerary] : undefined;
  const offer = key && candidate ? toOffer(key.search, search, candidate, key.itinerary) : undefined;
  const fare = offer?.fares.find((f) => f.fare_id === id);
  if (!key || !offer || !fare) throw new OfferNotFound(`The sandbox has no fare ${id}: search again`);
  return { key, offer, fare };
}
