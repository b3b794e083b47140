import { z } from "zod";

/**
 * An agency's time zone (IANA, e.g. `Europe/Kyiv`): the zone its receipts, reports and mails write instants in, each
 * named beside the time. An agency that never set one writes UTC, which says what it is.
 */
export const DEFAULT_TIME_ZONE = "UTC";

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
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

/**
 * The wall clock in `zone` at `instant`, as a Date whose UTC fields carry it: what a zone-less cell (a spreadsheet's
 * date) must hold to show the local time.
 */
export function wallClockDate(instant: Date, zone: string): Date {
  const part = Object.fromEntries(
    clockOf(zone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return new Date(
    Date.UTC(
      Number(part.year),
      Number(part.month) - 1,
      Number(part.day),
      Number(part.hour),
      Number(part.minute),
      Number(part.second),
    ),
  );
}

/** The wall clock in `zone` at `instant` with the zone named: "2026-11-28 23:45 Europe/Kyiv". */
export function zonedTime(instant: Date, zone: string): string {
  return `${wallClockDate(instant, zone).toISOString().slice(0, 16).replace("T", " ")} ${zone}`;
}
