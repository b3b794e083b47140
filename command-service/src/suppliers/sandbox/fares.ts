import { type Money, money } from "@skyward/contracts/money";
import type {
  AncillaryItem,
  BaggageAllowance,
  Cabin,
  FareFamilyCode,
  FarePenalty,
  FareRules,
  FareSegment,
  Flight,
  OriginalPriceDetail,
  PassengerType,
  PenaltyRule,
  Segment,
  SupplierFare,
  SupplierPrice,
} from "@skyward/contracts/offers";
import type { Airline } from "./airlines.ts";
import { EQUIPMENT_NAMES } from "./airlines.ts";
import { airportRef } from "./airports.ts";
import { convertMinor, eurosToMinor, exchangeRate } from "./exchange-rates.ts";
import type { SearchKey } from "./offer-id.ts";
import { hashString, prng, seeded } from "./random.ts";
import { type Journey, journeyMinutes, type Leg } from "./schedule.ts";
import { formatLocal } from "./zoned-time.ts";

/** A journey option: one journey per direction, all on the validating carrier. */
export interface Itinerary {
  carrier: Airline;
  journeys: readonly Journey[];
  /** A multi-city journey: its slices after the first fly onward, none is a return. */
  multiCity?: boolean;
}

const LONG_HAUL_KM = 4500;
const MINUTE = 60_000;

const CABIN_NAMES: Readonly<Record<Cabin, string>> = {
  economy: "Economy",
  premium_economy: "Premium",
  business: "Business",
  first: "First",
};
const DOWNGRADES: Readonly<Record<Cabin, readonly Cabin[]>> = {
  first: ["first", "business", "premium_economy", "economy"],
  business: ["business", "premium_economy", "economy"],
  premium_economy: ["premium_economy", "economy"],
  economy: ["economy"],
};
const BOOKING_CLASSES: Readonly<Record<Cabin, Readonly<Record<FareFamilyCode, string>>>> = {
  economy: { light: "Q", standard: "M", flex: "Y" },
  premium_economy: { light: "E", standard: "N", flex: "W" },
  business: { light: "Z", standard: "D", flex: "J" },
  first: { light: "A", standard: "A", flex: "F" },
};
const CABIN_PRICE_FACTOR: Readonly<Record<Cabin, number>> = {
  economy: 1,
  premium_economy: 1.7,
  business: 3.2,
  first: 5.5,
};

/** Premium economy and first are long-haul products; business is sold everywhere but on low-cost carriers. */
function offersCabin(airline: Airline, leg: Leg, cabin: Cabin): boolean {
  if (!airline.cabins.includes(cabin)) return false;
  return cabin === "economy" || cabin === "business" || leg.distanceKm > LONG_HAUL_KM;
}

/**
 * The cabin flown on every leg: the one asked for where the carrier sells it, else the next one down (a feeder leg
 * in business under a long-haul first, as mixed-cabin fares do). Null unless some leg is in the cabin asked for.
 */
export function legCabins(itinerary: Itinerary, cabin: Cabin): Cabin[][] | null {
  let matched = false;
  const cabins = itinerary.journeys.map((journey) =>
    journey.legs.map((leg) => {
      const flown = DOWNGRADES[cabin].find((c) => offersCabin(itinerary.carrier, leg, c)) ?? "economy";
      if (flown === cabin) matched = true;
      return flown;
    }),
  );
  return matched ? cabins : null;
}

export function familiesFor(cabin: Cabin): FareFamilyCode[] {
  return cabin === "business" || cabin === "first" ? ["standard", "flex"] : ["light", "standard", "flex"];
}

interface FamilyTerms {
  priceFactor: number;
  baggage: BaggageAllowance;
  /** Fees per passenger in EUR; null: not permitted. */
  fees: {
    changeBefore: number | null;
    changeAfter: number | null;
    refundBefore: number | null;
    refundAfter: number | null;
  };
}

