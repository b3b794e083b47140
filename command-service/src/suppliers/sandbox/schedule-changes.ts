import type { Flight, Segment } from "@skyward/contracts/offers";
import type { ScheduleChange, ScheduleChangeKind, SupplierBooking } from "@skyward/contracts/supplier";
import { findAirport } from "./airports.ts";
import { bookingScenario } from "./scenarios.ts";
import { formatLocal } from "./zoned-time.ts";

/*
 * The sandbox airline's scripted schedule changes (SCENARIOS.md): a booking with a passenger named SCHEDMINOR,
 * SCHEDMAJOR or SCHEDCANCEL has its first flight changed once it is issued. Derived from the booking alone, so any
 * process (or one restarted) answers the same change with the same id; answered, the change is gone.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Flights leaving within 2 hours are not sold (SCENARIOS.md). */
const SALES_CLOSE = 2 * 60 * MINUTE;

/** How far each scripted change moves the first flight: minor 35 minutes, major 3 h 10, cancelled the next day's flight. */
export const SCHEDULE_CHANGE_SHIFT_MINUTES: Record<ScheduleChangeKind, number> = {
  minor: 35,
  major: 190,
  cancelled: 24 * 60,
};

const KIND_OF_SCENARIO = {
  scheduleMinor: "minor",
  scheduleMajor: "major",
  scheduleCancelled: "cancelled",
} as const satisfies Record<string, ScheduleChangeKind>;

/** The booking's change not yet answered, or null: none scripted, not issued, answered, or the journey begun. */
export function scheduleChangeOf(booking: SupplierBooking, now: Date): ScheduleChange | null {
  // Any passenger's name, so a change combines with another scenario (SLOWAFTERSALES) named first.
  const scenario = booking.passengers
    .map((p) => bookingScenario([p]))
    .find((s): s is keyof typeof KIND_OF_SCENARIO => s !== null && s in KIND_OF_SCENARIO);
  if (!scenario) return null;
  const kind = KIND_OF_SCENARIO[scenario];
  if (booking.status !== "issued" && booking.status !== "exchanged") return null;
  const changeId = `SC${booking.supplier_locator}${kind.slice(0, 3).toUpperCase()}`;
  if (booking.answered_schedule_changes?.includes(changeId)) return null;
  const [first, ...rest] = booking.flights;
  if (!first || Date.parse(first.departure_at) <= now.getTime()) return null;
  return {
    change_id: changeId,
    kind,
    old_flights: booking.flights,
    new_flights: [shiftFlight(first, SCHEDULE_CHANGE_SHIFT_MINUTES[kind]), ...rest],
    // The same flight the day before (while still sold) and two days later: an exchange at no cost.
    alternatives:
      kind === "minor"
        ? []
        : [-1, 2]
            .filter((days) => Date.parse(first.departure_at) + days * DAY - SALES_CLOSE > now.getTime())
            .map((days) => ({
              option_id: `${changeId}${days < 0 ? "M" : "P"}${Math.abs(days)}`,
              flights: [shiftFlight(first, days * 24 * 60), ...rest],
            })),
    // The airline changed it when the tickets were issued: the polling job finds it at its next run.
    notified_at: booking.issued_at ?? now.toISOString(),
  };
}

function shiftFlight(flight: Flight, minutes: number): Flight {
  const segments = flight.segments.map((s) => shiftSegment(s, minutes)) as [Segment, ...Segment[]];
  const last = segments[segments.length - 1] ?? segments[0];
  return { ...flight, segments, departure_at: segments[0].departure_at, arrival_at: last.arrival_at };
}

function shiftSegment(segment: Segment, minutes: number): Segment {
  return {
    ...segment,
    departure_at: shiftLocal(segment.departure_at, segment.from.code, minutes),
    arrival_at: shiftLocal(segment.arrival_at, segment.to.code, minutes),
  };
}

/** A local time with its offset, moved by minutes, in the airport's zone (its offset that day). */
function shiftLocal(local: string, airportCode: string, minutes: number): string {
  const utc = Date.parse(local) + minutes * MINUTE;
  const zone = findAirport(airportCode)?.timeZone;
  return zone ? formatLocal(zone, utc) : new Date(utc).toISOString();
}
