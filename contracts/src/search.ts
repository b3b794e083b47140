import { z } from "zod";
import { CarrierCode, MAX_SLICES, SearchResult } from "./offers.ts";

const minutesOfDay = z
  .number()
  .int()
  .min(0)
  .max(24 * 60);
const window = z.object({ from: minutesOfDay, to: minutesOfDay }).refine((w) => w.from <= w.to, {
  message: "from must not be after to",
});

/** What one slice of a multi-city journey (0 the first) must fly: its stops, its airlines and its local times. */
export const SliceFilter = z
  .object({
    slice: z
      .number()
      .int()
      .min(0)
      .max(MAX_SLICES - 1),
    stops: z.array(z.number().int().min(0).max(3)).min(1).optional(),
    /** Every segment of the slice flown by one of these marketing carriers. */
    carriers: z.array(CarrierCode).min(1).optional(),
    departure_time: window.optional(),
    arrival_time: window.optional(),
  })
  .strict();
export type SliceFilter = z.infer<typeof SliceFilter>;

/** One filter of a result page; each key can be set and removed on its own (`DELETE ...?filter_key=`). */
export const SearchFilters = z
  .object({
    stops: z.array(z.number().int().min(0).max(3)).min(1),
    carriers: z.array(CarrierCode).min(1),
    departure_time: window,
    arrival_time: window,
    price: z.object({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() }),
    baggage: z.enum(["any", "checked"]),
    /** Filters of single slices; the ones above apply to every slice. */
    slices: z.array(SliceFilter).min(1).max(MAX_SLICES),
  })
  .partial()
  .strict();
export type SearchFilters = z.infer<typeof SearchFilters>;
export const FilterKey = z.enum([
  "stops",
  "carriers",
  "departure_time",
  "arrival_time",
  "price",
  "baggage",
  "slices",
]);

/** POST /search_results */
export const ApplyFiltersRequest = z.object({
  search_result_id: z.string().min(1).max(100),
  filters: SearchFilters,
});
/** `POST /search_results` and `DELETE /search_results/{id}` answer the narrowed result and the filters now set. */
export const FilteredSearchResponse = z.object({ result: SearchResult, filters: SearchFilters });
export type FilteredSearchResponse = z.infer<typeof FilteredSearchResponse>;

/** POST /offers body: the search plus, for users who sell for several companies, the company. */
export const OfferDetailsQuery = z.object({ search_result_id: z.string().min(1).max(100) });
/** GET /airports: an airport, or a city code that searches all its airports (LON: Heathrow, Gatwick...). */
export const AirportSuggestion = z.object({
  kind: z.enum(["airport", "city"]),
  code: z.string().length(3),
  name: z.string(),
  city: z.string(),
  country: z.string().length(2),
  /** A city's airports, the main one first. */
  airports: z.array(z.string().length(3)).optional(),
});
export type AirportSuggestion = z.infer<typeof AirportSuggestion>;

export const AirportsQuery = z.object({ q: z.string().trim().min(1).max(60) });
/** `GET /airports` answers the cities and airports matching the text, a city first. */
export const AirportsResponse = z.object({ data: z.array(AirportSuggestion) });
export type AirportsResponse = z.infer<typeof AirportsResponse>;