const bags = (pieces: number, kg: number) => ({ pieces, weight_kg: kg });
const NONE = bags(0, 0);

type TermsTable = Readonly<Record<Cabin, Readonly<Record<FareFamilyCode, FamilyTerms>>>>;

/**
 * Every cabin and family once, frozen: fares share these objects, so a caller editing one fare cannot change the
 * next search.
 */
function termsTable(lowCost: boolean): TermsTable {
  const families = (cabin: Cabin) => ({
    light: deepFreeze(termsFor(lowCost, cabin, "light")),
    standard: deepFreeze(termsFor(lowCost, cabin, "standard")),
    flex: deepFreeze(termsFor(lowCost, cabin, "flex")),
  });
  return {
    economy: families("economy"),
    premium_economy: families("premium_economy"),
    business: families("business"),
    first: families("first"),
  };
}

function familyTerms(airline: Airline, cabin: Cabin, family: FareFamilyCode): FamilyTerms {
  return (airline.lowCost ? LOW_COST_TERMS : NETWORK_TERMS)[cabin][family];
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (child && typeof child === "object") deepFreeze(child);
  return Object.freeze(value);
}

function termsFor(lowCost: boolean, cabin: Cabin, family: FareFamilyCode): FamilyTerms {
  if (lowCost) {
    const withBags = { checked: bags(1, 20), carry_on: bags(1, 10), personal_item: true };
    if (family === "light") {
      return {
        priceFactor: 1,
        baggage: { checked: NONE, carry_on: NONE, personal_item: true },
        fees: { changeBefore: 45, changeAfter: null, refundBefore: null, refundAfter: null },
      };
    }
    if (family === "standard") {
      return {
        priceFactor: 1.45,
        baggage: withBags,
        fees: { changeBefore: 35, changeAfter: null, refundBefore: null, refundAfter: null },
      };
    }
    return {
      priceFactor: 1.9,
      baggage: withBags,
      fees: { changeBefore: 0, changeAfter: null, refundBefore: 60, refundAfter: null },
    };
  }
  if (cabin === "business" || cabin === "first") {
    const baggage = {
      checked: bags(cabin === "first" ? 3 : 2, 32),
      carry_on: bags(2, 8),
      personal_item: true,
    };
    return family === "flex"
      ? {
          priceFactor: 1.3,
          baggage,
          fees: { changeBefore: 0, changeAfter: 0, refundBefore: 0, refundAfter: 100 },
        }
      : {
          priceFactor: 1,
          baggage,
          fees: { changeBefore: 100, changeAfter: 150, refundBefore: 200, refundAfter: null },
        };
  }
  const premium = cabin === "premium_economy";
  if (family === "light") {
    return {
      priceFactor: 1,
      baggage: { checked: premium ? bags(1, 23) : NONE, carry_on: bags(1, 8), personal_item: true },
      fees: { changeBefore: null, changeAfter: null, refundBefore: null, refundAfter: null },
    };
  }
  if (family === "standard") {
    return {
      priceFactor: 1.3,
      baggage: { checked: bags(premium ? 2 : 1, 23), carry_on: bags(1, 8), personal_item: true },
      fees: { changeBefore: 70, changeAfter: null, refundBefore: 150, refundAfter: null },
    };
  }
  return {
    priceFactor: 1.95,
    baggage: { checked: bags(2, 23), carry_on: bags(1, 8), personal_item: true },
    fees: { changeBefore: 0, changeAfter: 50, refundBefore: 0, refundAfter: 100 },
  };
}

const NETWORK_TERMS = termsTable(false);
const LOW_COST_TERMS = termsTable(true);

const FAMILY_NAMES: Readonly<Record<FareFamilyCode, string>> = {
  light: "Light",
  standard: "Standard",
  flex: "Flex",
};

const brandName = (cabin: Cabin, family: FareFamilyCode): string =>
  `${CABIN_NAMES[cabin]} ${FAMILY_NAMES[family]}`;

