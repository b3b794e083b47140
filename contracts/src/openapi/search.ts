import { z } from "zod";
import { FareCalendarAnswer, FareCalendarRequest } from "../fare-calendar.ts";
import { FareRulesResponse, OfferDetailsResponse } from "../offers.ts";
import {
  AirportsQuery,
  AirportsResponse,
  ApplyFiltersRequest,
  FilteredSearchResponse,
  FilterKey,
  OfferDetailsQuery,
} from "../search.ts";
import { TextSearchRequest, TextSearchResponse } from "../text-search.ts";
import { type DocumentedRoute, invalid, notFound, unauthorized } from "./shared.ts";

/** The documented routes tagged "Search" (the assembled document keeps the order in ../openapi.ts). */
export const searchRoutes: readonly DocumentedRoute[] = [
  {
    method: "get",
    path: "/airports",
    operationId: "listAirports",
    summary: "Airports and cities matching a text, for the search form",
    tag: "Search",
    secured: true,
    query: AirportsQuery,
    responses: {
      200: { description: "Matching airports", schema: AirportsResponse },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/text_search",
    operationId: "textSearch",
    summary: "One line of text in any of the five languages turned into a structured search (not run)",
    tag: "Search",
    secured: true,
    body: TextSearchRequest,
    responses: {
      200: { description: "The structured search, or what is missing", schema: TextSearchResponse },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/fare_calendar",
    operationId: "fareCalendar",
    summary:
      "The cheapest total per date, 3 days either side of a one-way or round trip's dates (7 × 7 for a round trip)",
    tag: "Search",
    secured: true,
    body: FareCalendarRequest,
    responses: {
      200: {
        description: "The calendar, kept for the caller like a search page",
        schema: FareCalendarAnswer,
      },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/fare_calendar/{id}",
    operationId: "openFareCalendar",
    summary: "A fare calendar the caller asked for in the last hour",
    tag: "Search",
    secured: true,
    params: { id: z.string().min(1).max(100) },
    responses: {
      200: { description: "The calendar", schema: FareCalendarAnswer },
      401: unauthorized,
      404: notFound,
    },
  },
  {
    method: "post",
    path: "/search_results",
    operationId: "filterSearch",
    summary: "Apply filters (stops, carriers, times, price, baggage) to a search result",
    tag: "Search",
    secured: true,
    body: ApplyFiltersRequest,
    responses: {
      200: { description: "The filtered result", schema: FilteredSearchResponse },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "delete",
    path: "/search_results/{search_result_id}",
    operationId: "clearSearchFilter",
    summary: "Remove one filter from a search result",
    tag: "Search",
    secured: true,
    params: { search_result_id: z.string().min(1).max(100) },
    query: z.object({ filter_key: FilterKey }),
    responses: {
      200: { description: "The result with the filter removed", schema: FilteredSearchResponse },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/offers/{fare_id}/details",
    operationId: "offerDetails",
    summary: "A fare's details (flights, baggage, conditions) priced with the caller's markups",
    tag: "Search",
    secured: true,
    params: { fare_id: z.string().min(1).max(200) },
    query: OfferDetailsQuery,
    responses: {
      200: { description: "The offer", schema: OfferDetailsResponse },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/offers/{fare_id}/fare_rules",
    operationId: "fareRules",
    summary: "A fare's rules (refund, change, penalties) as the airline states them",
    tag: "Search",
    secured: true,
    params: { fare_id: z.string().min(1).max(200) },
    query: OfferDetailsQuery,
    responses: {
      200: { description: "The rules", schema: FareRulesResponse },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
];
