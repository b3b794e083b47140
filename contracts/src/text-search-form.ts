import { z } from "zod";
import { AirportCode, Cabin, CarrierCode, IsoDate, PassengerCounts } from "./offers.ts";
import { ChipKind, DayPeriod, ParsedSearch, TextSearchChip, TextSearchRequest } from "./text-search.ts";

/** The search line as typed, held to TextSearchRequest's text (trimmed, 1 to 500 characters); messages are keys. */
export const TextSearchLineForm = z.object({
  text: z
    .string()
    .trim()
    .min(1, { error: "required", abort: true })
    .refine((text) => TextSearchRequest.shape.text.safeParse(text).success, { error: "too_long" }),
});
export type TextSearchLineValues = z.input<typeof TextSearchLineForm>;

/** A count chip's text ("2") held to the search's own passenger count. */
const count = (schema: z.ZodNumber) => z.coerce.number().pipe(schema);

/** What each chip kind's value must be, as the chip's server side says it (TextSearchChip.value's comment). */
const CHIP_VALUES: Record<ChipKind, { schema: z.ZodType; key: string }> = {
  origin: { schema: AirportCode, key: "required" },
  destination: { schema: AirportCode, key: "required" },
  departure_date: { schema: IsoDate, key: "date" },
  return_date: { schema: IsoDate, key: "date" },
  adults: { schema: count(PassengerCounts.shape.adults), key: "adults" },
  children: { schema: count(PassengerCounts.shape.children.unwrap()), key: "children" },
  infants: { schema: count(PassengerCounts.shape.infants.unwrap()), key: "count" },
  cabin: { schema: Cabin, key: "required" },
  trip: { schema: ParsedSearch.shape.trip, key: "required" },
  direct: { schema: z.literal("true"), key: "required" },
  carrier: { schema: CarrierCode, key: "carrier" },
  departure_time: { schema: DayPeriod, key: "required" },
};

/**
 * One chip's editor: the value its kind takes (an airport picked, an ISO date, a count, a two-character airline
 * code…), trimmed and upper-cased as the chip keeps it; messages are keys. Its output is a TextSearchChip's value.
 */
export const TextSearchChipForm = z
  .object({ kind: ChipKind, value: z.string().trim(), label: z.string().optional() })
  .superRefine(({ kind, value }, ctx) => {
    const { schema, key } = CHIP_VALUES[kind];
    if (!value || !schema.safeParse(value).success || !TextSearchChip.shape.value.safeParse(value).success)
      ctx.addIssue({ code: "custom", path: ["value"], message: value ? key : "required" });
  })
  .transform(({ kind, value, label }) => ({
    kind,
    value: kind === "origin" || kind === "destination" || kind === "carrier" ? value.toUpperCase() : value,
    ...(label ? { label } : {}),
  }));
export type TextSearchChipValues = z.input<typeof TextSearchChipForm>;