/** One number per airport ever priced: a few thousand at most. */
const airportCharges = new Map<string, number>();

/** Airport charges differ per airport but never from one search to the next. */
function airportChargeEur(airportCode: string): number {
  let charge = airportCharges.get(airportCode);
  if (charge === undefined) {
    charge = 8 + (hashString(`charge${airportCode}`) % 28);
    airportCharges.set(airportCode, charge);
  }
  return charge;
}

const flightKey = (journey: Journey) => journey.legs.map((l) => `${l.id}@${l.departUtc}`).join("+");

/** What the fare families of an itinerary have in common: worked out once per itinerary, not once per family. */
interface ItineraryBasis {
  /** The hash of the seats-left seed up to the family: the same flights sell the same seats in every search. */
  seatsSeedHash: number;
  /**
   * Per journey in EUR, the base fare with every factor but the family's, multiplied in the filing's order: the
   * family's factor, multiplied last, then gives the very same float.
   */
  journeyFaresEur: number[];
  taxes: number;
  infantTaxes: number;
  /** Low-cost carriers charge infants a flat fee; null on network carriers, which charge a share of the fare. */
  infantBase: number | null;
}

/**
 * The sandbox's fare filing: a distance-based fare per journey, cheaper per km on long hauls and on low-cost
 * carriers, a connection discount, a demand factor fixed per flight and date, cabin and family factors, and a
 * round-trip discount on network carriers. Taxes are airport charges per departure plus the carrier surcharge (YQ).
 * Children pay 75 % of the adult fare on network carriers, infants 10 % (a flat 25 EUR per journey on low-cost).
 */
function itineraryBasis(itinerary: Itinerary, cabins: Cabin[][], cabin: Cabin): ItineraryBasis {
  const { carrier } = itinerary;
  const roundTrip = itinerary.journeys.length === 2 && !itinerary.multiCity;
  const journeyFaresEur: number[] = [];
  const flightKeys: string[] = [];
  let taxesEur = 0;
  itinerary.journeys.forEach((journey, j) => {
    const key = flightKey(journey);
    flightKeys.push(key);
    const legs = journey.legs.map((leg, l) => ({ km: leg.distanceKm, cabin: cabins[j]?.[l] ?? cabin }));
    journeyFaresEur.push(journeyFareEur(carrier, key, legs, roundTrip));
    for (const leg of journey.legs) {
      taxesEur +=
        airportChargeEur(leg.from.code) + (carrier.lowCost ? 0 : Math.min(0.012 * leg.distanceKm, 140));
    }
  });
  const taxes = eurosToMinor(taxesEur, carrier.currency);
  return {
    seatsSeedHash: hashString(`seats|${flightKeys.join("/")}|${cabin}|`),
    journeyFaresEur,
    taxes,
    infantTaxes: Math.round(taxes * 0.3),
    infantBase: carrier.lowCost ? eurosToMinor(25 * itinerary.journeys.length, carrier.currency, true) : null,
  };
}

/**
 * One journey's base fare in EUR with every factor but the family's: distance, cabins flown, the demand fixed per
 * flight and date (`key`: its legs' ids and departures), a connection discount, a round-trip discount.
 */
function journeyFareEur(
  carrier: Airline,
  key: string,
  legs: readonly { km: number; cabin: Cabin }[],
  roundTrip: boolean,
): number {
  const km = legs.reduce((sum, leg) => sum + leg.km, 0);
  const fare = carrier.lowCost
    ? 12 + 0.045 * km
    : 35 + 0.08 * Math.min(km, 3000) + 0.045 * Math.max(0, km - 3000);
  const cabinFactor = legs.reduce((sum, leg) => sum + leg.km * CABIN_PRICE_FACTOR[leg.cabin], 0) / km;
  const demand = 0.8 + 0.6 * seeded("demand", key).next();
  const connection = legs.length > 1 ? 0.88 : 1;
  const roundTripDiscount = roundTrip && !carrier.lowCost ? 0.9 : 1;
  return fare * cabinFactor * demand * connection * roundTripDiscount;
}

