import {
  BalanceHistoryQuery,
  type BalanceHistoryResponse,
  type BalanceHistoryRow,
  type BalanceMovementResponse,
  type BalancesResponse,
} from "@skyward/contracts/balances";
import { Uuid } from "@skyward/contracts/ids";
import { Where } from "@skyward/infra/db";
import { requirePrincipal, requireUserType } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import type pg from "pg";
import type { QueryDeps } from "../deps.ts";
import { companyScope } from "../scope.ts";

/** A company's balance as GET /balances selects it (a company without movements reads 0 in its own currency). */
interface BalanceDbRow {
  company_id: string;
  company_name: string;
  amount: number;
  currency: string;
  credit_limit: number;
}

/** A line of read.balance_history with its company and author, and the count of the lines the filter matches. */
interface BalanceHistoryDbRow
  extends Pick<
    BalanceHistoryRow,
    "event_id" | "position" | "company_id" | "company_name" | "kind" | "locator" | "operation_id" | "reason"
  > {
  amount: number;
  currency: string;
  balance_after: number;
  actor_id: string | null;
  actor_role: string;
  actor_name: string | null;
  at: Date;
  total: number;
}

/**
 * The balances of the companies `p` may see, as `GET /balances` answers them; also written into the bookings page's
 * HTML for its signed-in caller (scripts/src/page-data.ts), the balance beside the list asking no request.
 */
export async function balancesOf(pool: pg.Pool, p: Principal): Promise<BalancesResponse["data"]> {
  const scope = companyScope(p, 0);
  const { rows } = await pool.query<BalanceDbRow>(
    `SELECT c.id AS company_id, c.name AS company_name, coalesce(b.amount, 0) AS amount,
            coalesce(b.currency, c.currency) AS currency, coalesce(b.credit_limit, 0) AS credit_limit
       FROM read.companies c LEFT JOIN read.company_balances b ON b.company_id = c.id
      WHERE NOT c.deleted AND ${scope.sql} ORDER BY c.name`,
    scope.params,
  );
  return rows.map((r) => ({
    company_id: r.company_id,
    company_name: r.company_name,
    balance_amount: { amount: Number(r.amount), currency: r.currency },
    credit_limit: { amount: Number(r.credit_limit), currency: r.currency },
  }));
}

export function balanceRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["balances", "directory"]);

  /** The balances of the companies the caller may see. */
  router.get("/balances", fresh, async (req, res) => {
    res.json({ data: await balancesOf(pool, requirePrincipal(req)) } satisfies BalancesResponse);
  });

  /**
   * The balance history administrators review (supervisors: their partner's companies): every movement with its
   * booking, author, reason and the running balance, newest first; filtered by company, days and kinds.
   */
  router.get("/balance_history", fresh, async (req, res) => {
    const p = requireUserType(req, "Admin", "Support", "Auditor", "Supervisor");
    const q = parseInput(BalanceHistoryQuery, req.query, "query");
    const { data, total } = await historyLines(p, q, null);
    res.json({ data, meta: { page: q.page, per_page: q.per_page, total } } satisfies BalanceHistoryResponse);
  });

  /** One line of the history by its event (each line links here). */
  router.get("/balance_history/:eventId", fresh, async (req, res) => {
    const p = requireUserType(req, "Admin", "Support", "Auditor", "Supervisor");
    const eventId = String(req.params.eventId);
    const line = Uuid.safeParse(eventId).success
      ? (await historyLines(p, parseInput(BalanceHistoryQuery, {}, "query"), eventId)).data[0]
      : undefined;
    if (!line) throw new NotFound("No such balance movement", "balance_movement_not_found");
    res.json({ data: line } satisfies BalanceMovementResponse);
  });

  async function historyLines(p: Principal, q: BalanceHistoryQuery, eventId: string | null) {
    const where = new Where()
      .when(q.company_id, (n) => `h.company_id = ${n}`)
      .when(q.date_from, (n) => `h.at >= ${n}::date`)
      .when(q.date_to, (n) => `h.at < ${n}::date + 1`)
      .when(q.kind, (n) => `h.kind = ANY(${n}::text[])`)
      .when(eventId, (n) => `h.event_id = ${n}::uuid`)
      .scope((offset) => companyScope(p, offset));
    const { rows } = await pool.query<BalanceHistoryDbRow>(
      `SELECT h.event_id, h.position::text AS position, h.company_id, c.name AS company_name, h.kind, h.amount,
              h.currency, h.balance_after, h.locator, h.operation_id, h.reason, h.actor_id, h.actor_role,
              nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS actor_name,
              h.at, (SELECT count(*)::int FROM read.balance_history h JOIN read.companies c ON c.id = h.company_id
                      WHERE ${where.sql}) AS total
         FROM read.balance_history h JOIN read.companies c ON c.id = h.company_id
         LEFT JOIN read.users u ON u.id = h.actor_id
        WHERE ${where.sql}
        ORDER BY h.position DESC LIMIT ${where.param(q.per_page)} OFFSET ${where.param((q.page - 1) * q.per_page)}`,
      where.params,
    );
    const data: BalanceHistoryRow[] = rows.map((r) => ({
      event_id: r.event_id,
      position: r.position,
      company_id: r.company_id,
      company_name: r.company_name,
      kind: r.kind,
      amount: { amount: Number(r.amount), currency: r.currency },
      balance_after: { amount: Number(r.balance_after), currency: r.currency },
      locator: r.locator,
      operation_id: r.operation_id,
      reason: r.reason,
      actor: { user_id: r.actor_id, role: r.actor_role, name: r.actor_name },
      at: new Date(r.at).toISOString(),
      link: `/balance_history/${r.event_id}`,
    }));
    return { data, total: rows[0]?.total ?? 0 };
  }

  return router;
}
