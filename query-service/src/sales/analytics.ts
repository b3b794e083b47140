import {
  type AnalyticsFigures,
  AnalyticsQuery,
  type AnalyticsRank,
  type AnalyticsResponse,
} from "@skyward/contracts/sales";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { Params, type SalesViewer, salesScope } from "@skyward/infra/sales/lines";
import { type Router as ExpressRouter, Router } from "express";
import type pg from "pg";
import type { QueryDeps } from "../deps.ts";
import { type AggregateScope, aggregateScope, periodPieces, piecesWhere, rollupScope } from "./aggregates.ts";
import { viewerOf } from "./viewer.ts";

/**
 * `GET /analytics/?analytics[date_from]=&analytics[date_to]=`: answered from the day aggregates of the sales
 * projection (per agent for agents, rolled up per agency or for all agencies otherwise), never from the lines, with
 * the period just before for comparison.
 */

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The period of the same number of days that ends the day before `from`. */
export function previousPeriod(from: string, to: string): { date_from: string; date_to: string } {
  const start = Date.parse(from);
  const days = Math.round((Date.parse(to) - start) / DAY) + 1;
  return { date_from: isoDay(start - days * DAY), date_to: isoDay(start - DAY) };
}

const TOP = 10;

const FIGURES = `s.currency, sum(s.total)::float8 AS sales,
      sum(s.agency_markup + s.company_markup + s.transaction_fee)::float8 AS revenue,
      sum(s.tickets_issued)::int AS tickets_issued, sum(s.tickets_voided)::int AS tickets_voided,
      sum(s.tickets_refunded)::int AS tickets_refunded, sum(s.tickets_exchanged)::int AS tickets_exchanged,
      sum(s.emds_issued)::int AS emds_issued,
      coalesce(round(sum(s.issued_total) / nullif(sum(s.tickets_issued), 0)), 0)::float8 AS average_ticket`;
const DAY_FIGURES = `s.currency, sum(s.total)::float8 AS sales,
      sum(s.agency_markup + s.company_markup + s.transaction_fee)::float8 AS revenue,
      sum(s.tickets_issued - s.tickets_voided - s.tickets_refunded)::int AS tickets`;
const NET_TICKETS = "sum(s.tickets_issued - s.tickets_voided - s.tickets_refunded)::int";

type Build = (p: Params) => string;
/** A day's row of `byDay`: its figures in one currency. */
type DayRow = AnalyticsResponse["data"]["by_day"][number];
type Dimension = "route" | "carrier" | "agent" | "company";

/** The names of a top list's keys (agents and companies are renamed in the directory: never copied). */
function named(dimension: Dimension, ranked: string): string {
  if (dimension === "agent")
    return `SELECT t.key, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), t.key) AS name, t.currency,
        t.sales, t.tickets FROM (${ranked}) t LEFT JOIN read.users u ON u.id = t.key ORDER BY t.sales DESC, t.key`;
  if (dimension === "company")
    return `SELECT t.key, coalesce(c.name, t.key) AS name, t.currency, t.sales, t.tickets
        FROM (${ranked}) t LEFT JOIN read.companies c ON c.id = t.key ORDER BY t.sales DESC, t.key`;
  return `SELECT t.key, t.key AS name, t.currency, t.sales, t.tickets FROM (${ranked}) t ORDER BY t.sales DESC, t.key`;
}

/** Agents and demo users: their own per-agent day rows (a few hundred a year), as the lines' scope selects them. */
function perAgent(viewer: SalesViewer, from: string, to: string) {
  const inPeriod = (p: Params, f = from, t = to) =>
    `${salesScope(viewer, p)} AND s.sale_date BETWEEN ${p.add(f)}::date AND ${p.add(t)}::date`;
  const column: Record<Dimension, string> = {
    route: "s.route",
    carrier: "s.carrier",
    agent: "s.agent_id",
    company: "s.company_id",
  };
  return {
    figures:
      (f: string, t: string): Build =>
      (p) =>
        `SELECT ${FIGURES} FROM read.sales_daily s WHERE ${inPeriod(p, f, t)} GROUP BY s.currency ORDER BY s.currency`,
    byDay: (p: Params) =>
      `SELECT s.sale_date::text AS day, ${DAY_FIGURES} FROM read.sales_daily s WHERE ${inPeriod(p)}
        GROUP BY s.sale_date, s.currency ORDER BY s.sale_date, s.currency`,
    top:
      (dimension: Dimension): Build =>
      (p) => {
        const routes = dimension === "route" || dimension === "carrier";
        const ranked = `SELECT ${column[dimension]} AS key, s.currency, sum(s.total)::float8 AS sales,
            ${routes ? "sum(s.tickets)::int" : NET_TICKETS} AS tickets
          FROM ${routes ? "read.sales_route_daily" : "read.sales_daily"} s WHERE ${inPeriod(p)}
         GROUP BY 1, s.currency ORDER BY sum(s.total) DESC, 1 LIMIT ${TOP}`;
        return named(dimension, ranked);
      },
  };
}

