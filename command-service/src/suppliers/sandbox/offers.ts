import type { Cabin, SupplierFare, SupplierOriginDestination } from "@skyward/contracts/offers";
import { OfferNotFound } from "../errors.ts";
import { findAirport } from "./airports.ts";
import {
  ancillaries,
  type FareQuote,
  familiesFor,
  flights,
  type Itinerary,
  legCabins,
  quoteFare,
  supplierFare,
} from "./fares.ts";
import { type FareKey, fareId, offerId, parseFareId, type SearchKey, searchId } from "./offer-id.ts";
import { arrivalOf, departureOf, type Journey, journeyMinutes, journeys } from "./schedule.ts";

/** An itinerary with its fares, in the place it takes in the search result. */
export interface Offer {
  index: number;
  itinerary: Itinerary;
  cabins: Cabin[][];
  fares: SupplierFare[];
  firstDepartureUtc: number;
}

const MAX_OFFERS = 25;

interface Candidate extends Omit<Offer, "index" | "fares"> {
  quotes: FareQuote[];
  cheapest: number;
  minutes: number;
  signature: string;
}
const JOURNEYS_PER_DIRECTION_PER_CARRIER = 3;
const MIN_SAME_DAY_TURNAROUND_MINUTES = 120;
const MINUTE = 60_000;

/** Round trips pair a carrier's best outbound and return journeys; the return leaves after the outbound lands. */
function itineraries(key: SearchKey): Itinerary[] {
  const origin = findAirport(key.origin);
  const destination = findAirport(key.destination);
  if (!origin || !destination) return [];
  const outbound = journeys(origin, destination, key.departureDate, key.carriers ?? undefined);
  if (!key.returnDate) return outbound.map((j) => ({ carrier: j.carrier, journeys: [j] }));

  const inbound = journeys(destination, origin, key.returnDate, key.carriers ?? undefined);
  const best = (list: Journey[], carrier: string) =>
    list
      .filter((j) => j.carrier.code === carrier)
      .sort((a, b) => journeyMinutes(a) - journeyMinutes(b) || departureOf(a) - departureOf(b))
      .slice(0, JOURNEYS_PER_DIRECTION_PER_CARRIER);
  const carriers = [...new Set(outbound.map((j) => j.carrier.code))];
  return carriers.flatMap((carrier) =>
    best(outbound, carrier).flatMap((out) =>
      best(inbound, carrier)
        .filter((back) => departureOf(back) >= arrivalOf(out) + MIN_SAME_DAY_TURNAROUND_MINUTES * MINUTE)
        .map((back) => ({ carrier: out.carrier, journeys: [out, back] })),
    ),
  );
}

/**
 * Every offer the sandbox has for a search, cheapest first, at most 25. Depends on the key only (not on the clock),
 * so the index inside a fare id always finds the same itinerary again.
 */
export function buildOffers(key: SearchKey): Offer[] {
  const candidates: Candidate[] = [];
  for (const itinerary of itineraries(key)) {
    const cabins = legCabins(itinerary, key.cabin);
    if (!cabins) continue;
    const quotes = familiesFor(key.cabin)
      .map((family) => quoteFare(itinerary, cabins, key, family))
      .filter((quote) => quote !== null);
    if (quotes.length === 0) continue;
    candidates.push({
      itinerary,
      cabins,
      quotes,
      firstDepartureUtc: departureOf(itinerary.journeys[0]),
      cheapest: Math.min(...quotes.map((q) => q.price.total.amount)),
      minutes: itinerary.journeys.reduce((sum, j) => sum + journeyMinutes(j), 0),
      signature: itinerary.journeys.map((j) => j.legs.map((l) => l.id).join()).join(),
    });
  }
  candidates.sort(
    (a, b) => a.cheapest - b.cheapest || a.minutes - b.minutes || a.signature.localeCompare(b.signature),
  );
  const search = searchId(key);
  return candidates.slice(0, MAX_OFFERS).map(({ itinerary, cabins, quotes, firstDepartureUtc }, index) => ({
    index,
    itinerary,
    cabins,
    firstDepartureUtc,
    fares: quotes.map((q) => supplierFare(itinerary, cabins, key, q, fareId(search, index, q.family))),
  }));
}

export function originDestination(key: SearchKey, offer: Offer): SupplierOriginDestination {
  return {
    id: offerId(searchId(key), offer.index),
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
  const offer = key ? buildOffers(key.search)[key.itinerary] : undefined;
  const fare = offer?.fares.find((f) => f.fare_id === id);
  if (!key || !offer || !fare) throw new OfferNotFound(`The sandbox has no fare ${id}: search again`);
  return { key, offer, fare };
}
