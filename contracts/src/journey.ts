/**
 * A search's limits and shape without zod (offers.ts re-exports them): the search page's first paint reads them, and
 * carries no zod until a search is checked.
 */

/** Seats are adults + children (1-9); infants travel on an adult's lap, at most one per adult. */
export const MAX_SEATS = 9;

/** A multi-city or open-jaw journey holds up to six slices; the one-pair shape is one or two of them. */
export const MAX_SLICES = 6;

/** One slice of a journey (offers.ts's SearchSlice, by shape: that module imports this one). */
interface Slice {
  origin: string;
  destination: string;
  departure_date: string;
}
/** A search by shape: one pair (a one-way or round trip) or slices (offers.ts's JourneySearchRequest). */
type Journey = { slices: Slice[] } | (Slice & { return_date?: string | undefined; slices?: undefined });

export const isMultiCity = <R extends Journey>(request: R): request is Extract<R, { slices: Slice[] }> =>
  "slices" in request && Array.isArray(request.slices);

/** The slices a search flies, in order: a round trip is two, the way out and the way back. */
export function searchSlices(request: Journey): Slice[] {
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
