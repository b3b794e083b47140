import { z } from "zod";
import { AirportRef, CarrierCode, SearchResult } from "./offers.ts";

const minutesOfDay = z
  .number()
  .int()
  .min(0)
  .max(24 * 60);
const window = z.object({ from: minutesOfDay, to: minutesOfDay }).refine((w) => w.from <= w.to, {
  message: "from must not be after to",
});

/** One filter of a result page; each key can be set and removed on its own (`DELETE ...?filter_key=`). */
export const SearchFilters = z
  .object({
    stops: z.array(z.number().int().min(0).max(3)).min(1),
    carriers: z.array(CarrierCode).min(1),
    departure_time: window,
    arrival_time: window,
    price: z.object({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() }),
    baggage: z.enum(["any", "checked"]),
  })
  .partial()
  .strict();
export type SearchFilters = z.infer<typeof SearchFilters>;
export const FilterKey = z.enum(["stops", "carriers", "departure_time", "arrival_time", "price", "baggage"]);

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
export const AirportsQuery = z.object({ q: z.string().trim().min(1).max(60) });
/** `GET /airports` answers the airports and cities matching the text. */
export const AirportsResponse = z.object({ data: z.array(AirportRef) });
export type AirportsResponse = z.infer<typeof AirportsResponse>;