/** Per-passenger amounts in minor units of the carrier's filing currency. */
type FiledPrices = Record<PassengerType, { base: number; taxes: number }>;

function filedPrices(
  carrier: Airline,
  basis: ItineraryBasis,
  cabin: Cabin,
  families: readonly FareFamilyCode[],
): FiledPrices {
  let baseEur = 0;
  basis.journeyFaresEur.forEach((journeyFare, j) => {
    baseEur += journeyFare * familyTerms(carrier, cabin, families[j] ?? "standard").priceFactor;
  });
  const currency = carrier.currency;
  const adultBase = eurosToMinor(baseEur, currency, true);
  const { taxes } = basis;
  return {
    adult: { base: adultBase, taxes },
    child: { base: carrier.lowCost ? adultBase : eurosToMinor(baseEur * 0.75, currency, true), taxes },
    infant: {
      base: basis.infantBase ?? eurosToMinor(baseEur * 0.1, currency, true),
      taxes: basis.infantTaxes,
    },
  };
}

const PASSENGER_TYPES: readonly PassengerType[] = ["adult", "child", "infant"];

function priceIn(
  filed: FiledPrices,
  counts: Record<PassengerType, number>,
  from: string,
  to: string,
): SupplierPrice {
  const passengers: SupplierPrice["passengers"] = [];
  let base = 0;
  let taxes = 0;
  for (const type of PASSENGER_TYPES) {
    const count = counts[type];
    if (!(count > 0)) continue;
    const passengerBase = convertMinor(filed[type].base, from, to);
    const passengerTaxes = convertMinor(filed[type].taxes, from, to);
    passengers.push({
      type,
      count,
      base_fare: money(passengerBase, to),
      taxes: money(passengerTaxes, to),
      total: money(passengerBase + passengerTaxes, to),
    });
    base += passengerBase * count;
    taxes += passengerTaxes * count;
  }
  return { passengers, base_fare: money(base, to), taxes: money(taxes, to), total: money(base + taxes, to) };
}

/** `priceIn(...).total.amount` without building the price: offers are ranked on it before most are dropped. */
function totalIn(
  filed: FiledPrices,
  counts: Record<PassengerType, number>,
  from: string,
  to: string,
): number {
  let base = 0;
  let taxes = 0;
  for (const type of PASSENGER_TYPES) {
    const count = counts[type];
    if (!(count > 0)) continue;
    base += convertMinor(filed[type].base, from, to) * count;
    taxes += convertMinor(filed[type].taxes, from, to) * count;
  }
  return base + taxes;
}

function penaltyRule(feeEur: number | null, filing: string, sale: string): PenaltyRule {
  if (feeEur === null) return { allowed: false };
  return { allowed: true, fee: money(convertMinor(eurosToMinor(feeEur, filing, true), filing, sale), sale) };
}

function farePenalty(carrier: Airline, cabin: Cabin, family: FareFamilyCode, sale: string): FarePenalty {
  const { fees } = familyTerms(carrier, cabin, family);
  const filing = carrier.currency;
  return {
    change_before_departure: penaltyRule(fees.changeBefore, filing, sale),
    change_after_departure: penaltyRule(fees.changeAfter, filing, sale),
    refund_before_departure: penaltyRule(fees.refundBefore, filing, sale),
    refund_after_departure: penaltyRule(fees.refundAfter, filing, sale),
  };
}

const sameRule = (a: PenaltyRule, b: PenaltyRule) =>
  a.allowed === b.allowed &&
  (!a.allowed || (b.allowed && a.fee.amount === b.fee.amount && a.fee.currency === b.fee.currency));

/**
 * The rules of a fare whose slices sell in different families, one rule per kind: allowed when some slice allows
 * it; a refund's fee is the sum of the refundable slices' fees (a whole refund pays each), a change's the lowest (a
 * change is of one slice; each slice's own rule applies, see `bookedSlices`). One family throughout: its rules.
 */
