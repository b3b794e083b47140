import { z } from "zod";

/**
 * An agency's time zone (IANA, e.g. `Europe/Kyiv`): the zone its receipts, reports and mails write instants in, each
 * named beside the time. An agency that never set one writes UTC, which says what it is.
 */
export const DEFAULT_TIME_ZONE = "UTC";

/**
 * Zones already found valid. Asking Intl costs a formatter per question, and every fold of an agency's events
 * parses its time zone again (the search's selling context folds them for each search: 1.5 % of the app's CPU in the
 * flow bench, issue 26). Only valid names are kept, at most a few thousand: a stranger's invalid names keep nothing.
 */
const validZones = new Set<string>();
const MAX_KEPT_ZONES = 4096;

export function isTimeZone(zone: string): boolean {
  if (validZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    return false;
  }
  if (validZones.size < MAX_KEPT_ZONES) validZones.add(zone);
  return true;
}

export const TimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, "must be an IANA time zone such as Europe/Kyiv");
export type TimeZone = z.infer<typeof TimeZone>;

const clocks = new Map<string, Intl.DateTimeFormat>();
const clockOf = (zone: string) => {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    clocks.set(zone, clock);
  }
  return clock;
};

/** The zone's offset from UTC (ms) at an instant, from its wall clock there (seconds and milliseconds dropped). */
function offsetOf(instant: Date, zone: string): number {
  const part = Object.fromEntries(
    clockOf(zone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(
    Number(part.year),
    Number(part.month) - 1,
    Number(part.day),
    Number(part.hour),
    Number(part.minute),
  );
  return wall - (instant.getTime() - (instant.getTime() % 60_000));
}

/**
 * Offsets per zone and quarter of an hour: a zone's offset changes only on a quarter-hour of UTC, and a report's
 * lines share a few of them, so a workbook of 100,000 lines asks Intl a few hundred times, not 100,000.
 */
const QUARTER_MS = 15 * 60_000;
const offsets = new Map<string, Map<number, number>>();
function offsetAt(instant: Date, zone: string): number {
  const quarter = Math.floor(instant.getTime() / QUARTER_MS);
  let byQuarter = offsets.get(zone);
  if (!byQuarter) {
    byQuarter = new Map();
    offsets.set(zone, byQuarter);
  }
  let offset = byQuarter.get(quarter);
  if (offset === undefined) {
    if (byQuarter.size >= 50_000) byQuarter.clear();
    offset = offsetOf(new Date(quarter * QUARTER_MS), zone);
    byQuarter.set(quarter, offset);
  }
  return offset;
}

/**
 * The wall clock in `zone` at `instant`, as a Date whose UTC fields carry it: what a zone-less cell (a spreadsheet's
 * date) must hold to show the local time.
 */
export function wallClockDate(instant: Date, zone: string): Date {
  return new Date(instant.getTime() + offsetAt(instant, zone));
}

/** The wall clock in `zone` at `instant` with the zone named: "2026-11-28 23:45 Europe/Kyiv". */
export function zonedTime(instant: Date, zone: string): string {
  return `${wallClockDate(instant, zone).toISOString().slice(0, 16).replace("T", " ")} ${zone}`;
}
