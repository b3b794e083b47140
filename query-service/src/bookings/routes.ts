import { type BookingFacts, bookingActions, issueCharge, lostAt } from "@skyward/contracts/booking-actions";
import { allows, listOfStatus } from "@skyward/contracts/booking-lifecycle";
import {
  type BookingDetails,
  BookingListQuery,
  type BookingRow,
  type BookingStatus,
  Locator,
} from "@skyward/contracts/bookings";
import { Where } from "@skyward/infra/db";
import { requirePrincipal } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { DomainError, NotFound } from "@skyward/infra/http/errors";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import type pg from "pg";
import type { QueryDeps } from "../deps.ts";
import { bookingScope } from "../scope.ts";

const LIST_COLUMNS = `b.locator, b.status, b.list, b.fake_booking, b.provider_status, b.route, b.carrier, b.departure_at,
  b.passenger_names, b.ticket_numbers, b.price_amount, b.currency, b.time_limit, b.created_at, b.company_id, b.agent_id`;

/** Timestamps as pg reads them (timestamptz: a Date); JSON writes them as ISO strings. */
type Timestamp = Date;

/** What `cancelBefore` reads of a row. */
interface DeadlineColumns {
  status: BookingStatus;
  time_limit: Timestamp | null;
  void_until: Timestamp | null;
}

/** A row of `GET /bookings` as its query selects it (read.bookings with who booked it and the agency's setting). */
interface BookingListDbRow
  extends Omit<BookingRow, "price" | "time_limit" | "cancel_before" | "created_at">,
    DeadlineColumns {
  price_amount: number;
  currency: string;
  created_at: Timestamp;
  total: number;
  auto_cancel: boolean;
}

type Details = BookingDetails;

/** The booking's fare as it was held (read.bookings.held, jsonb). */
interface HeldBooking {
  price: Details["price"];
  price_detail: Details["price_detail"];
  fare: Details["fare"];
  passengers: Details["passengers"];
  contacts: Details["contacts"];
}

/** The supplier operation in flight: its three columns are set and cleared together. */
type OperationColumns =
  | {
      operation_id: string;
      operation_kind: NonNullable<Details["operation"]>["kind"];
      operation_started_at: Timestamp;
    }
  | { operation_id: null; operation_kind: null; operation_started_at: null };

/** A row of `GET /bookings/:locator`: read.bookings (`b.*`) with the agency's setting, notice and channel. */
type BookingDbRow = BookingColumns & OperationColumns;

interface BookingColumns extends DeadlineColumns {
  locator: Details["locator"];
  status: BookingStatus;
  list: Details["list"];
  company_id: string;
  agency_id: string;
  agent_id: string;
  fake_booking: boolean;
  provider_status: Details["provider_status"];
  error: string | null;
  held: HeldBooking;
  tickets: Details["tickets"];
  comments: Details["comments"];
  pending_price: Details["pending_price"];
  issued_at: Timestamp | null;
  void_until: Timestamp | null;
  refunded_passengers: NonNullable<Details["refunded_passengers"]>;
  refunds: NonNullable<Details["refunds"]>;
  refund_quote: Details["refund_quote"];
  change_request: Details["change_request"];
  schedule_change: Details["schedule_change"];
  history: NonNullable<Details["history"]>;
  ancillaries: NonNullable<Details["ancillaries"]>;
  async_emd_issue: boolean;
  created_at: Timestamp;
  auto_cancel: boolean;
  auto_cancelled_at: Timestamp | null;
  channel_form_of_payment: "balance" | "card" | null;
}

/**
 * A page of the booking lists the caller may see, as `GET /bookings` answers it; the bookings page's first list is
 * also written into its HTML for its signed-in caller (scripts/src/page-data.ts), asking no request.
 */
