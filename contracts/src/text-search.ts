import { z } from "zod";
import { Language } from "./ids.ts";
import { AirportCode, Cabin, CarrierCode, IsoDate, MAX_SLICES, PassengerCounts } from "./offers.ts";
import { TEXT_SEARCH_MAX_LENGTH } from "./text-search-limits.ts";

export { TEXT_SEARCH_MAX_LENGTH };

/**
 * Times of day a line can name ("morning", "ранком", "le soir"), as the departure-time filter's window in minutes
 * after midnight (SearchFilters.departure_time).
 */
export const DAY_PERIODS = {
  night: { from: 0, to: 6 * 60 },
  morning: { from: 5 * 60, to: 12 * 60 },
  afternoon: { from: 12 * 60, to: 18 * 60 },
  evening: { from: 17 * 60, to: 24 * 60 },
} as const;
export const DayPeriod = z.enum(["night", "morning", "afternoon", "evening"]);
export type DayPeriod = z.infer<typeof DayPeriod>;

/** POST /text_search: one line in any of the five languages. */
export const TextSearchRequest = z.strictObject({
  text: z.string().trim().min(1).max(TEXT_SEARCH_MAX_LENGTH),
  /** The agent's interface language: tried first where words could belong to several languages. */
  language: Language.optional(),
  /** The agent's own today (its time zone); relative dates count from it. At most a day from the server's. */
  today: IsoDate.optional(),
});
export type TextSearchRequest = z.infer<typeof TextSearchRequest>;

/**
 * The search a line names, in the search form's terms (SearchRequest's fields, each optional: the line may lack
 * some), with direct-only and the preferred carrier as the result filters they become (SearchFilters' stops and
 * carriers).
 */
export const ParsedSearch = z.strictObject({
  origin: AirportCode.optional(),
  destination: AirportCode.optional(),
  departure_date: IsoDate.optional(),
  return_date: IsoDate.optional(),
  /** Round trip when a return was asked for, even before its date is known; multi-city when the line names slices. */
  trip: z.enum(["one_way", "round_trip", "multi_city"]),
  /** A multi-city journey's slices in order ("Kyiv to Warsaw on 20 December, then Warsaw to Paris on the 23rd"). */
  slices: z
    .array(
      z.strictObject({
        origin: AirportCode.optional(),
        destination: AirportCode.optional(),
        departure_date: IsoDate.optional(),
      }),
    )
    .min(2)
    .max(MAX_SLICES)
    .optional(),
  passengers: PassengerCounts,
  cabin: Cabin,
  direct_only: z.boolean(),
  carriers: z.array(CarrierCode).max(3).optional(),
  /** A time of day for the departure: the departure-time filter's window (DAY_PERIODS). */
  departure_time: z
    .strictObject({ from: z.number().int().min(0).max(1440), to: z.number().int().min(0).max(1440) })
    .optional(),
});
export type ParsedSearch = z.infer<typeof ParsedSearch>;

export const ChipKind = z.enum([
  "origin",
  "destination",
  "departure_date",
  "return_date",
  "adults",
  "children",
  "infants",
  "cabin",
  "trip",
  "direct",
  "carrier",
  "departure_time",
]);
export type ChipKind = z.infer<typeof ChipKind>;

/** One recognised part of the line: what it sets, and the words it came from (no span when a model named it). */
export const TextSearchChip = z.strictObject({
  kind: ChipKind,
  /** An airport or carrier code, an ISO date, a count, a cabin, a trip type, "true" for direct, a DayPeriod. */
  value: z.string().min(1).max(40),
  /** A human name for the value where there is one (the airport's city, the airline). */
  label: z.string().max(120).optional(),
  text: z.string().max(TEXT_SEARCH_MAX_LENGTH),
  span: z.strictObject({ start: z.number().int().min(0), end: z.number().int().min(0) }).nullable(),
});
export type TextSearchChip = z.infer<typeof TextSearchChip>;

export const TextSearchResponse = z.strictObject({
  search: ParsedSearch,
  chips: z.array(TextSearchChip),
  /** Words of the line that set nothing (besides small words like "from" or "please"). */
  unrecognised: z.array(z.string()),
  /** Misspelt place names read as the nearest city, said so the agent can check them ("Lodnon" → London). */
  corrections: z.array(z.strictObject({ from: z.string(), to: z.string() })).optional(),
  /**
   * The line cannot be searched as it is, so it is asked back, never guessed: a return before the departure (never
   * moved a year on), or several legs (a multi-city journey).
   */
  ask_back: z
    .strictObject({ code: z.enum(["return_before_departure", "multi_city"]), text: z.string() })
    .optional(),
  /** Which path answered: the configured model, or the embedded parser. */
  source: z.enum(["model", "embedded"]),
});
export type TextSearchResponse = z.infer<typeof TextSearchResponse>;

/** What a model fills through tool calling: the search alone, its JSON Schema from this very schema. */
export const TextSearchTool = ParsedSearch;

/**
 * The search the chips make (the server and the editable chips in the browser fold them the same way): the last chip
 * of a kind wins, a return date makes the trip a round trip, and passengers and cabin keep the form's defaults.
 */
export function searchOfChips(chips: readonly Pick<TextSearchChip, "kind" | "value">[]): ParsedSearch {
  const last = (kind: ChipKind) => chips.findLast((c) => c.kind === kind)?.value;
  const count = (kind: ChipKind, fallback: number) => {
    const n = Number(last(kind));
    return Number.isInteger(n) && n >= 0 ? n : fallback;
  };
  const returnDate = last("return_date");
  const carriers = [...new Set(chips.filter((c) => c.kind === "carrier").map((c) => c.value))];
  const cabin = Cabin.safeParse(last("cabin"));
  const origin = last("origin");
  const destination = last("destination");
  const departure = last("departure_date");
  const period = DayPeriod.safeParse(last("departure_time"));
  return {
    ...(origin ? { origin } : {}),
    ...(destination ? { destination } : {}),
    ...(departure ? { departure_date: departure } : {}),
    ...(returnDate ? { return_date: returnDate } : {}),
    trip: returnDate || last("trip") === "round_trip" ? "round_trip" : "one_way",
    passengers: { adults: count("adults", 1), children: count("children", 0), infants: count("infants", 0) },
    cabin: cabin.success ? cabin.data : "economy",
    direct_only: last("direct") === "true",
    ...(carriers.length > 0 ? { carriers: carriers.slice(0, 3) } : {}),
    ...(period.success ? { departure_time: { ...DAY_PERIODS[period.data] } } : {}),
  };
}
