import type { Preview } from "@skyward/contracts/assistant";
import { Where } from "@skyward/infra/db";
import type { Principal } from "@skyward/infra/http/context";
import type pg from "pg";
import type { ResolvedCall } from "./interpret.ts";

/** The answer to a read question, from the read models, within what the caller may see. */
export interface Answer {
  question: string;
  preview: Preview;
  data: unknown;
}

/** The name of what an answer covers: a company, a partner, or every partner. */
async function scopeName(pool: pg.Pool, companyId: string | null, agencyId: string | null): Promise<string> {
  if (companyId) {
    const { rows } = await pool.query<{ name: string }>("SELECT name FROM read.companies WHERE id = $1", [
      companyId,
    ]);
    if (rows[0]) return rows[0].name;
  }
  if (agencyId) {
    const { rows } = await pool.query<{ name: string }>("SELECT name FROM read.agencies WHERE id = $1", [
      agencyId,
    ]);
    if (rows[0]) return rows[0].name;
  }
  return "all partners";
}

const money = (amount: number, currency: string) => `${(amount / 100).toFixed(2)} ${currency}`;

export async function answerQuestion(
  pool: pg.Pool,
  p: Principal,
  call: ResolvedCall,
  now: Date,
): Promise<Answer> {
  const a = call.args as Record<string, string | undefined>;
  // A supervisor's questions stay inside their partner (names were resolved within it; this holds for ids too).
  const agencyScope = p.userType === "Supervisor" ? p.agencyId : null;
  switch (call.entry.name) {
    case "company_balance": {
      const company = new Where()
        .and((n) => `c.id = ${n} AND NOT c.deleted`, a.company_id)
        .when(agencyScope, (n) => `c.agency_id = ${n}`);
      const { rows } = await pool.query<{
        name: string;
        amount: string | null;
        currency: string;
        credit_limit: string;
      }>(
        `SELECT c.name, b.amount::text AS amount, c.currency, coalesce(b.credit_limit, 0)::text AS credit_limit
           FROM read.companies c LEFT JOIN read.company_balances b ON b.company_id = c.id
          WHERE ${company.sql}`,
        company.params,
      );
      const r = rows[0];
      const amount = Number(r?.amount ?? 0);
      const currency = r?.currency ?? "";
      return {
        question: call.entry.name,
        preview: {
          code: "balance",
          params: { company: r?.name ?? "", amount, currency },
          text: `The balance of ${r?.name ?? ""} is ${money(amount, currency)}`,
        },
        data: {
          company_id: a.company_id,
          name: r?.name ?? null,
          balance_amount: { amount, currency },
          credit_limit: { amount: Number(r?.credit_limit ?? 0), currency },
          link: `/admin?company_id=${encodeURIComponent(a.company_id ?? "")}`,
        },
      };
    }
    case "channel_changes": {
      const changes = new Where()
        .and(() => "h.channel_id IS NOT NULL")
        .when(a.channel_id, (n) => `h.channel_id = ${n}`)
        .when(a.agency_id, (n) => `h.agency_id = ${n}`)
        .when(agencyScope, (n) => `h.agency_id = ${n}`);
      const { rows } = await pool.query<{
        at: Date;
        channel_id: string | null;
        title: string | null;
        field: string;
        before: unknown;
        after: unknown;
        source: string;
        actor_role: string;
        actor: string | null;
        partner: string | null;
      }>(
        `SELECT h.at, h.channel_id, ch.title, ag.name AS partner, h.field, h.before, h.after, h.source, h.actor_role,
                nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') AS actor
           FROM read.channel_history h
           LEFT JOIN read.channels ch ON ch.id = h.channel_id
           LEFT JOIN read.users u ON u.id = h.actor_user_id
           LEFT JOIN read.agencies ag ON ag.id = h.agency_id
          WHERE ${changes.sql} ORDER BY h.global_position DESC LIMIT 10`,
        changes.params,
      );
      const last = rows[0];
      // The partner whose channels the answer covers ("who changed Vistula's channel?" names Vistula back).
      const partner = last?.partner ?? (a.agency_id ? await scopeName(pool, null, a.agency_id) : null);
      return {
        question: call.entry.name,
        preview: {
          code: last ? "channel_changes" : "channel_changes_none",
          params: {
            scope: partner,
            count: rows.length,
            actor: last?.actor ?? last?.actor_role ?? null,
            channel: last?.title ?? null,
            at: last?.at.toISOString() ?? null,
          },
          text: last
            ? `Last change: ${last.field} ${JSON.stringify(last.before)} → ${JSON.stringify(last.after)} by ${last.actor ?? last.actor_role} at ${last.at.toISOString()}`
            : "No changes recorded",
        },
        data: rows.map((r) => ({
          at: r.at.toISOString(),
          channel_id: r.channel_id,
          channel: r.title,
          partner: r.partner,
          field: r.field,
          before: r.before,
          after: r.after,
          source: r.source,
          actor: r.actor,
          role: r.actor_role,
          link: `/channels?channel_id=${encodeURIComponent(r.channel_id ?? "")}`,
        })),
      };
    }
    case "bookings_expiring_today": {
      const day = now.toISOString().slice(0, 10);
      const expiring = new Where()
        .and(
          (n) =>
            `b.status = 'held' AND b.time_limit >= ${n}::date AND b.time_limit < ${n}::date + 1 AND NOT b.fake_booking`,
          day,
        )
        .when(a.agency_id, (n) => `b.agency_id = ${n}`)
        .when(a.company_id, (n) => `b.company_id = ${n}`)
        .when(agencyScope, (n) => `b.agency_id = ${n}`);
      const { rows } = await pool.query<{
        locator: string;
        route: string;
        time_limit: Date;
        company: string | null;
      }>(
        `SELECT b.locator, b.route, b.time_limit, c.name AS company
           FROM read.bookings b LEFT JOIN read.companies c ON c.id = b.company_id
          WHERE ${expiring.sql} ORDER BY b.time_limit LIMIT 100`,
        expiring.params,
      );
      // The answer names the scope it covers: the company or partner asked about, a supervisor's own partner, or all.
      const scope = await scopeName(pool, a.company_id ?? null, a.agency_id ?? agencyScope);
      return {
        question: call.entry.name,
        preview: {
          code: "bookings_expiring",
          params: { count: rows.length, day, scope },
          text: `${rows.length} booking(s) of ${scope} reach their time limit today (${day})`,
        },
        data: rows.map((r) => ({
          locator: r.locator,
          route: r.route,
          company: r.company,
          time_limit: r.time_limit.toISOString(),
          link: `/bookings?locator=${encodeURIComponent(r.locator)}`,
        })),
      };
    }
    case "sales_figures": {
      // Within what the caller may see (a supervisor: their partner), narrowed to the partner or company asked about.
      const where = new Where()
        .and(
          (from, to) => `NOT s.fake_booking AND s.sale_date >= ${from}::date AND s.sale_date <= ${to}::date`,
          a.date_from,
          a.date_to,
        )
        .when(a.agency_id, (n) => `s.agency_id = ${n}`)
        .when(a.company_id, (n) => `s.company_id = ${n}`)
        .when(agencyScope, (n) => `s.agency_id = ${n}`);
      const { rows } = await pool.query<{ currency: string; total: string; lines: number }>(
        `SELECT s.currency, coalesce(sum(s.total), 0)::text AS total, count(*)::int AS lines
           FROM read.sales s WHERE ${where.sql} GROUP BY s.currency ORDER BY s.currency`,
        where.params,
      );
      const scope = await scopeName(pool, a.company_id ?? null, a.agency_id ?? agencyScope);
      // Sales lines hold minor units.
      const totals = rows.map((r) => ({ amount: Math.round(Number(r.total)), currency: r.currency }));
      const sum = totals.map((t) => money(t.amount, t.currency)).join(", ") || "nothing";
      return {
        question: call.entry.name,
        preview: {
          code: "sales_figures",
          params: {
            scope,
            from: a.date_from ?? "",
            to: a.date_to ?? "",
            total: sum,
            lines: rows.reduce((n, r) => n + r.lines, 0),
          },
          text: `Sales of ${scope} from ${a.date_from} to ${a.date_to}: ${sum}`,
        },
        data: {
          scope,
          agency_id: a.agency_id ?? agencyScope,
          company_id: a.company_id ?? null,
          period: { from: a.date_from, to: a.date_to },
          totals,
          link: "/sales",
        },
      };
    }
    default:
      throw new Error(`no answer for ${call.entry.name}`);
  }
}
