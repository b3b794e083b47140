import type { JourneySearchRequest, MultiCitySearchRequest, SearchSlice } from "./offers.ts";

/**
 * A search's limits and shape without zod (offers.ts re-exports them): the search page's first paint reads them, and
 * carries no zod until a search is checked.
 */

/** Seats are adults + children (1-9); infants travel on an adult's lap, at most one per adult. */
export const MAX_SEATS = 9;

/** A multi-city or open-jaw journey holds up to six slices; the one-pair shape is one or two of them. */
export const MAX_SLICES = 6;

export const isMultiCity = (request: JourneySearchRequest): request is MultiCitySearchRequest =>
  "slices" in request && Array.isArray(request.slices);

/** The slices a search flies, in order: a round trip is two, the way out and the way back. */
export function searchSlices(request: JourneySearchRequest): SearchSlice[] {
  if (isMultiCity(request)) return request.slices;
  const out = {
    origin: request.origin,
    destination: request.destination,
    departure_date: request.departure_date,
  };
  return request.return_date === undefined
    ? [out]
    : [
        out,
        { origin: request.destination, destination: request.origin, departure_date: request.return_date },
      ];
}
