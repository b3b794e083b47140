import type { DayPeriod } from "@skyward/contracts/text-search";
import { normalise, type Token } from "./tokens.ts";

/**
 * A departure time written as a clock hour with "after" or "before" ("after 6pm", "po 18:00", "після 18", "après
 * 18h", "después de las 19", "before 10am", "przed 11"): the day period its window falls in. The departure-time
 * filter knows periods only, so "after 6pm" is the evening and "before 11" the morning.
 */
const AFTER = new Set(
  ["after", "from", "після", "пiсля", "po", "apres", "despues", "dopo", "от", "від", "od"].map(normalise),
);
const BEFORE = new Set(["before", "until", "till", "до", "przed", "avant", "antes"].map(normalise));
/** Words between the lead and the hour: "después de las 18", "à partir de 18h", "o godzinie 18". */
const FILLERS = new Set(
  ["de", "del", "las", "la", "le", "du", "the", "godz", "godzinie", "o", "об", "о", "a", "partir"].map(
    normalise,
  ),
);
const HOUR = /^(\d{1,2})(am|pm|h|год|godz)?$/;
const PM = new Set(["pm", "p"]);
const AM = new Set(["am", "a"]);

const periodOfHour = (hour: number, after: boolean): DayPeriod | null => {
  if (after) {
    if (hour >= 17 && hour <= 23) return "evening";
    if (hour >= 12) return hour <= 15 ? "afternoon" : "evening";
    if (hour >= 5) return "morning";
    return null;
  }
  // "before 11", "before noon": the morning; "before 6am": the night.
  if (hour >= 7 && hour <= 12) return "morning";
  if (hour >= 1 && hour <= 6) return "night";
  return null;
};

/** A clock-time window at token i: its period and how many tokens it spans. */
export function clockPeriodAt(
  tokens: readonly Token[],
  i: number,
): { value: DayPeriod; length: number } | null {
  const lead = tokens[i];
  if (!lead || lead.used) return null;
  const after = AFTER.has(lead.norm);
  if (!after && !BEFORE.has(lead.norm)) return null;
  let k = i + 1;
  while (
    k < tokens.length &&
    k <= i + 3 &&
    FILLERS.has((tokens[k] as Token).norm) &&
    !(tokens[k] as Token).used
  )
    k++;
  const t = tokens[k];
  if (!t || t.used) return null;
  // "noon", "midday", "полудня", "południa", "midi", "mediodía"
  if (
    ["noon", "midday", "полудня", "poludnia", "midi", "mediodia", "обіду", "obiadu"]
      .map(normalise)
      .includes(t.norm)
  )
    return periodOfHour(12, after)
      ? { value: periodOfHour(12, after) as DayPeriod, length: k - i + 1 }
      : null;
  const m = HOUR.exec(t.norm);
  if (!m) return null;
  let hour = Number(m[1]);
  let end = k;
  const next = tokens[k + 1];
  // "6 pm", "18:00", "18.00", "18 h", "18 години"
  let suffix = m[2];
  if (!suffix && next && !next.used && (PM.has(next.norm) || AM.has(next.norm) || next.norm === "h")) {
    suffix = next.norm;
    end = k + 1;
  } else if (!suffix && next && !next.used && /^\d{2}$/.test(next.norm)) end = k + 1;
  if (suffix && PM.has(suffix) && hour < 12) hour += 12;
  if (suffix && AM.has(suffix) && hour === 12) hour = 0;
  // A bare number is a date or a count as often as an hour ("до 10 січня", "after 5 days"): an hour only with a
  // clock mark, after "de las" / "o godzinie", or with no word after it.
  const hourWord = tokens
    .slice(i + 1, k)
    .some((f) => ["las", "godz", "godzinie", "об", "о"].includes(f.norm));
  if (!suffix && end === k && !hourWord && next && /\p{L}/u.test(next.norm)) return null;
  if (["from", "od", "від", "от"].includes(lead.norm) && !suffix && end === k) return null;
  if (hour > 23) return null;
  const value = periodOfHour(hour, after);
  return value ? { value, length: end - i + 1 } : null;
}
