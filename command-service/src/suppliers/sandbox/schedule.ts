import { type Airline, HUB_CARRIERS, TURBOPROPS } from "./airlines.ts";
import { type Airport, distanceKm, findAirport } from "./airports.ts";
import { hashString, seeded } from "./random.ts";
import { addDays, localDate, localToUtc } from "./zoned-time.ts";

/** One flight on one date, times as UTC instants. */
export interface Leg {
  /** Flight and local departure date, e.g. LO752-20250601: unique within an itinerary. */
  id: string;
  carrier: Airline;
  flightNumber: string;
  from: Airport;
  to: Airport;
  departUtc: number;
  arriveUtc: number;
  durationMinutes: number;
  distanceKm: number;
  equipment: string;
}

/** The legs of one direction, all on the same carrier. */
export interface Journey {
  carrier: Airline;
  legs: readonly Leg[];
}

interface ScheduledFlight {
  flightNumber: string;
  minutesOfDay: number;
  durationMinutes: number;
  equipment: string;
  distanceKm: number;
}

const MINUTE = 60_000;
const MIN_LEG_KM = 150;
const LONG_HAUL_KM = 4500;
const REGIONAL_KM = 800;
const TAXI_AND_CLIMB_MINUTES = 30;
const MIN_CONNECTION_MINUTES = 50;
const MIN_LONG_HAUL_CONNECTION_MINUTES = 75;
const MAX_CONNECTION_MINUTES = 6 * 60;
const CONNECTIONS_PER_HUB = 2;
const MAX_ONE_STOP_JOURNEYS = 40;
const FIRST_DEPARTURE_MINUTES = 6 * 60;
const LAST_DEPARTURE_MINUTES = 22 * 60;
/** Long hauls leave hubs in the midday bank, after the morning feeders land; from the Americas, overnight. */
const LONG_HAUL_BANK = { first: 12 * 60 + 30, last: 17 * 60 + 30 };
const OVERNIGHT_BANK = { first: 17 * 60, last: 22 * 60 + 30 };

/**
 * Whether the carrier flies the route: one end is its hub (a base, for a low-cost carrier) and the other end is a hub
 * too, one of its gateways, or an airport of its regions within its range.
 */
function serves(airline: Airline, a: Airport, b: Airport): boolean {
  const aHub = airline.hubs.includes(a.code);
  const bHub = airline.hubs.includes(b.code);
  if (!aHub && !bHub) return false;
  const distance = distanceKm(a, b);
  if (distance < MIN_LEG_KM) return false;
  if (aHub && bHub) return true;
  const other = aHub ? b : a;
  if (airline.gateways.includes(other.code)) return true;
  return airline.regions.includes(other.continent) && distance <= airline.rangeKm;
}

/**
 * Block time from the great-circle distance: airways run about 5 % longer than the great circle, jets cruise at
 * about 820 km/h and turboprops at 480, westbound flights fight the jet stream, and taxi, climb and approach add
 * half an hour. Rounded up to 5 minutes, as timetables are.
 */
function blockMinutes(distance: number, equipment: string, eastbound: boolean): number {
  const speed = TURBOPROPS.has(equipment) ? 480 : 820;
  const wind = eastbound ? 0.96 : 1.05;
  const minutes = ((distance * 1.05) / speed) * 60 * wind + TAXI_AND_CLIMB_MINUTES;
  return Math.ceil(minutes / 5) * 5;
}

const MAX_CACHED_ROUTES = 20_000;
const timetables = new Map<string, readonly ScheduledFlight[]>();

