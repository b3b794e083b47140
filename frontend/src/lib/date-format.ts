import { type Language, LOCALE_TAGS } from "./i18n.ts";

/**
 * Flight times are wall-clock times at the airport ("2026-12-12T19:55:00+02:00"): they are shown as written, never
 * converted to the agent's zone. Instants (time limits, issue times) are shown in the agent's zone.
 */

/** English dates read the European way (12 Dec, 24-hour clock): the product's agents are in Europe. */
const DATE_LOCALES: Record<Language, string> = { ...LOCALE_TAGS, en: "en-GB" };

const cache = new Map<string, Intl.DateTimeFormat>();

function dateFormat(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(DATE_LOCALES[language], options);
    cache.set(key, format);
  }
  return format;
}

/** "19:55" of a local airport time. */
export function airportTime(localDateTime: string): string {
  return localDateTime.slice(11, 16);
}

/** The calendar date part ("2026-12-12") of a local airport time. */
export function airportDay(localDateTime: string): string {
  return localDateTime.slice(0, 10);
}

const dayNumber = (isoDate: string) => Math.round(Date.parse(`${isoDate}T00:00:00Z`) / 86_400_000);

/** Calendar days between two local times: the "+1" of an overnight arrival. */
export function dayShift(fromLocal: string, toLocal: string): number {
  return dayNumber(airportDay(toLocal)) - dayNumber(airportDay(fromLocal));
}

export type DateStyle = "short" | "long" | "full";

const DATE_STYLES: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  short: { day: "numeric", month: "short", timeZone: "UTC" },
  long: { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" },
  full: { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" },
};

/** A calendar date ("2026-12-12", or the date of a local time) in the interface language. */
export function formatDay(isoDate: string, language: Language, style: DateStyle = "full"): string {
  return dateFormat(language, DATE_STYLES[style]).format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
}

/** An instant in the agent's own zone: "21 Nov 2026, 15:28" (with `seconds`, "15:28:07": audit trails). */
export function formatInstant(
  instant: string,
  language: Language,
  options: { seconds?: boolean } = {},
): string {
  return dateFormat(language, {
    dateStyle: "medium",
    timeStyle: options.seconds ? "medium" : "short",
  }).format(new Date(instant));
}

const relativeFormats = new Map<Language, Intl.RelativeTimeFormat>();

/** "in 23 hours", "2 hours ago": how far an instant is from now, in the largest unit that fits. */
export function formatFromNow(instant: string, language: Language, now: number = Date.now()): string {
  const minutes = Math.round((Date.parse(instant) - now) / 60_000);
  let format = relativeFormats.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(DATE_LOCALES[language], { numeric: "auto" });
    relativeFormats.set(language, format);
  }
  if (Math.abs(minutes) < 60) return format.format(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 48) return format.format(hours, "hour");
  return format.format(Math.round(hours / 24), "day");
}

/** Minutes as hours and minutes, for the catalogues' duration text. */
export function durationParts(minutes: number): { h: number; m: string } {
  return { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, "0") };
}

/** Minutes after midnight as "07:30", for time-of-day filters. */
export function clockTime(minutes: number): string {
  const clamped = Math.min(Math.max(minutes, 0), 24 * 60);
  return `${String(Math.floor(clamped / 60)).padStart(2, "0")}:${String(clamped % 60).padStart(2, "0")}`;
}

/** Today's date in the agent's zone, "YYYY-MM-DD". */
export function todayIso(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, "0");
  const day = String(now.getDate()).padStart(2, "0");
  return `${now.getFullYear()}-${month}-${day}`;
}

/** A calendar date moved by whole days or years, "YYYY-MM-DD" in and out. */
export function shiftDay(isoDate: string, days: number, years = 0): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whole years from a birth date to a day (both "YYYY-MM-DD"): the age that passenger types go by. */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split("-").map(Number) as [number, number, number];
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
