import {
  AirportCode,
  Cabin,
  IsoDate,
  isMultiCity,
  type JourneySearchRequest,
  JourneySearchRequest as JourneySearchRequestSchema,
  MultiCitySearchRequest,
  SearchRequest as SearchRequestSchema,
  searchSlices,
} from "@skyward/contracts/offers";
import { SearchFilters } from "@skyward/contracts/search";
import { z } from "zod";
import type { SortOrder } from "./components/filter-options.ts";
import type { SearchFormValues } from "./machines/search-form.ts";
import { recentSearchesKey } from "./recent-searches-key.ts";

const count = (min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).optional().catch(undefined);

/**
 * The search page's address: the search itself, its sort and filters, and the result and fare whose booking form is
 * open. Whatever does not parse is dropped (a hand-edited link still opens the page), never an error.
 */
export const SearchParams = z.object({
  from: AirportCode.optional().catch(undefined),
  to: AirportCode.optional().catch(undefined),
  depart: IsoDate.optional().catch(undefined),
  return: IsoDate.optional().catch(undefined),
  /** A multi-city journey, slice by slice: KBP-WAW-2026-12-20_WAW-PAR-2026-12-23 (from, to and depart then unused). */
  slices: z
    .string()
    .regex(/^[A-Z]{3}-[A-Z]{3}-\d{4}-\d{2}-\d{2}(?:_[A-Z]{3}-[A-Z]{3}-\d{4}-\d{2}-\d{2}){0,5}$/)
    .optional()
    .catch(undefined),
  adults: count(1, 9),
  children: count(0, 8),
  infants: count(0, 9),
  cabin: Cabin.optional().catch(undefined),
  sort: z.enum(["price", "duration", "departure"]).optional().catch(undefined),
  filters: SearchFilters.optional().catch(undefined),
  /** The server's search result (kept a while): a reload shows the same offers rather than searching again. */
  result: z.string().min(1).max(100).optional().catch(undefined),
  /** The fare whose booking form is open. */
  fare: z.string().min(1).max(200).optional().catch(undefined),
  /** The company an administrator or support user books for (they have none of their own). */
  company: z.string().min(1).max(100).optional().catch(undefined),
  /** The fare calendar around the search's dates is open. */
  calendar: z.literal("open").optional().catch(undefined),
});
export type SearchParams = z.infer<typeof SearchParams>;
export type { SortOrder };

/** The search the address names, when it names a whole valid one. */
export function requestFromParams(params: SearchParams): JourneySearchRequest | null {
  const passengers = {
    adults: params.adults ?? 1,
    children: params.children ?? 0,
    infants: params.infants ?? 0,
  };
  const cabin = params.cabin ?? "economy";
  if (params.slices) {
    const parsed = MultiCitySearchRequest.safeParse({
      slices: params.slices.split("_").map((slice) => ({
        origin: slice.slice(0, 3),
        destination: slice.slice(4, 7),
        departure_date: slice.slice(8),
      })),
      passengers,
      cabin,
    });
    return parsed.success ? parsed.data : null;
  }
  if (!params.from || !params.to || !params.depart) return null;
  const parsed = SearchRequestSchema.safeParse({
    origin: params.from,
    destination: params.to,
    departure_date: params.depart,
    ...(params.return ? { return_date: params.return } : {}),
    passengers,
    cabin,
  });
  return parsed.success ? parsed.data : null;
}

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

/** Equal for the same search whatever else the address holds. */
export function searchKey(request: JourneySearchRequest | null): string {
  if (!request) return "";
  const { passengers, cabin } = request;
  if (isMultiCity(request)) return JSON.stringify([request.slices, passengers, cabin]);
  const { origin, destination, departure_date, return_date } = request;
  return JSON.stringify([origin, destination, departure_date, return_date ?? null, passengers, cabin]);
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

const RECENT_LIMIT = 5;
const RecentSearches = z.array(JourneySearchRequestSchema).max(RECENT_LIMIT);

/** The user's last searches made in this browser, newest first; nothing when storage is off or holds something else. */
export function recentSearches(userId: string): JourneySearchRequest[] {
  try {
    const parsed = RecentSearches.safeParse(
      JSON.parse(window.localStorage.getItem(recentSearchesKey(userId)) ?? "[]"),
    );
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Puts a search first in the user's recent list (once), keeping the last few. */
export function rememberSearch(request: JourneySearchRequest, userId: string): JourneySearchRequest[] {
  const key = searchKey(request);
  const next = [request, ...recentSearches(userId).filter((other) => searchKey(other) !== key)].slice(
    0,
    RECENT_LIMIT,
  );
  try {
    window.localStorage.setItem(recentSearchesKey(userId), JSON.stringify(next));
  } catch {
    // Storage disabled by the browser's privacy settings: the list only lives on this page.
  }
  return next;
}
