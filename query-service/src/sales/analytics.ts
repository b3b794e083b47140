import { AnalyticsQuery } from "@skyward/contracts/sales";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { Params, type SalesViewer, salesScope } from "@skyward/infra/sales/lines";
import { type Router as ExpressRouter, Router } from "express";
import type { QueryDeps } from "../deps.ts";
import { viewerOf } from "./viewer.ts";

/**
 * `GET /analytics/?analytics[date_from]=&analytics[date_to]=`: answered from the day aggregates of the sales
 * projection (`sales_daily`, `sales_route_daily`), never from the lines, with the period just before for comparison.
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

function figuresSql(table: string, viewer: SalesViewer, p: Params, from: string, to: string): string {
  return `SELECT s.currency, sum(s.total)::float8 AS sales,
      sum(s.agency_markup + s.company_markup + s.transaction_fee)::float8 AS revenue,
      sum(s.tickets_issued)::int AS tickets_issued, sum(s.tickets_voided)::int AS tickets_voided,
      sum(s.tickets_refunded)::int AS tickets_refunded, sum(s.tickets_exchanged)::int AS tickets_exchanged,
      sum(s.emds_issued)::int AS emds_issued,
      coalesce(round(sum(s.issued_total) / nullif(sum(s.tickets_issued), 0)), 0)::float8 AS average_ticket
    FROM ${table} s
   WHERE ${salesScope(viewer, p)} AND s.sale_date BETWEEN ${p.add(from)}::date AND ${p.add(to)}::date
   GROUP BY s.currency ORDER BY s.currency`;
}

export function analyticsRoutes({ pool, readModels }: QueryDeps): ExpressRouter {
  const router = Router();
  const fresh = freshReadModels(readModels, ["sales"]);

  router.get("/analytics", fresh, async (req, res) => {
    const viewer = viewerOf(requirePrincipal(req));
    const { date_from: from, date_to: to } = parseInput(AnalyticsQuery, req.query, "query").analytics;
    const previous = previousPeriod(from, to);
    const query = (build: (p: Params) => string) => {
      const p = new Params();
      const sql = build(p);
      return pool.query(sql, p.values).then((r) => r.rows);
    };
    const inPeriod = (p: Params) =>
      `${salesScope(viewer, p)} AND s.sale_date BETWEEN ${p.add(from)}::date AND ${p.add(to)}::date`;
    const [current, before, byDay, routes, carriers, agents, companies] = await Promise.all([
      query((p) => figuresSql("read.sales_daily", viewer, p, from, to)),
      query((p) => figuresSql("read.sales_daily", viewer, p, previous.date_from, previous.date_to)),
      query(
        (p) => `SELECT s.sale_date::text AS day, s.currency, sum(s.total)::float8 AS sales,
            sum(s.agency_markup + s.company_markup + s.transaction_fee)::float8 AS revenue,
            sum(s.tickets_issued - s.tickets_voided - s.tickets_refunded)::int AS tickets
          FROM read.sales_daily s WHERE ${inPeriod(p)} GROUP BY s.sale_date, s.currency ORDER BY s.sale_date, s.currency`,
      ),
      query(
        (
          p,
        ) => `SELECT s.route AS key, s.route AS name, s.currency, sum(s.total)::float8 AS sales, sum(s.tickets)::int AS tickets
          FROM read.sales_route_daily s WHERE ${inPeriod(p)}
         GROUP BY s.route, s.currency ORDER BY sum(s.total) DESC, s.route LIMIT ${TOP}`,
      ),
      query(
        (
          p,
        ) => `SELECT s.carrier AS key, s.carrier AS name, s.currency, sum(s.total)::float8 AS sales, sum(s.tickets)::int AS tickets
          FROM read.sales_route_daily s WHERE ${inPeriod(p)}
         GROUP BY s.carrier, s.currency ORDER BY sum(s.total) DESC, s.carrier LIMIT ${TOP}`,
      ),
      query(
        (
          p,
        ) => `SELECT t.key, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), t.key) AS name, t.currency,
            t.sales, t.tickets
          FROM (SELECT s.agent_id AS key, s.currency, sum(s.total)::float8 AS sales,
                       sum(s.tickets_issued - s.tickets_voided - s.tickets_refunded)::int AS tickets
                  FROM read.sales_daily s WHERE ${inPeriod(p)}
                 GROUP BY s.agent_id, s.currency ORDER BY sum(s.total) DESC, s.agent_id LIMIT ${TOP}) t
          LEFT JOIN read.users u ON u.id = t.key ORDER BY t.sales DESC, t.key`,
      ),
      query(
        (p) => `SELECT t.key, coalesce(c.name, t.key) AS name, t.currency, t.sales, t.tickets
          FROM (SELECT s.company_id AS key, s.currency, sum(s.total)::float8 AS sales,
                       sum(s.tickets_issued - s.tickets_voided - s.tickets_refunded)::int AS tickets
                  FROM read.sales_daily s WHERE ${inPeriod(p)}
                 GROUP BY s.company_id, s.currency ORDER BY sum(s.total) DESC, s.company_id LIMIT ${TOP}) t
          LEFT JOIN read.companies c ON c.id = t.key ORDER BY t.sales DESC, t.key`,
      ),
    ]);
    res.json({
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
    });
  });

  return router;
}