export function combinedPenalty(penalties: readonly FarePenalty[]): FarePenalty {
  const [first] = penalties;
  if (!first) throw new Error("a fare has at least one slice");
  const kinds = Object.keys(first) as (keyof FarePenalty)[];
  if (penalties.every((p) => kinds.every((k) => sameRule(p[k], first[k])))) return first;
  const combine = (kind: keyof FarePenalty, fee: (fees: number[]) => number): PenaltyRule => {
    const allowed = penalties.flatMap((p) => {
      const rule = p[kind];
      return rule.allowed ? [rule.fee] : [];
    });
    const [some] = allowed;
    if (!some) return { allowed: false };
    return { allowed: true, fee: money(fee(allowed.map((m) => m.amount)), some.currency) };
  };
  const sum = (fees: number[]) => fees.reduce((a, b) => a + b, 0);
  const lowest = (fees: number[]) => Math.min(...fees);
  return {
    change_before_departure: combine("change_before_departure", lowest),
    change_after_departure: combine("change_after_departure", lowest),
    refund_before_departure: combine("refund_before_departure", sum),
    refund_after_departure: combine("refund_after_departure", sum),
  };
}

/** One slice of a booked or offered fare: the family it is sold in, its rules, and its share of the base fare. */
export interface SliceFare {
  slice: number;
  origin: string;
  destination: string;
  family: FareFamilyCode;
  brand_name: string;
  penalty: FarePenalty;
  /** The slice's filed base fare in EUR (any positive weight would do): how a ticket's base fare splits. */
  weight: number;
  km: number;
}

/** The family a fare segment is sold in, read back from its booking class in the cabin flown. */
function familyOfClass(fare: SupplierFare, segment: FareSegment | undefined): FareFamilyCode {
  if (!segment) return fare.family;
  const classes = BOOKING_CLASSES[segment.cabin];
  return familiesFor(fare.cabin).find((f) => classes[f] === segment.booking_class) ?? fare.family;
}

/**
 * The slices of a fare on its flights: each slice's family (from its first segment's booking class), its rules in
 * the fare's currency, and its share of the base fare, priced again from the flights as the fare was filed.
 */
export function bookedSlices(fare: SupplierFare, journey: readonly Flight[], carrier: Airline): SliceFare[] {
  const roundTrip = journey.length === 2 && journey[1]?.direction === "return";
  let index = 0;
  return journey.map((flight, j) => {
    const first = flight.segments[0];
    const segment = fare.fare_segments.find((s) => s.segment_id === first?.id) ?? fare.fare_segments[index];
    index += flight.segments.length;
    const family = familyOfClass(fare, segment);
    const key = flight.segments.map((s) => `${s.id}@${Date.parse(s.departure_at)}`).join("+");
    const legs = flight.segments.map((s) => ({ km: s.distance_km, cabin: s.cabin }));
    const terms = familyTerms(carrier, fare.cabin, family);
    return {
      slice: j,
      origin: first?.from.code ?? "",
      destination: flight.segments.at(-1)?.to.code ?? "",
      family,
      brand_name: brandName(fare.cabin, family),
      penalty: farePenalty(carrier, fare.cabin, family, fare.price.total.currency),
      weight: journeyFareEur(carrier, key, legs, roundTrip) * terms.priceFactor,
      km: legs.reduce((sum, leg) => sum + leg.km, 0),
    };
  });
}

/** The fare basis after its booking class: the family's first two letters, the trip type, LC on low-cost. */
const FARE_BASIS_FAMILY: Readonly<Record<FareFamilyCode, string>> = {
  light: FAMILY_NAMES.light.slice(0, 2).toUpperCase(),
  standard: FAMILY_NAMES.standard.slice(0, 2).toUpperCase(),
  flex: FAMILY_NAMES.flex.slice(0, 2).toUpperCase(),
};