/** The carrier's daily timetable on a route: the same every day, derived from the carrier and the airports only. */
function timetable(airline: Airline, from: Airport, to: Airport): readonly ScheduledFlight[] {
  const key = `${airline.code}${from.code}${to.code}`;
  const cached = timetables.get(key);
  if (cached) return cached;

  const distance = distanceKm(from, to);
  const longHaul = distance > LONG_HAUL_KM;
  const rng = seeded("timetable", key);
  const hubToHub = HUB_CARRIERS.has(from.code) && HUB_CARRIERS.has(to.code);
  const frequency = longHaul || airline.lowCost ? 1 : hubToHub ? rng.between(3, 4) : rng.between(1, 3);

  // A route keeps its number pair both ways: even numbers one way, the next odd number back.
  const pair = from.code < to.code ? `${from.code}${to.code}` : `${to.code}${from.code}`;
  const numberSeed = hashString(`${airline.code}${pair}`);
  const firstNumber = longHaul ? 2 + 2 * (numberSeed % 45) : 100 + 2 * (numberSeed % 1400);
  const returning = from.code > to.code ? 1 : 0;

  const fleet = longHaul
    ? airline.fleet.wide
    : distance <= REGIONAL_KM
      ? airline.fleet.regional
      : airline.fleet.narrow;
  const window = !longHaul
    ? { first: FIRST_DEPARTURE_MINUTES, last: LAST_DEPARTURE_MINUTES }
    : from.continent.endsWith("America")
      ? OVERNIGHT_BANK
      : LONG_HAUL_BANK;
  const slot = Math.floor((window.last - window.first) / frequency);
  const flights: ScheduledFlight[] = [];
  for (let i = 0; i < frequency; i++) {
    const equipment = rng.pick(fleet);
    const minutesOfDay = window.first + i * slot + 5 * rng.int(Math.floor((slot - 30) / 5));
    flights.push({
      flightNumber: String(firstNumber + 2 * i * 10 + returning),
      minutesOfDay,
      durationMinutes: blockMinutes(distance, equipment, to.lon > from.lon),
      equipment,
      distanceKm: Math.round(distance),
    });
  }
  if (timetables.size >= MAX_CACHED_ROUTES) timetables.clear();
  timetables.set(key, flights);
  return flights;
}

/** The route's flights departing on a local date at the origin. */
function legsOn(airline: Airline, from: Airport, to: Airport, date: string): Leg[] {
  const compactDate = date.replaceAll("-", "");
  return timetable(airline, from, to).map((f) => {
    const departUtc = localToUtc(from.timeZone, date, f.minutesOfDay);
    return {
      id: `${airline.code}${f.flightNumber}-${compactDate}`,
      carrier: airline,
      flightNumber: f.flightNumber,
      from,
      to,
      departUtc,
      arriveUtc: departUtc + f.durationMinutes * MINUTE,
      durationMinutes: f.durationMinutes,
      distanceKm: f.distanceKm,
      equipment: f.equipment,
    };
  });
}

export const departureOf = (journey: Journey | undefined): number => journey?.legs[0]?.departUtc ?? 0;
export const arrivalOf = (journey: Journey | undefined): number => journey?.legs.at(-1)?.arriveUtc ?? 0;
export const journeyMinutes = (journey: Journey): number =>
  Math.round((arrivalOf(journey) - departureOf(journey)) / MINUTE);

const MAX_CACHED_AIRPORT_PAIRS = 20_000;
const directCarriers = new Map<string, readonly Airline[]>();
const hubRoutes = new Map<string, readonly HubRoute[]>();

/** A hub to connect over, with the network carriers that fly both legs of the connection. */
interface HubRoute {
  hub: Airport;
  carriers: readonly Airline[];
}

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= MAX_CACHED_AIRPORT_PAIRS) cache.clear();
  cache.set(key, value);
  return value;
}

/** The carriers based at either end that fly the route: the same for every date, so worked out once per pair. */
function carriersFlying(from: Airport, to: Airport): readonly Airline[] {
  const key = `${from.code}${to.code}`;
  const cached = directCarriers.get(key);
  if (cached) return cached;
  const carriers = new Set([...(HUB_CARRIERS.get(from.code) ?? []), ...(HUB_CARRIERS.get(to.code) ?? [])]);
  return remember(
    directCarriers,
    key,
    [...carriers].filter((airline) => serves(airline, from, to)),
  );
}