/**
 * Supervisors and administrators: the agency's (or all agencies') rollups, whole months and days for the figures,
 * whole months, ISO weeks and days for the top lists, so a year reads a few dozen periods instead of every agent's days.
 */
function rolledUp(scope: AggregateScope & { kind: "all" | "agency" }, from: string, to: string) {
  const agency = scope.kind === "all" ? "" : scope.agencyId;
  return {
    figures:
      (f: string, t: string): Build =>
      (p) =>
        `SELECT ${FIGURES} FROM read.sales_rollup s
        WHERE ${rollupScope(scope, p)} AND ${piecesWhere(periodPieces(f, t, ["month"]), p)}
        GROUP BY s.currency ORDER BY s.currency`,
    byDay: (p: Params) =>
      `SELECT s.period::text AS day, ${DAY_FIGURES} FROM read.sales_rollup s
        WHERE ${rollupScope(scope, p)} AND s.grain = 'day' AND s.period BETWEEN ${p.add(from)}::date AND ${p.add(to)}::date
        GROUP BY s.period, s.currency ORDER BY s.period, s.currency`,
    top:
      (dimension: Dimension): Build =>
      (p) => {
        // Agents and companies have rows under their agency only; routes and carriers also under '' (all agencies).
        const owner = () =>
          scope.kind === "all" && (dimension === "agent" || dimension === "company")
            ? "s.agency_id <> ''"
            : `s.agency_id = ${p.add(agency)}`;
        // One range per piece, UNION ALL: each is read from the key's index alone (an OR of ranges is not).
        const ranges = periodPieces(from, to, ["month", "week"]).map(
          (piece) => `SELECT s.key, s.currency, s.total, s.tickets FROM read.sales_top s
             WHERE s.dimension = ${p.add(dimension)} AND ${owner()} AND NOT s.fake_booking
               AND s.grain = ${p.add(piece.grain)} AND s.period BETWEEN ${p.add(piece.from)}::date AND ${p.add(piece.to)}::date`,
        );
        const ranked = `SELECT s.key, s.currency, sum(s.total)::float8 AS sales, sum(s.tickets)::int AS tickets
            FROM (${ranges.join(" UNION ALL ")}) s
           GROUP BY s.key, s.currency ORDER BY sum(s.total) DESC, s.key LIMIT ${TOP}`;
        return named(dimension, ranked);
      },
  };
}

export function analyticsRoutes({ pool, readModels }: QueryDeps): ExpressRouter {
  const router = Router();
  const fresh = freshReadModels(readModels, ["sales"]);

  router.get("/analytics", fresh, async (req, res) => {
    const viewer = viewerOf(requirePrincipal(req));
    const { date_from: from, date_to: to } = parseInput(AnalyticsQuery, req.query, "query").analytics;
    const previous = previousPeriod(from, to);
    // Each query's columns are the contract's row (FIGURES, DAY_FIGURES, `named`), typed where it is read.
    const query = <Row extends pg.QueryResultRow>(build: Build) => {
      const p = new Params();
      const sql = build(p);
      return pool.query<Row>(sql, p.values).then((r) => r.rows);
    };
    const scope = aggregateScope(viewer);
    const source = scope.kind === "agent" ? perAgent(viewer, from, to) : rolledUp(scope, from, to);
    const [current, before, byDay, routes, carriers, agents, companies] = await Promise.all([
      query<AnalyticsFigures>(source.figures(from, to)),
      query<AnalyticsFigures>(source.figures(previous.date_from, previous.date_to)),
      query<DayRow>(source.byDay),
      query<AnalyticsRank>(source.top("route")),
      query<AnalyticsRank>(source.top("carrier")),
      query<AnalyticsRank>(source.top("agent")),
      query<AnalyticsRank>(source.top("company")),
    ]);
    const body: AnalyticsResponse = {
      data: {
        period: { date_from: from, date_to: to },
        previous_period: previous,
        current,
        previous: before,
        by_day: byDay,
        top_routes: routes,
        top_carriers: carriers,
        top_agents: agents,
        top_companies: companies,
      },
    };
    res.json(body);
  });

  return router;
}