function fareSegments(
  itinerary: Itinerary,
  cabins: Cabin[][],
  families: readonly FareFamilyCode[],
  cabin: Cabin,
): FareSegment[] {
  const { carrier } = itinerary;
  const trip = itinerary.multiCity ? "MC" : itinerary.journeys.length === 2 ? "RT" : "OW";
  const segments: FareSegment[] = [];
  itinerary.journeys.forEach((journey, j) => {
    // Each slice of a multi-city fare is sold in its own family: its booking classes, basis and bags.
    const family = families[j] ?? "standard";
    const basisSuffix = `${FARE_BASIS_FAMILY[family]}${trip}${carrier.lowCost ? "LC" : ""}`;
    journey.legs.forEach((leg, l) => {
      const flown = cabins[j]?.[l] ?? cabin;
      const bookingClass = BOOKING_CLASSES[flown][family];
      segments.push({
        segment_id: leg.id,
        booking_class: bookingClass,
        fare_basis: `${bookingClass}${basisSuffix}`,
        cabin: flown,
        baggage: familyTerms(carrier, flown, family).baggage,
      });
    });
  });
  return segments;
}

/** What ranking the offers needs of a fare: its family, seats, filed amounts and sale total. */
export interface FareQuote {
  family: FareFamilyCode;
  /** The family each slice is sold in: the fare's own, or a higher one where its class is closed on that slice. */
  families: FareFamilyCode[];
  seatsLeft: number;
  filed: FiledPrices;
  total: number;
}

/**
 * The families sold on an itinerary with their totals. The light family sells out on about one itinerary in seven,
 * and a family with fewer seats left than the party needs is not offered.
 */
export function quoteFares(itinerary: Itinerary, cabins: Cabin[][], key: SearchKey): FareQuote[] {
  const basis = itineraryBasis(itinerary, cabins, key.cabin);
  const party = partyOf(key);
  const quotes: FareQuote[] = [];
  const sold = new Set<string>();
  for (const family of familiesFor(key.cabin)) {
    // seeded("seats", flights, cabin, family), with the part before the family hashed once per itinerary.
    const availability = prng(hashString(family, basis.seatsSeedHash));
    if (family === "light" && availability.next() < 0.15) continue;
    const seatsLeft = availability.next() < 0.7 ? 9 : availability.between(1, 8);
    if (seatsLeft < key.adults + key.children) continue;
    const families = sliceFamilies(itinerary, key.cabin, family);
    // A family closed on every slice sells as the next one up: that fare is offered once.
    if (sold.has(families.join())) continue;
    sold.add(families.join());
    const filed = filedPrices(itinerary.carrier, basis, key.cabin, families);
    quotes.push({
      family,
      families,
      seatsLeft,
      filed,
      total: totalIn(filed, party, itinerary.carrier.currency, key.currency),
    });
  }
  return quotes;
}

const partyOf = (key: SearchKey) => ({ adult: key.adults, child: key.children, infant: key.infants });

/** About one slice in four has the class of a family below the top one closed (a multi-city fare's slice only). */
const SLICE_CLASS_CLOSED = 0.25;

/**
 * The family each slice of a fare is sold in. A multi-city fare is priced slice by slice (one fare component each,
 * as airlines file them): where the fare's class is closed on a slice's flights, that slice sells in the next family
 * up that is open, with its price, bags and rules. One-way trips and round trips sell one family throughout.
 */
export function sliceFamilies(itinerary: Itinerary, cabin: Cabin, family: FareFamilyCode): FareFamilyCode[] {
  if (!itinerary.multiCity) return itinerary.journeys.map(() => family);
  const ladder = familiesFor(cabin);
  const from = Math.max(0, ladder.indexOf(family));
  return itinerary.journeys.map((journey) => {
    const key = flightKey(journey);
    for (let f = from; f < ladder.length - 1; f++) {
      const candidate = ladder[f] as FareFamilyCode;
      if (seeded("slice-class", key, cabin, candidate).next() >= SLICE_CLASS_CLOSED) return candidate;
    }
    return ladder.at(-1) as FareFamilyCode;
  });
}

