import {
  AirportCode,
  Cabin,
  IsoDate,
  type SearchRequest,
  SearchRequest as SearchRequestSchema,
} from "@skyward/contracts/offers";
import { SearchFilters } from "@skyward/contracts/search";
import { z } from "zod";
import type { SortOrder } from "./components/filter-options.ts";
import type { SearchFormValues } from "./machines/search-form.ts";
import { RECENT_SEARCHES_KEY } from "./recent-searches-key.ts";

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
});
export type SearchParams = z.infer<typeof SearchParams>;
export type { SortOrder };

/** The search the address names, when it names a whole valid one. */
export function requestFromParams(params: SearchParams): SearchRequest | null {
  if (!params.from || !params.to || !params.depart) return null;
  const parsed = SearchRequestSchema.safeParse({
    origin: params.from,
    destination: params.to,
    departure_date: params.depart,
    ...(params.return ? { return_date: params.return } : {}),
    passengers: { adults: params.adults ?? 1, children: params.children ?? 0, infants: params.infants ?? 0 },
    cabin: params.cabin ?? "economy",
  });
  return parsed.success ? parsed.data : null;
}

/** The address of a search (no sort, filters or booking yet); defaults left out to keep links short. */
export function paramsFromRequest(request: SearchRequest): SearchParams {
  const { adults, children, infants } = request.passengers;
  return {
    from: request.origin,
    to: request.destination,
    depart: request.departure_date,
    ...(request.return_date ? { return: request.return_date } : {}),
    ...(adults !== 1 ? { adults } : {}),
    ...(children ? { children } : {}),
    ...(infants ? { infants } : {}),
    ...(request.cabin !== "economy" ? { cabin: request.cabin } : {}),
  };
}

/** Equal for the same search whatever else the address holds. */
export function searchKey(request: SearchRequest | null): string {
  if (!request) return "";
  const { origin, destination, departure_date, return_date, passengers, cabin } = request;
  return JSON.stringify([origin, destination, departure_date, return_date ?? null, passengers, cabin]);
}

const airportOf = (code: string) => ({ code, name: code, city: code, country: "" });

/** The search form showing a search from the address (airports by code until the agent picks others). */
export function formValuesOf(request: SearchRequest): SearchFormValues {
  return {
    tripType: request.return_date ? "round_trip" : "one_way",
    origin: airportOf(request.origin),
    destination: airportOf(request.destination),
    departureDate: request.departure_date,
    returnDate: request.return_date ?? null,
    passengers: request.passengers,
    cabin: request.cabin,
  };
}

export const hasFilters = (filters: SearchFilters | undefined): filters is SearchFilters =>
  filters !== undefined && Object.keys(filters).length > 0;

const RECENT_LIMIT = 5;
const RecentSearches = z.array(SearchRequestSchema).max(RECENT_LIMIT);

/** The last searches made in this browser, newest first; nothing when storage is off or holds something else. */
export function recentSearches(): SearchRequest[] {
  try {
    const parsed = RecentSearches.safeParse(
      JSON.parse(window.localStorage.getItem(RECENT_SEARCHES_KEY) ?? "[]"),
    );
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Puts a search first in the recent list (once), keeping the last few. */
export function rememberSearch(request: SearchRequest): SearchRequest[] {
  const key = searchKey(request);
  const next = [request, ...recentSearches().filter((other) => searchKey(other) !== key)].slice(
    0,
    RECENT_LIMIT,
  );
  try {
    window.localStorage.setItem(RECENT_SEARCHES_KEY, JSON.stringify(next));
  } catch {
    // Storage disabled by the browser's privacy settings: the list only lives on this page.
  }
  return next;
}