/** Non-stop flights of the carriers based at either end. */
function directJourneys(
  from: Airport,
  to: Airport,
  date: string,
  allowed: (a: Airline) => boolean,
): Journey[] {
  const journeys: Journey[] = [];
  for (const airline of carriersFlying(from, to)) {
    if (!allowed(airline)) continue;
    for (const leg of legsOn(airline, from, to, date)) journeys.push({ carrier: airline, legs: [leg] });
  }
  return journeys;
}

/**
 * Hubs that are not much of a detour (the two legs may fly up to a quarter longer than the direct distance plus
 * 1,000 km), with the network carriers serving both legs. Low-cost carriers sell no connections. The same for every
 * date, so worked out once per pair: it weighs every hub in the network.
 */
function hubsBetween(from: Airport, to: Airport): readonly HubRoute[] {
  const key = `${from.code}${to.code}`;
  const cached = hubRoutes.get(key);
  if (cached) return cached;
  const direct = distanceKm(from, to);
  const routes: HubRoute[] = [];
  for (const [hubCode, airlines] of HUB_CARRIERS) {
    if (hubCode === from.code || hubCode === to.code) continue;
    const hub = findAirport(hubCode);
    if (!hub || distanceKm(from, hub) + distanceKm(hub, to) > direct * 1.25 + 1000) continue;
    const carriers = airlines.filter(
      (airline) => !airline.lowCost && serves(airline, from, hub) && serves(airline, hub, to),
    );
    if (carriers.length > 0) routes.push({ hub, carriers });
  }
  return remember(hubRoutes, key, routes);
}

/** Connections over a network carrier's hub, the quickest first. */
function oneStopJourneys(
  from: Airport,
  to: Airport,
  date: string,
  allowed: (a: Airline) => boolean,
): Journey[] {
  const journeys: Journey[] = [];
  for (const { hub, carriers } of hubsBetween(from, to)) {
    for (const airline of carriers) {
      if (allowed(airline)) journeys.push(...connectionsVia(airline, from, hub, to, date));
    }
  }
  journeys.sort((a, b) => journeyMinutes(a) - journeyMinutes(b));
  return journeys.slice(0, MAX_ONE_STOP_JOURNEYS);
}

function connectionsVia(airline: Airline, from: Airport, hub: Airport, to: Airport, date: string): Journey[] {
  const journeys: Journey[] = [];
  // The first legs mostly land on the same date: their onward flights are worked out once.
  let onwardDate = "";
  let onward: Leg[] = [];
  for (const first of legsOn(airline, from, hub, date)) {
    const arrivalDate = localDate(hub.timeZone, first.arriveUtc);
    if (arrivalDate !== onwardDate) {
      onwardDate = arrivalDate;
      onward = [
        ...legsOn(airline, hub, to, arrivalDate),
        ...legsOn(airline, hub, to, addDays(arrivalDate, 1)),
      ];
    }
    const minimum =
      first.distanceKm > LONG_HAUL_KM || (onward[0]?.distanceKm ?? 0) > LONG_HAUL_KM
        ? MIN_LONG_HAUL_CONNECTION_MINUTES
        : MIN_CONNECTION_MINUTES;
    // The earliest onward flight within the connection window (the first of equals, as a stable sort keeps them).
    let second: Leg | undefined;
    for (const leg of onward) {
      const wait = (leg.departUtc - first.arriveUtc) / MINUTE;
      if (
        wait >= minimum &&
        wait <= MAX_CONNECTION_MINUTES &&
        (!second || leg.departUtc < second.departUtc)
      ) {
        second = leg;
      }
    }
    if (second) journeys.push({ carrier: airline, legs: [first, second] });
  }
  return journeys.sort((a, b) => journeyMinutes(a) - journeyMinutes(b)).slice(0, CONNECTIONS_PER_HUB);
}

/** Every journey from one airport to another departing on a local date, non-stop first. */
export function journeys(from: Airport, to: Airport, date: string, carriers?: readonly string[]): Journey[] {
  const allowed = carriers ? (a: Airline) => carriers.includes(a.code) : () => true;
  const direct = directJourneys(from, to, date, allowed).sort((a, b) => departureOf(a) - departureOf(b));
  return [...direct, ...oneStopJourneys(from, to, date, allowed)];
}
