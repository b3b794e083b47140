import {
  AirportCode,
  Cabin,
  IsoDate,
  type JourneySearchRequest,
  MAX_SEATS,
  MAX_SLICES,
  MultiCitySearchRequest,
  PassengerCounts,
  SearchRequest as SearchRequestSchema,
} from "@skyward/contracts/offers";
import { z } from "zod";
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

const Airport = z.object({ code: AirportCode, name: z.string(), city: z.string(), country: z.string() });
const Slice = z.object({
  origin: Airport.nullable(),
  destination: Airport.nullable(),
  departureDate: IsoDate.nullable(),
});

/**
 * The form as the agent fills it (airports picked whole, dates possibly still empty), from the contracts' pieces;
 * each issue's message is the catalogue key that says what to do.
 */
export const SearchFormSchema = z
  .object({
    tripType: z.enum(["one_way", "round_trip", "multi_city"]),
    slices: z.array(Slice).max(MAX_SLICES),
    origin: Airport.nullable(),
    destination: Airport.nullable(),
    departureDate: IsoDate.nullable(),
    returnDate: IsoDate.nullable(),
    passengers: PassengerCounts,
    cabin: Cabin,
  })
  .superRefine((values, ctx) => {
    const issue = (path: SearchFormField, message: SearchFormError) =>
      ctx.addIssue({
        code: "custom",
        path: path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
        message,
      });
    if (values.tripType === "multi_city") {
      values.slices.forEach((slice, i) => {
        if (!slice.origin) issue(`slices.${i}.origin`, "origin_required");
        if (!slice.destination) issue(`slices.${i}.destination`, "destination_required");
        else if (slice.origin?.code === slice.destination.code)
          issue(`slices.${i}.destination`, "same_airports");
        const before = values.slices[i - 1]?.departureDate;
        if (!slice.departureDate) issue(`slices.${i}.departureDate`, "departure_required");
        else if (before && slice.departureDate < before)
          issue(`slices.${i}.departureDate`, "slice_before_previous");
      });
      return;
    }
    if (!values.origin) issue("origin", "origin_required");
    if (!values.destination) issue("destination", "destination_required");
    else if (values.origin?.code === values.destination.code) issue("destination", "same_airports");
    if (!values.departureDate) issue("departureDate", "departure_required");
    if (values.tripType !== "round_trip") return;
    if (!values.returnDate) issue("returnDate", "return_required");
    else if (values.departureDate && values.returnDate < values.departureDate)
      issue("returnDate", "return_before_departure");
  });

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

/** Checks the form before the search is sent; the server checks the same and more. */
export function validateSearchForm(
  values: SearchFormValues,
):
  | { ok: true; request: JourneySearchRequest }
  | { ok: false; errors: Partial<Record<SearchFormField, SearchFormError>> } {
  const checked = SearchFormSchema.safeParse(values);
  if (!checked.success) {
    const errors: Partial<Record<SearchFormField, SearchFormError>> = {};
    for (const issue of checked.error.issues) {
      const field = issue.path.join(".");
      if (isSearchFormField(field) && isSearchFormError(issue.message)) errors[field] ??= issue.message;
    }
    return { ok: false, errors };
  }
  const form = checked.data;
  if (form.tripType === "multi_city") {
    const multi = MultiCitySearchRequest.safeParse({
      slices: form.slices.map((slice) => ({
        origin: slice.origin?.code,
        destination: slice.destination?.code,
        departure_date: slice.departureDate,
      })),
      passengers: form.passengers,
      cabin: form.cabin,
    });
    return multi.success ? { ok: true, request: multi.data } : { ok: false, errors: {} };
  }
  // The schema has made sure of these; the request schema checks the rest (seats, codes) once more.
  const request = SearchRequestSchema.safeParse({
    origin: form.origin?.code,
    destination: form.destination?.code,
    departure_date: form.departureDate,
    ...(form.tripType === "round_trip" && form.returnDate ? { return_date: form.returnDate } : {}),
    passengers: form.passengers,
    cabin: form.cabin,
  });
  return request.success ? { ok: true, request: request.data } : { ok: false, errors: {} };
}

const isSearchFormField = (field: unknown): field is SearchFormField =>
  field === "origin" ||
  field === "destination" ||
  field === "departureDate" ||
  field === "returnDate" ||
  (typeof field === "string" && /^slices\.\d\.(origin|destination|departureDate)$/.test(field));
