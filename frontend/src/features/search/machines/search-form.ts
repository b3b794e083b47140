import { type Cabin, MAX_SEATS, type PassengerCounts, type SearchRequest } from "@skyward/contracts/offers";
import type { AirportSuggestion } from "../api/airports.ts";

export type TripType = "one_way" | "round_trip";
export type PassengerKind = keyof PassengerCounts;

export interface SearchFormValues {
  tripType: TripType;
  origin: AirportSuggestion | null;
  destination: AirportSuggestion | null;
  /** "YYYY-MM-DD" */
  departureDate: string | null;
  returnDate: string | null;
  passengers: PassengerCounts;
  cabin: Cabin;
}

export type SearchFormField = "origin" | "destination" | "departureDate" | "returnDate";
/** Keys of the search catalogue's `form.errors`. */
export type SearchFormError =
  | "origin_required"
  | "destination_required"
  | "same_airports"
  | "departure_required"
  | "return_required"
  | "return_before_departure";

export const initialSearchForm = (): SearchFormValues => ({
  tripType: "one_way",
  origin: null,
  destination: null,
  departureDate: null,
  returnDate: null,
  passengers: { adults: 1, children: 0, infants: 0 },
  cabin: "economy",
});

/** Seats are adults + children, 1 to 9; infants sit on a lap, at most one per adult (as the server checks). */
export function canChangePassengers(counts: PassengerCounts, kind: PassengerKind, delta: 1 | -1): boolean {
  const next = { ...counts, [kind]: counts[kind] + delta };
  if (next.adults < 1 || next.children < 0 || next.infants < 0) return false;
  if (next.adults + next.children > MAX_SEATS) return false;
  // Fewer adults than infants is allowed only by taking an infant away first.
  if (next.infants > next.adults) return false;
  return true;
}

export function passengerTotal(counts: PassengerCounts): number {
  return counts.adults + counts.children + counts.infants;
}

/** Checks the form before the search is sent; the server checks the same and more. */
export function validateSearchForm(
  values: SearchFormValues,
):
  | { ok: true; request: SearchRequest }
  | { ok: false; errors: Partial<Record<SearchFormField, SearchFormError>> } {
  const errors: Partial<Record<SearchFormField, SearchFormError>> = {};
  if (!values.origin) errors.origin = "origin_required";
  if (!values.destination) errors.destination = "destination_required";
  else if (values.origin && values.origin.code === values.destination.code)
    errors.destination = "same_airports";
  if (!values.departureDate) errors.departureDate = "departure_required";
  const roundTrip = values.tripType === "round_trip";
  if (roundTrip && !values.returnDate) errors.returnDate = "return_required";
  else if (roundTrip && values.returnDate && values.departureDate && values.returnDate < values.departureDate)
    errors.returnDate = "return_before_departure";
  if (Object.keys(errors).length > 0 || !values.origin || !values.destination || !values.departureDate)
    return { ok: false, errors };
  return {
    ok: true,
    request: {
      origin: values.origin.code,
      destination: values.destination.code,
      departure_date: values.departureDate,
      ...(roundTrip && values.returnDate ? { return_date: values.returnDate } : {}),
      passengers: values.passengers,
      cabin: values.cabin,
    },
  };
}
