import { MAX_SEATS } from "@skyward/contracts/journey";
import type { Cabin, PassengerCounts } from "@skyward/contracts/offers";
import { isOneOf } from "../../../lib/one-of.ts";
import type { AirportSuggestion } from "../api/airports.ts";

export type TripType = "one_way" | "round_trip" | "multi_city";

/** One slice of a multi-city journey as the agent fills it. */
export type SliceValues = {
  origin: AirportSuggestion | null;
  destination: AirportSuggestion | null;
  departureDate: string | null;
};
export type PassengerKind = keyof PassengerCounts;

// A type, not an interface: the form library takes it as a record of values.
export type SearchFormValues = {
  tripType: TripType;
  origin: AirportSuggestion | null;
  destination: AirportSuggestion | null;
  /** "YYYY-MM-DD" */
  departureDate: string | null;
  returnDate: string | null;
  passengers: PassengerCounts;
  cabin: Cabin;
  /** The slices of a multi-city journey (the fields above are then unused). */
  slices: SliceValues[];
};

type SliceField = "origin" | "destination" | "departureDate";
export type SearchFormField =
  | "origin"
  | "destination"
  | "departureDate"
  | "returnDate"
  | `slices.${number}.${SliceField}`;
/** Keys of the search catalogue's `form.errors`: the form schema's issues carry them as their message. */
export const SEARCH_FORM_ERRORS = [
  "origin_required",
  "destination_required",
  "same_airports",
  "departure_required",
  "return_required",
  "return_before_departure",
  "slice_before_previous",
] as const;
export type SearchFormError = (typeof SEARCH_FORM_ERRORS)[number];
export const isSearchFormError = isOneOf(SEARCH_FORM_ERRORS);

export const initialSearchForm = (): SearchFormValues => ({
  tripType: "one_way",
  origin: null,
  destination: null,
  departureDate: null,
  returnDate: null,
  passengers: { adults: 1, children: 0, infants: 0 },
  cabin: "economy",
  slices: [],
});

/** Turning a one-pair search into a multi-city one: its pair is the first slice, and the next leaves from there. */
export function slicesFrom(values: SearchFormValues): SliceValues[] {
  if (values.slices.length >= 2) return values.slices;
  return [
    { origin: values.origin, destination: values.destination, departureDate: values.departureDate },
    { origin: values.destination, destination: null, departureDate: values.returnDate },
  ];
}

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
