import type { TextSearchChip, TextSearchResponse } from "@skyward/contracts/text-search";
import { type ParseOptions, parseTextSearch } from "./parse.ts";

/**
 * Words that start the next slice of a journey in the five languages ("then", "потім", "następnie", "puis",
 * "luego"), and the commas and semicolons between slices. Letters on either side keep them whole words in any script.
 */
const SLICE_BREAK =
  /\s*(?:[,;]\s*(?:(?:and\s+)?then|потім|далі|następnie|potem|puis|ensuite|luego|después|y\s+luego)?|(?<!\p{L})(?:then|потім|далі|następnie|potem|puis|ensuite|luego|después)(?!\p{L}))\s*/giu;

type Parsed = Omit<TextSearchResponse, "source">;

/** The line cut where a slice may start, each part with its offset in the line. */
function parts(text: string): { text: string; start: number }[] {
  const found: { text: string; start: number }[] = [];
  let start = 0;
  for (const m of text.matchAll(SLICE_BREAK)) {
    found.push({ text: text.slice(start, m.index), start });
    start = m.index + m[0].length;
  }
  found.push({ text: text.slice(start), start });
  return found.filter((p) => p.text.trim().length > 0);
}

/**
 * A multi-city journey read from one line: "Kyiv to Warsaw on 20 December, then Warsaw to Paris on the 23rd, back
 * to Kyiv on the 28th". Each part naming a place and a date is a slice, parsed by the one-line parser; a slice that
 * names only where it goes leaves from where the one before landed ("back to Kyiv", "then Paris on the 23rd"). Parts
 * naming no place and date (passengers, cabin) count for the whole journey. Null unless two or more slices are named:
 * then the line is an ordinary one-pair search, for the one-line parser alone.
 */
export function parseMultiCity(text: string, options: ParseOptions): Parsed | null {
  // Each part read from the day the part before it leaves: "… le 10 janvier, puis … le 14" is January's 14th.
  const parsed: { text: string; start: number; answer: ReturnType<typeof parseTextSearch> }[] = [];
  let reference = options.today;
  for (const part of parts(text)) {
    const answer = parseTextSearch(part.text, { ...options, today: reference });
    // "…, Paryż Madryt 11, …": after a slice with its date, a bare day number left over is that slice's day, the
    // first such day from the day before it leaves.
    const bare = answer.unrecognised.filter((w) => /^\d{1,2}$/u.test(w));
    if (
      answer.search.departure_date === undefined &&
      parsed.some((p) => p.answer.search.departure_date !== undefined) &&
      bare.length === 1 &&
      reference
    ) {
      const day = dayOnOrAfter(reference, Number(bare[0]));
      if (day) {
        answer.search = { ...answer.search, departure_date: day };
        answer.unrecognised = answer.unrecognised.filter((w) => w !== bare[0]);
      }
    }
    parsed.push({ ...part, answer });
    const day = answer.search.departure_date;
    if (day && (!reference || day >= reference)) reference = day;
  }
  const isSlice = (p: (typeof parsed)[number]) =>
    p.answer.search.departure_date !== undefined &&
    (p.answer.search.destination !== undefined || p.answer.search.origin !== undefined) &&
    p.answer.search.return_date === undefined;
  const slices = parsed.filter(isSlice);
  if (slices.length < 2 || slices.length > 6) return null;

  const journey: { origin?: string; destination?: string; departure_date?: string }[] = [];
  for (const [i, { answer }] of slices.entries()) {
    const { origin, destination, departure_date } = answer.search;
    const before = journey[i - 1]?.destination;
    // A lone place after the first slice is where the journey goes next, from where it last landed.
    const to = destination ?? (i > 0 ? origin : undefined);
    const from = destination ? (origin ?? before) : i > 0 ? before : origin;
    journey.push({
      ...(from ? { origin: from } : {}),
      ...(to ? { destination: to } : {}),
      ...(departure_date ? { departure_date } : {}),
    });
  }
  // Chips of every part, at their place in the whole line; passengers, cabin and the rest from any part.
  const chips: TextSearchChip[] = parsed.flatMap(({ answer, start }) =>
    answer.chips.map((chip) =>
      chip.span ? { ...chip, span: { start: chip.span.start + start, end: chip.span.end + start } } : chip,
    ),
  );
  const whole = parsed.map((p) => p.answer.search);
  const pick = <K extends keyof (typeof whole)[number]>(
    key: K,
    isSet: (v: (typeof whole)[number][K]) => boolean,
  ) => whole.map((s) => s[key]).find(isSet);
  const first = journey[0] ?? {};
  const passengers = pick("passengers", (p) => p.adults !== 1 || p.children !== 0 || p.infants !== 0);
  const cabin = pick("cabin", (c) => c !== "economy");
  const carriers = pick("carriers", (c) => c !== undefined);
  return {
    search: {
      ...first,
      trip: "multi_city",
      slices: journey,
      passengers: passengers ?? { adults: 1, children: 0, infants: 0 },
      cabin: cabin ?? "economy",
      direct_only: whole.some((s) => s.direct_only),
      ...(carriers ? { carriers } : {}),
    },
    chips,
    unrecognised: parsed.flatMap((p) => p.answer.unrecognised),
  };
}

/** The first date on or after `reference` (ISO) whose day of the month is `day`, if that day exists within a year. */
function dayOnOrAfter(reference: string, day: number): string | undefined {
  if (day < 1 || day > 31) return undefined;
  const start = new Date(`${reference}T00:00:00Z`);
  for (let m = 0; m < 12; m++) {
    const d = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + m, day));
    if (d.getUTCDate() !== day) continue;
    if (d >= start) return d.toISOString().slice(0, 10);
  }
  return undefined;
}