/** The full fare, built only for the offers a search returns. */
export function supplierFare(
  itinerary: Itinerary,
  cabins: Cabin[][],
  key: SearchKey,
  quote: FareQuote,
  fareId: string,
): SupplierFare {
  const { carrier } = itinerary;
  const { family } = quote;
  const party = partyOf(key);
  return {
    fare_id: fareId,
    validating_carrier: carrier.code,
    family,
    brand_name: brandName(key.cabin, family),
    cabin: key.cabin,
    fare_segments: fareSegments(itinerary, cabins, quote.families, key.cabin),
    penalty: combinedPenalty(quote.families.map((f) => farePenalty(carrier, key.cabin, f, key.currency))),
    seats_left: quote.seatsLeft,
    // Low-cost carriers sell against immediate payment: the booking is ticketed as it is made.
    instant_payment: carrier.lowCost,
    price: priceIn(quote.filed, party, carrier.currency, key.currency),
    original_price: originalPrice(
      priceIn(quote.filed, party, carrier.currency, carrier.currency),
      key.currency,
    ),
  };
}

function originalPrice(price: SupplierPrice, sale: string): OriginalPriceDetail {
  return {
    passengers: price.passengers,
    base_fare: price.base_fare,
    taxes: price.taxes,
    total: price.total,
    exchange_rate: exchangeRate(price.total.currency, sale),
  };
}

function segment(leg: Leg, cabin: Cabin): Segment {
  return {
    id: leg.id,
    carrier: leg.carrier.code,
    carrier_name: leg.carrier.name,
    operating_carrier: leg.carrier.code,
    flight_number: leg.flightNumber,
    from: airportRef(leg.from),
    to: airportRef(leg.to),
    departure_at: formatLocal(leg.from.timeZone, leg.departUtc),
    arrival_at: formatLocal(leg.to.timeZone, leg.arriveUtc),
    duration_minutes: leg.durationMinutes,
    distance_km: leg.distanceKm,
    equipment: { code: leg.equipment, name: EQUIPMENT_NAMES[leg.equipment] ?? leg.equipment },
    stops: 0,
    cabin,
  };
}

export function flights(itinerary: Itinerary, cabins: Cabin[][], cabin: Cabin): Flight[] {
  return itinerary.journeys.map((journey, j) => {
    const segments = journey.legs.map((leg, l) => segment(leg, cabins[j]?.[l] ?? cabin));
    const first = segments[0];
    const last = segments.at(-1);
    if (!first || !last) throw new Error("a journey has at least one leg");
    return {
      id: journey.legs.map((l) => l.id).join("_"),
      direction: j === 0 ? "outbound" : itinerary.multiCity ? "onward" : "return",
      segments,
      // The journey leaves with its first segment and lands with its last: the same local times.
      departure_at: first.departure_at,
      arrival_at: last.arrival_at,
      duration_minutes: journeyMinutes(journey),
      stops: journey.legs.length - 1,
      connections: journey.legs.slice(1).map((leg, l) => ({
        airport: leg.from.code,
        minutes: Math.round((leg.departUtc - (journey.legs[l]?.arriveUtc ?? leg.departUtc)) / MINUTE),
      })),
    };
  });
}

const ancillaryPrice = (eur: number, filing: string, sale: string) =>
  money(convertMinor(eurosToMinor(eur, filing, true), filing, sale), sale);

/**
 * Bags sold per passenger and segment (infants carry none): a checked bag everywhere, a cabin bag on low-cost
 * carriers, whose light fares include only a personal item.
 */
