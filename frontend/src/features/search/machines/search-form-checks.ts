import {
  AirportCode,
  Cabin,
  IsoDate,
  type JourneySearchRequest,
  MAX_SLICES,
  MultiCitySearchRequest,
  PassengerCounts,
  SearchRequest as SearchRequestSchema,
} from "@skyward/contracts/offers";
import { z } from "zod";
import {
  isSearchFormError,
  type SearchFormError,
  type SearchFormField,
  type SearchFormValues,
} from "./search-form.ts";

// The search form's checks with zod (and the contracts' schemas): loaded with the first search, not with the page
// (features/search/checks.ts).

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