export async function bookingListOf(
  pool: pg.Pool,
  p: Principal,
  query: ReturnType<typeof BookingListQuery.parse>,
) {
  const search = query.q ? `%${query.q.toUpperCase().replace(/[%_\\]/g, "\\$&")}%` : null;
  const byTimeLimit = query.sort === "time_limit";
  // A text search keeps to the list asked for; without one it looks through every list.
  const list = query.list ?? (search ? null : "new");
  const where = new Where()
    .scope((offset) => bookingScope(p, offset))
    .when(list, (n) => `b.list = ${n}`)
    .when(search, (n) => `(b.locator LIKE ${n} OR b.passenger_names LIKE ${n} OR b.ticket_numbers LIKE ${n})`)
    .when(query.created_from, (n) => `b.created_at >= (${n}::date)::timestamp AT TIME ZONE 'UTC'`)
    .when(query.created_to, (n) => `b.created_at < (${n}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  if (byTimeLimit) where.and(() => "b.time_limit IS NOT NULL");
  // The total is counted on its own (the same conditions and parameters), not as a window over the page's query: a
  // window needs every row of the list, each joined with its agent, company and partner, before the page is cut; the
  // page itself then reads only its rows along an index of the list.
  const { rows } = await pool.query<BookingListDbRow>(
    `SELECT ${LIST_COLUMNS}, (SELECT count(*)::int FROM read.bookings b WHERE ${where.sql}) AS total,
              nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS booked_by,
              c.name AS company_name, coalesce(a.auto_cancel_held_on, false) AS auto_cancel, b.void_until
         FROM read.bookings b
         LEFT JOIN read.users u ON u.id = b.agent_id
         LEFT JOIN read.companies c ON c.id = b.company_id
         LEFT JOIN read.agencies a ON a.id = b.agency_id
        WHERE ${where.sql}
        ORDER BY ${byTimeLimit ? "b.time_limit ASC, " : ""}b.created_at DESC
        LIMIT ${where.param(query.per_page)} OFFSET ${where.param((query.page - 1) * query.per_page)}`,
    where.params,
  );
  return {
    data: rows.map(({ total: _total, price_amount, currency, auto_cancel, void_until, ...row }) => ({
      ...row,
      price: { amount: price_amount, currency },
      cancel_before: cancelBefore({ ...row, void_until }, auto_cancel),
    })),
    meta: { page: query.page, per_page: query.per_page, total: rows[0]?.total ?? 0, list },
  };
}

export function bookingRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["bookings"]);
  const freshWithNotices = freshReadModels(readModels, ["bookings", "time_limit_notices"]);

  router.get("/bookings", fresh, async (req, res) => {
    res.json(
      await bookingListOf(pool, requirePrincipal(req), parseInput(BookingListQuery, req.query, "query")),
    );
  });

  router.get("/bookings/:locator", freshWithNotices, async (req, res) => {
    const p = requirePrincipal(req);
    const locator = Locator.safeParse(req.params.locator);
    if (!locator.success) throw new NotFound("No such booking", "booking_not_found");
    const scope = bookingScope(p, 1);
    const { rows } = await pool.query<BookingDbRow>(
      `SELECT b.*, coalesce(a.auto_cancel_held_on, false) AS auto_cancel, n.auto_cancelled_at,
              ch.form_of_payment AS channel_form_of_payment
         FROM read.bookings b
         LEFT JOIN read.agencies a ON a.id = b.agency_id
         LEFT JOIN read.time_limit_notices n ON n.locator = b.locator
         LEFT JOIN read.channels ch ON ch.id = b.held->>'channel_id'
        WHERE b.locator = $1 AND ${scope.sql}`,
      [locator.data, ...scope.params],
    );
    const row = rows[0];
    if (!row) throw new NotFound("No such booking", "booking_not_found");
    // An expired booking no longer exists at the airline: the booking page drops it from the list (spec: 416).
    if (row.status === "expired") {
      throw new DomainError(
        416,
        "booking_expired",
        "Booking expired",
        "The time limit of this booking has passed",
      );
    }
    res.json({ data: bookingDetails(row, new Date()) });
  });

  return router;
}

function bookingDetails(row: BookingDbRow, now: Date) {
  const held = row.held;
  const operation = row.operation_id
    ? { kind: row.operation_kind, started_at: row.operation_started_at }
    : null;
  // "What can I do now": decided here at read time, from the read model, by the one rule in contracts.
  const facts: BookingFacts = {
    status: row.status,
    fake_booking: row.fake_booking,
    provider_status: row.provider_status,
    price: held.price,
    price_detail: held.price_detail,
    time_limit: iso(row.time_limit),
    auto_cancel: row.auto_cancel === true,
    void_until: iso(row.void_until),
    operation,
    tickets: row.tickets,
    passengers: held.passengers,
    refunded_passengers: row.refunded_passengers,
    fare: held.fare,
    ancillaries: row.ancillaries,
    schedule_change: row.schedule_change ?? null,
  };
  const stillHeld = isHeld(row.status);
  const issuable = allows(facts.status, "issue");
  return {
    locator: row.locator,
    status: row.status,
    list: row.list,
    cancel_before: cancelBefore(row, facts.auto_cancel),
    price: held.price,
    price_detail: held.price_detail,
    issue_charge: issuable ? issueCharge(facts.price, facts.ancillaries) : null,
    issue_paid_by:
      issuable && !facts.fake_booking ? (row.channel_form_of_payment === "card" ? "card" : "balance") : null,
    pending_price: row.pending_price,
    time_limit: row.time_limit,
    // When the agency's setting cancels it (held only), and when the watchdog did.
    auto_cancel_at: stillHeld && facts.auto_cancel ? lostAt(facts) : null,
    auto_cancelled_at: iso(row.auto_cancelled_at ?? null),
    provider_status: row.provider_status,
    fake_booking: row.fake_booking,
    tickets_present: row.tickets.length > 0,
    tickets: row.tickets,
    async_emd_issue: row.async_emd_issue === true,
    // Why the airline failed the booking (provider_status failed); null otherwise.
    error: row.error ?? null,
    fare: held.fare,
    passengers: held.passengers,
    contacts: held.contacts,
    comments: row.comments,
    issued_at: row.issued_at,
    void_until: row.void_until,
    operation,
    refunded_passengers: row.refunded_passengers,
    refunds: row.refunds,
    refund_quote: row.refund_quote,
    change_request: row.change_request,
    schedule_change: row.schedule_change ?? null,
    history: row.history,
    ancillaries: row.ancillaries,
    actions: bookingActions(facts, now),
    created_at: row.created_at,
    company_id: row.company_id,
    agent_id: row.agent_id,
  };
}

/** Held and not yet ticketed, or being ticketed: the statuses of the "new" list (the lifecycle table's). */
const isHeld = (status: BookingStatus) => listOfStatus(status) === "new";

/**
 * The moment to act before, as the spec's `cancel_before`: a held booking's is when it is really lost (the agency's
 * automatic cancellation, else the airline's time limit); issued tickets' is the end of their void window.
 */
function cancelBefore(row: DeadlineColumns, autoCancel: boolean): string | null {
  if (isHeld(row.status)) return lostAt({ time_limit: iso(row.time_limit), auto_cancel: autoCancel });
  return iso(row.void_until) ?? iso(row.time_limit);
}

const iso = (value: Timestamp | string | null | undefined): string | null =>
  value instanceof Date ? value.toISOString() : (value as string | null);