export function ancillaries(itinerary: Itinerary, sale: string): AncillaryItem[] {
  const { carrier } = itinerary;
  const filing = carrier.currency;
  return itinerary.journeys.flatMap((journey) =>
    journey.legs.flatMap((leg) => {
      const id = leg.id;
      const checkedKg = carrier.lowCost ? 20 : 23;
      const items: AncillaryItem[] = [
        {
          ancillary_id: `BAG-${id}`,
          type: "checked_bag",
          title: carrier.lowCost ? "Checked bag 20 kg" : "Checked bag 23 kg",
          pieces: 1,
          weight_kg: checkedKg,
          segment_id: id,
          passenger_types: ["adult", "child"],
          price: carrier.lowCost
            ? ancillaryPrice(Math.min(20 + 0.01 * leg.distanceKm, 60), filing, sale)
            : ancillaryPrice(Math.min(30 + 0.012 * leg.distanceKm, 90), filing, sale),
        },
      ];
      if (carrier.lowCost) {
        items.push({
          ancillary_id: `CABIN-${id}`,
          type: "carry_on",
          title: "Cabin bag 10 kg",
          pieces: 1,
          weight_kg: 10,
          segment_id: id,
          passenger_types: ["adult", "child"],
          price: ancillaryPrice(Math.min(12 + 0.006 * leg.distanceKm, 40), filing, sale),
        });
      }
      return items;
    }),
  );
}

const formatAmount = (m: Money) =>
  `${Math.trunc(m.amount / 100)}.${String(Math.abs(m.amount % 100)).padStart(2, "0")} ${m.currency}`;

const ruleText = (rule: PenaltyRule, action: string): string =>
  rule.allowed
    ? rule.fee.amount === 0
      ? `${action} free of charge.`
      : `${action} for ${formatAmount(rule.fee)} per passenger.`
    : `${action} not permitted.`;

/** The fare's rules in the ATPCO categories agents read: 5, 16, 19, 31 and 33. */
export function fareRules(fare: SupplierFare, carrier: Airline, journey: readonly Flight[]): FareRules {
  const p = fare.penalty;
  const taxesNote =
    "Unused government taxes and airport charges are refunded on request even when the fare is not.";
  return {
    fare_id: fare.fare_id,
    validating_carrier: fare.validating_carrier,
    family: fare.family,
    brand_name: fare.brand_name,
    penalty: fare.penalty,
    fare_segments: fare.fare_segments,
    slices: bookedSlices(fare, journey, carrier).map((s) => ({
      slice: s.slice,
      origin: s.origin,
      destination: s.destination,
      family: s.family,
      brand_name: s.brand_name,
      penalty: s.penalty,
    })),
    sections: [
      {
        category: 5,
        title: "Reservations and ticketing",
        text: carrier.lowCost
          ? "Ticket within one hour of booking. Tickets cannot be voided."
          : "Ticket by the booking's time limit. A ticket can be voided until the end of the day of issue.",
      },
      {
        category: 16,
        title: "Penalties",
        text: [
          ruleText(p.change_before_departure, "Changes before departure"),
          ruleText(p.change_after_departure, "Changes after departure"),
          ruleText(p.refund_before_departure, "Refunds before departure"),
          ruleText(p.refund_after_departure, "Refunds after departure"),
        ].join(" "),
      },
      {
        category: 19,
        title: "Children and infants",
        text: carrier.lowCost
          ? "Children (2-11) pay the adult fare. Infants (under 2, on an adult's lap) pay a flat fee."
          : "Children (2-11) pay 75% of the adult fare. Infants (under 2, on an adult's lap) pay 10%.",
      },
      {
        category: 31,
        title: "Voluntary changes",
        text: `${ruleText(p.change_before_departure, "Date changes on the same route before departure")} The fare difference is collected; a lower new fare leaves no residual.`,
      },
      {
        category: 33,
        title: "Voluntary refunds",
        text: `${ruleText(p.refund_before_departure, "Refunds before departure")} ${ruleText(p.refund_after_departure, "Refunds of partly flown tickets, prorated by distance,")} ${taxesNote}`,
      },
    ],
  };
}
