import type { FareFamilyCode, Flight, SearchResult } from "@skyward/contracts/offers";
import type { SearchFilters, SliceFilter } from "@skyward/contracts/search";
import type { FilterKey } from "../api/search-offers.ts";

export interface CarrierOption {
  code: string;
  name: string;
  /** The cheapest total of an itinerary flown only by this carrier, if there is one. */
  from: number | null;
}

const FAMILY_ORDER: readonly FareFamilyCode[] = ["light", "standard", "flex"];

/** The fare families sold anywhere in the result, from the lightest. */
export function familiesOf(result: SearchResult): FareFamilyCode[] {
  const present = new Set(
    result.origin_destinations.flatMap((option) => option.fares.map((fare) => fare.family)),
  );
  return FAMILY_ORDER.filter((family) => present.has(family));
}

/** One slice of a multi-city result, filtered on its own: its ends, the stop counts and airlines its flights have. */
export interface SliceOption {
  slice: number;
  from: string;
  to: string;
  stops: number[];
  /** The marketing carriers of the slice's segments, by code. */
  carriers: { code: string; name: string }[];
}

export interface FilterOptions {
  /** Stop counts present: 0, 1, 2 (2 standing for "2 or more"). */
  stops: number[];
  carriers: CarrierOption[];
  price: { min: number; max: number } | null;
  hasBaggageChoice: boolean;
  /** The slices of a multi-city result (none for a one-pair search). */
  slices: SliceOption[];
}

/** Each slice of a multi-city result with the stop counts its flights have, from every itinerary. */
function sliceOptions(result: SearchResult): SliceOption[] {
  const options = result.origin_destinations;
  if (!options.some((option) => option.flights.some((flight) => flight.direction === "onward"))) return [];
  const slices: SliceOption[] = [];
  for (const option of options)
    option.flights.forEach((flight, i) => {
      const entry = slices[i] ?? {
        slice: i,
        from: flight.segments[0]?.from.code ?? "",
        to: flight.segments.at(-1)?.to.code ?? "",
        stops: [],
        carriers: [],
      };
      const stops = Math.min(flight.stops, 2);
      if (!entry.stops.includes(stops)) entry.stops = [...entry.stops, stops].sort();
      for (const segment of flight.segments)
        if (!entry.carriers.some((c) => c.code === segment.carrier))
          entry.carriers = [...entry.carriers, { code: segment.carrier, name: segment.carrier_name }].sort(
            (a, b) => a.code.localeCompare(b.code),
          );
      slices[i] = entry;
    });
  return slices;
}

/** The filters of slices with one slice's filter set (its keys merged), or removed when it is left empty. */
export function withSliceFilter(
  current: SliceFilter[] | undefined,
  slice: number,
  change: Omit<Partial<SliceFilter>, "slice">,
): SliceFilter[] {
  const others = (current ?? []).filter((f) => f.slice !== slice);
  const merged: SliceFilter = { ...(current ?? []).find((f) => f.slice === slice), ...change, slice };
  for (const key of ["stops", "carriers", "departure_time", "arrival_time"] as const)
    if (merged[key] === undefined) delete merged[key];
  const kept = Object.keys(merged).length > 1 ? [merged] : [];
  return [...others, ...kept].sort((a, b) => a.slice - b.slice);
}

const cheapest = (amounts: number[]) => (amounts.length ? Math.min(...amounts) : null);

/** What the filters offer, from the whole answer: a filter never hides its own alternatives. */
export function filterOptions(result: SearchResult): FilterOptions {
  const stops = new Set<number>();
  const carriers = new Map<string, { name: string; prices: number[] }>();
  const prices: number[] = [];
  let withBag = false;
  let withoutBag = false;
  for (const option of result.origin_destinations) {
    const optionPrices = option.fares.map((fare) => fare.price.amount);
    prices.push(...optionPrices);
    for (const flight of option.flights) stops.add(Math.min(flight.stops, 2));
    const codes = new Set(option.flights.flatMap((flight: Flight) => flight.segments.map((s) => s.carrier)));
    for (const flight of option.flights)
      for (const segment of flight.segments) {
        const entry = carriers.get(segment.carrier) ?? { name: segment.carrier_name, prices: [] };
        if (codes.size === 1) entry.prices.push(...optionPrices);
        carriers.set(segment.carrier, entry);
      }
    for (const fare of option.fares) {
      if (fare.fare_segments.every((s) => s.baggage.checked.pieces > 0)) withBag = true;
      else withoutBag = true;
    }
  }
  const min = cheapest(prices);
  return {
    stops: [...stops].sort(),
    carriers: [...carriers]
      .map(([code, { name, prices: carrierPrices }]) => ({ code, name, from: cheapest(carrierPrices) }))
      .sort(
        (a, b) =>
          (a.from ?? Number.MAX_SAFE_INTEGER) - (b.from ?? Number.MAX_SAFE_INTEGER) ||
          a.name.localeCompare(b.name),
      ),
    price: min === null ? null : { min, max: Math.max(...prices) },
    hasBaggageChoice: withBag && withoutBag,
    slices: sliceOptions(result),
  };
}

/** "2 or more stops" is sent as 2 and 3, the most the server knows. */
export const stopsToFilter = (selected: number[]): number[] =>
  [...new Set(selected.flatMap((stop) => (stop >= 2 ? [2, 3] : [stop])))].sort();

export const stopsFromFilter = (filter: number[] | undefined): number[] =>
  [...new Set((filter ?? []).map((stop) => Math.min(stop, 2)))].sort();

export const FILTER_KEYS: readonly FilterKey[] = [
  "stops",
  "carriers",
  "departure_time",
  "arrival_time",
  "price",
  "baggage",
  "slices",
];

export function activeFilterKeys(filters: SearchFilters): FilterKey[] {
  return FILTER_KEYS.filter((key) => filters[key] !== undefined);
}

export type SortOrder = "price" | "duration" | "departure";

const totalDuration = (flights: Flight[]) =>
  flights.reduce((sum, flight) => sum + flight.duration_minutes, 0);

/** The agent's order of the itineraries; the server answers them cheapest first. */
export function sortOptions(options: SearchResult["origin_destinations"], order: SortOrder) {
  const minPrice = (o: (typeof options)[number]) => Math.min(...o.fares.map((fare) => fare.price.amount));
  const by: Record<SortOrder, (a: (typeof options)[number], b: (typeof options)[number]) => number> = {
    price: (a, b) => minPrice(a) - minPrice(b),
    duration: (a, b) => totalDuration(a.flights) - totalDuration(b.flights) || minPrice(a) - minPrice(b),
    departure: (a, b) =>
      (a.flights[0]?.departure_at ?? "").localeCompare(b.flights[0]?.departure_at ?? "") ||
      minPrice(a) - minPrice(b),
  };
  return [...options].sort(by[order]);
}
