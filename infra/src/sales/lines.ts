import type { UserType } from "@skyward/contracts/metadata";
import type { SaleLine, TicketFilter } from "@skyward/contracts/sales";
import { DEFAULT_TIME_ZONE } from "@skyward/contracts/time-zone";
import type pg from "pg";

/**
 * Reading sales lines (read model of projectors/src/sales), shared by the sales list and export (query-service) and
 * the e-mailed report job (command-service), so the three always agree on what a filter and a role select.
 */

/**
 * The zone an agency's sales documents write instants in (read.agencies, see contracts/time-zone.ts): the viewer's
 * agency for a report, the line's for a receipt; UTC for administrators, who belong to none.
 */
export async function agencyTimeZone(pool: pg.Pool, agencyId: string | null): Promise<string> {
  if (!agencyId) return DEFAULT_TIME_ZONE;
  const { rows } = await pool.query<{ time_zone: string }>(
    "SELECT time_zone FROM read.agencies WHERE id = $1",
    [agencyId],
  );
  return rows[0]?.time_zone ?? DEFAULT_TIME_ZONE;
}

/** Who asks, as far as the roles table of DESIGN.md section 5 cares. */
export interface SalesViewer {
  userId: string;
  userType: UserType;
  agencyId: string | null;
  companyIds: readonly string[];
  demo: boolean;
}

/** Collects query parameters and hands out their placeholders, so conditions compose without counting. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The lines a viewer may see, as a condition on alias `s` (any table with agency_id, company_id, agent_id,
 * fake_booking). Agents: their companies, their own sales unless the company shares bookings; supervisors: their
 * agency; administrators: all. Fake (demo) sales are seen only by the demo user who made them and count nowhere else.
 */
export function salesScope(v: SalesViewer, p: Params): string {
  if (v.demo) return `(s.agent_id = ${p.add(v.userId)} AND s.fake_booking)`;
  if (v.userType === "Supervisor") return `(s.agency_id = ${p.add(v.agencyId)} AND NOT s.fake_booking)`;
  if (v.userType === "Agent")
    return `(s.company_id = ANY(${p.add(v.companyIds)}) AND NOT s.fake_booking AND (s.agent_id = ${p.add(v.userId)}
        OR EXISTS (SELECT 1 FROM read.companies c WHERE c.id = s.company_id AND c.shared_bookings)))`;
  // Any other user type sees nothing unless named here: a new role gets no sales by accident.
  return SEES_ALL_SALES.includes(v.userType) ? "NOT s.fake_booking" : "false";
}

/** Administrators, and auditors (read-only administrators), see every real sale. */
const SEES_ALL_SALES: readonly string[] = ["Admin", "Support", "Auditor"];

/** The dates of a filter as a condition on `s.sale_date` (both ends included). */
export function dateRange(filter: TicketFilter, p: Params): string {
  const parts: string[] = [];
  if (filter.date_from) parts.push(`s.sale_date >= ${p.add(filter.date_from)}::date`);
  if (filter.date_to) parts.push(`s.sale_date <= ${p.add(filter.date_to)}::date`);
  return parts.length ? parts.join(" AND ") : "true";
}

/** Text as a LIKE pattern matching it anywhere, upper case as the `search` column is. */
export const containsPattern = (text: string) => `%${text.toUpperCase().replace(/[%_\\]/g, "\\$&")}%`;

/**
 * Lines whose search text contains `text`. With `indexPart` (a rare part of the text, ./text-search.ts) only that
 * part is asked of the trigram index and the whole text is checked on what it finds: the same lines, cheaper.
 */
export function textCondition(text: string, p: Params, indexPart: string | null = null): string {
  if (!indexPart) return `s.search LIKE ${p.add(containsPattern(text))}`;
  return `s.search LIKE ${p.add(containsPattern(indexPart))} AND strpos(s.search, ${p.add(text.toUpperCase())}) > 0`;
}

/** Every condition of a filter for a viewer, on `read.sales s`. */
export function salesWhere(
  filter: TicketFilter,
  viewer: SalesViewer,
  p: Params,
  indexPart: string | null = null,
): string {
  const text = filter.text ? textCondition(filter.text, p, indexPart) : "true";
  return `${salesScope(viewer, p)} AND ${dateRange(filter, p)} AND ${text}`;
}

/**
 * A line with the names of who sold it (names change: read from the directory, not copied into the line), from
 * `source` as `s`: the table, or a subquery that has already picked a page (so only its lines are joined).
 */
export const saleLineSelect = (
  source = "read.sales",
) => `s.id, s.kind, s.status, s.locator, s.document_number,
  s.original_document, s.passenger_name, s.carrier, s.route, s.departure_at, to_json(s.sold_at) #>> '{}' AS sold_at,
  s.sale_date::text AS sale_date, s.agent_id, nullif(trim(u.first_name || ' ' || u.last_name), '') AS agent_name,
  s.company_id, c.name AS company_name, s.agency_id, a.name AS agency_name, s.channel_id, s.fake_booking,
  s.base_fare::float8 AS base_fare, s.taxes::float8 AS taxes, s.agency_markup::float8 AS agency_markup,
  s.company_markup::float8 AS company_markup, s.transaction_fee::float8 AS transaction_fee,
  s.penalty::float8 AS penalty, s.total::float8 AS total, s.currency, s.paid_by
  FROM ${source} s
  LEFT JOIN read.users u ON u.id = s.agent_id
  LEFT JOIN read.companies c ON c.id = s.company_id
  LEFT JOIN read.agencies a ON a.id = s.agency_id`;
export const SALE_LINE_SELECT = saleLineSelect();

/** Newest first; the id breaks ties so pages never overlap. */
export const SALE_ORDER = "s.sale_date DESC, s.sold_at DESC, s.id";

/** How many lines a filter matches for a viewer. */
export async function countSaleLines(
  pool: pg.Pool,
  filter: TicketFilter,
  viewer: SalesViewer,
): Promise<number> {
  const p = new Params();
  const where = salesWhere(filter, viewer, p);
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM read.sales s WHERE ${where}`,
    p.values,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Every line a filter matches, newest first, read through a server-side cursor in chunks: memory holds one chunk
 * whatever the number of lines. The transaction is read-only and its snapshot makes the lines consistent.
 */
export async function* streamSaleLines(
  pool: pg.Pool,
  filter: TicketFilter,
  viewer: SalesViewer,
  chunk = 2000,
): AsyncGenerator<SaleLine> {
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const p = new Params();
    const where = salesWhere(filter, viewer, p);
    await client.query(
      `DECLARE sale_lines NO SCROLL CURSOR FOR SELECT ${SALE_LINE_SELECT} WHERE ${where} ORDER BY ${SALE_ORDER}`,
      p.values,
    );
    for (;;) {
      const { rows } = await client.query<SaleLine>(`FETCH ${chunk} FROM sale_lines`);
      for (const row of rows) yield row;
      if (rows.length < chunk) break;
    }
    await client.query("COMMIT");
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A consumer that stops early (a closed download) leaves the transaction open: end it before the release.
    if (failed) client.release(true);
    else {
      await client.query("ROLLBACK").catch(() => {});
      client.release();
    }
  }
}
