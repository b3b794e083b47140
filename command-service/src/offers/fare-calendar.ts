import { randomUUID } from "node:crypto";
import {
  CALENDAR_DAYS_AROUND,
  type FareCalendar,
  type FareCalendarCell,
} from "@skyward/contracts/fare-calendar";
import type { SearchRequest } from "@skyward/contracts/offers";
import type { Principal } from "@skyward/infra/http/context";
import { InvalidInput, NotFound } from "@skyward/infra/http/errors";
import type pg from "pg";
import type { CommandDeps } from "../deps.ts";
import { priceSearchResult } from "../pricing/apply-pricing.ts";
import { SEARCH_TTL_MINUTES } from "./search-results.ts";
import { type SellingContext, supplierCall } from "./selling-context.ts";

const DAY = 86_400_000;
const shift = (isoDate: string, days: number) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const around = (isoDate: string) =>
  Array.from({ length: 2 * CALENDAR_DAYS_AROUND + 1 }, (_, i) => shift(isoDate, i - CALENDAR_DAYS_AROUND));

/** Each date pair of the calendar: a row per departure date, a return date per column (none for one-way). */
function datePairs(request: SearchRequest) {
  const departures = around(request.departure_date);
  const returns = request.return_date ? around(request.return_date) : null;
  const pairs = departures.flatMap((departure) =>
    returns ? returns.map((ret) => ({ departure, ret: ret as string | null })) : [{ departure, ret: null }],
  );
  return { departures, returns, pairs };
}

/**
 * The cheapest total the caller would sell each date (pair) at, from the supplier's offers for that date, priced with
 * the caller's markups like any search. Asked one date after another within the search's time budget: a date not
 * asked by then says so (`timeout`) rather than holding the answer up. A date the supplier does not sell (past, or
 * beyond its schedule) or a return before the departure has no price.
 */
export async function buildFareCalendar(
  deps: CommandDeps,
  ctx: SellingContext,
  request: SearchRequest,
): Promise<FareCalendar> {
  const budgetMs = deps.config.SUPPLIER_TIMEOUTS?.search ?? deps.config.SUPPLIER_TIMEOUT_MS;
  const startedAt = Date.now();
  const { departures, returns, pairs } = datePairs(request);
  const cells: FareCalendarCell[] = [];
  for (const { departure, ret } of pairs) {
    const cell = { departure_date: departure, return_date: ret };
    if (ret !== null && ret < departure) {
      cells.push({ ...cell, total: null, reason: "not_on_sale" });
      continue;
    }
    if (Date.now() - startedAt > budgetMs) {
      cells.push({ ...cell, total: null, reason: "timeout" });
      continue;
    }
    const { return_date: _asked, ...oneWay } = request;
    const dated: SearchRequest = {
      ...oneWay,
      departure_date: departure,
      ...(ret !== null ? { return_date: ret } : {}),
    };
    try {
      const priced = priceSearchResult(
        await deps.supplier.search(dated, supplierCall(deps.now(), ctx)),
        ctx.policy,
      );
      let cheapest: number | null = null;
      for (const od of priced.origin_destinations)
        for (const fare of od.fares)
          if (cheapest === null || fare.price.amount < cheapest) cheapest = fare.price.amount;
      cells.push(
        cheapest === null
          ? { ...cell, total: null, reason: "no_offers" }
          : { ...cell, total: { amount: cheapest, currency: ctx.currency }, reason: null },
      );
    } catch (error) {
      // A date around the asked ones that the supplier does not sell is a cell without a price; the asked dates
      // (and the airports) are the client's input, refused on their fields.
      const asked = departure === request.departure_date && ret === (request.return_date ?? null);
      if (asked || !(error instanceof InvalidInput)) throw error;
      cells.push({ ...cell, total: null, reason: "not_on_sale" });
    }
  }
  let cheapest: FareCalendarCell["total"] = null;
  for (const cell of cells)
    if (cell.total && (!cheapest || cell.total.amount < cheapest.amount)) cheapest = cell.total;
  return {
    id: randomUUID(),
    origin: request.origin,
    destination: request.destination,
    currency: ctx.currency,
    departure_dates: departures,
    return_dates: returns,
    cells,
    cheapest,
  };
}

/** Calendars kept for their owner like search pages (app.fare_calendars, purged with the pages). */
export async function saveFareCalendar(
  pool: pg.Pool,
  principal: Principal,
  companyId: string,
  request: SearchRequest,
  calendar: FareCalendar,
): Promise<void> {
  await pool.query(
    "INSERT INTO app.fare_calendars (id, user_id, company_id, request, calendar) VALUES ($1, $2, $3, $4, $5)",
    [calendar.id, principal.userId, companyId, JSON.stringify(request), JSON.stringify(calendar)],
  );
}

/** The caller's own recent calendar; anyone else's, or an expired one, answers 404. */
export async function loadFareCalendar(
  pool: pg.Pool,
  principal: Principal,
  id: string,
): Promise<FareCalendar> {
  const { rows } = await pool.query<{ calendar: FareCalendar }>(
    `SELECT calendar FROM app.fare_calendars
      WHERE id = $1 AND user_id = $2 AND created_at > now() - make_interval(mins => $3)`,
    [id, principal.userId, SEARCH_TTL_MINUTES],
  );
  const row = rows[0];
  if (!row) throw new NotFound("This fare calendar has expired; ask for it again", "fare_calendar_not_found");
  return row.calendar;
}
