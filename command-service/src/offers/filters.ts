import type { Flight, OriginDestination, SearchResult } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";

/** Local clock time of an ISO date-time with offset, in minutes after midnight. */
const localMinutes = (iso: string) => Number(iso.slice(11, 13)) * 60 + Number(iso.slice(14, 16));

const inWindow = (iso: string, w: { from: number; to: number } | undefined) =>
  !w || (localMinutes(iso) >= w.from && localMinutes(iso) <= w.to);

function flightMatches(flight: Flight, f: Omit<SearchFilters, "slices">): boolean {
  if (f.stops && !f.stops.includes(Math.min(flight.stops, 3))) return false;
  if (f.carriers && !flight.segments.every((s) => f.carriers?.includes(s.carrier))) return false;
  if (!inWindow(flight.departure_at, f.departure_time)) return false;
  if (!inWindow(flight.arrival_at, f.arrival_time)) return false;
  return true;
}

/** The result narrowed by the filters; fares outside the price or baggage filter drop, then empty options drop. */
export function applyFilters(result: SearchResult, f: SearchFilters): SearchResult {
  const options: OriginDestination[] = [];
  for (const od of result.origin_destinations) {
    if (!od.flights.every((flight) => flightMatches(flight, f))) continue;
    const slicesMatch = (f.slices ?? []).every((sf) => {
      const flight = od.flights[sf.slice];
      return flight !== undefined && flightMatches(flight, sf);
    });
    if (!slicesMatch) continue;
    const fares = od.fares.filter(
      (fare) =>
        (f.price?.min === undefined || fare.price.amount >= f.price.min) &&
        (f.price?.max === undefined || fare.price.amount <= f.price.max) &&
        (f.baggage !== "checked" || fare.fare_segments.every((s) => s.baggage.checked.pieces > 0)),
    );
    const [first, ...rest] = fares;
    if (first) options.push({ ...od, fares: [first, ...rest] });
  }
  return { ...result, origin_destinations: options };
}
