import { z } from "zod";
import { Money } from "./money.ts";
import { AirportCode, IsoDate, SearchRequest } from "./offers.ts";

/** The calendar shows the asked dates and this many days either side: 7 days, or a 7 × 7 grid for a round trip. */
export const CALENDAR_DAYS_AROUND = 3;

/** POST /fare_calendar: a one-way or round-trip search whose dates are the calendar's middle. */
export const FareCalendarRequest = SearchRequest.and(
  z.object({
    slices: z.undefined({ error: "a fare calendar is for one-way and round trips only" }).optional(),
  }),
);

/**
 * One date (pair) of the calendar: the cheapest total the caller would sell at (markups and fees included), or why
 * there is none: no offers that day, a date not on sale (past, or beyond the schedule), or not answered within the
 * search's time budget.
 */
export const FareCalendarCell = z.object({
  departure_date: IsoDate,
  return_date: IsoDate.nullable(),
  total: Money.nullable(),
  reason: z.enum(["no_offers", "not_on_sale", "timeout"]).nullable(),
});
export type FareCalendarCell = z.infer<typeof FareCalendarCell>;

export const FareCalendar = z.object({
  id: z.string(),
  origin: AirportCode,
  destination: AirportCode,
  currency: z.string().length(3),
  departure_dates: z.array(IsoDate).length(2 * CALENDAR_DAYS_AROUND + 1),
  return_dates: z
    .array(IsoDate)
    .length(2 * CALENDAR_DAYS_AROUND + 1)
    .nullable(),
  /** Row by row: for each departure date, each return date (one cell per departure date for a one-way trip). */
  cells: z.array(FareCalendarCell),
  /** The cheapest cell's total. */
  cheapest: Money.nullable(),
});
export type FareCalendar = z.infer<typeof FareCalendar>;

/** The answer of POST /fare_calendar and GET /fare_calendar/{id}. */
export const FareCalendarAnswer = z.object({ calendar: FareCalendar });
