import { isMultiCity, searchSlices } from "@skyward/contracts/journey";
import type { JourneySearchRequest } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import type { SortOrder } from "./components/filter-options.ts";
import type { SearchFormValues } from "./machines/search-form.ts";
import { searchKey } from "./search-key.ts";
import type { SearchParams } from "./url-checks.ts";

// The address's schema, and what reads it or the recent searches with zod, live in url-checks.ts (loaded with the
// first address or recent search there is to check, features/search/load-checks.ts).
export type { SearchParams, SortOrder };
export { searchKey };

/** The address of a search (no sort, filters or booking yet); defaults left out to keep links short. */
export function paramsFromRequest(request: JourneySearchRequest): SearchParams {
  const { adults, children, infants } = request.passengers;
  const journey: SearchParams = isMultiCity(request)
    ? {
        slices: request.slices.map((s) => `${s.origin}-${s.destination}-${s.departure_date}`).join("_"),
      }
    : {
        from: request.origin,
        to: request.destination,
        depart: request.departure_date,
        ...(request.return_date ? { return: request.return_date } : {}),
      };
  return {
    ...journey,
    ...(adults !== 1 ? { adults } : {}),
    ...(children ? { children } : {}),
    ...(infants ? { infants } : {}),
    ...(request.cabin !== "economy" ? { cabin: request.cabin } : {}),
  };
}

/** "KBP → WAW", "KBP ⇄ WAW" for a round trip, "KBP → WAW → PAR → KBP" for a multi-city journey. */
export function routeOf(request: JourneySearchRequest): string {
  if (!isMultiCity(request))
    return `${request.origin} ${request.return_date ? "⇄" : "→"} ${request.destination}`;
  const stops = request.slices.flatMap((s, i) =>
    i > 0 && request.slices[i - 1]?.destination === s.origin ? [s.destination] : [s.origin, s.destination],
  );
  return stops.join(" → ");
}

/** The days a journey leaves, each slice's. */
export const journeyDates = (request: JourneySearchRequest): string[] =>
  searchSlices(request).map((s) => s.departure_date);

const airportOf = (code: string) => ({ code, name: code, city: code, country: "" });

/** The search form showing a search from the address (airports by code until the agent picks others). */
export function formValuesOf(request: JourneySearchRequest): SearchFormValues {
  if (isMultiCity(request)) {
    const [first] = request.slices;
    return {
      tripType: "multi_city",
      origin: first ? airportOf(first.origin) : null,
      destination: first ? airportOf(first.destination) : null,
      departureDate: first?.departure_date ?? null,
      returnDate: null,
      passengers: request.passengers,
      cabin: request.cabin,
      slices: request.slices.map((s) => ({
        origin: airportOf(s.origin),
        destination: airportOf(s.destination),
        departureDate: s.departure_date,
      })),
    };
  }
  return {
    tripType: request.return_date ? "round_trip" : "one_way",
    origin: airportOf(request.origin),
    destination: airportOf(request.destination),
    departureDate: request.departure_date,
    returnDate: request.return_date ?? null,
    passengers: request.passengers,
    cabin: request.cabin,
    slices: [],
  };
}

export const hasFilters = (filters: SearchFilters | undefined): filters is SearchFilters =>
  filters !== undefined && Object.keys(filters).length > 0;
