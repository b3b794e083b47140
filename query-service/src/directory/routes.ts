import {
  type Company,
  type CompanyListResponse,
  type CompanyResponse,
  DirectoryHistoryQuery,
  type DirectoryHistoryRow,
  type JoinAgency,
  JoinRequestsQuery,
  type Partner,
  type PartnerListResponse,
  type PartnerResponse,
  type PersonRow,
  RelationshipsQuery,
  type SupervisorsResponse,
} from "@skyward/contracts/administration";
import { Uuid } from "@skyward/contracts/ids";
import { Where } from "@skyward/infra/db";
import { requireUserType } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { type Request, Router } from "express";
import type { z } from "zod";
import type { QueryDeps } from "../deps.ts";
import { ADMINISTRATION_READERS as MANAGERS, readsEverything } from "../scope.ts";

/**
 * Partners a caller may see: all for administrators and auditors, their own for a supervisor. A text for each (not
 * `($n::boolean OR column = $m)`): a generic plan cannot use an index for such a condition (Where, infra/src/db.ts).
 */
const agencyScope = (p: Principal, column: string, offset: number) =>
  readsEverything(p)
    ? { sql: "true", params: [] }
    : { sql: `${column} = $${offset + 1}`, params: [p.agencyId] };

const idParam = (req: Request, name: string) => {
  const value = req.params[name];
  if (typeof value !== "string" || value.length > 100) throw new NotFound();
  return value;
};

const PERSON = `json_build_object('id', u.id, 'email', u.email, 'first_name', u.first_name, 'last_name', u.last_name,
  'user_type', u.user_type, 'active', u.active, 'company_ids', u.company_ids)`;
const CHANNEL = `json_build_object('id', ch.id, 'title', ch.title, 'active_by_admin', ch.active_by_admin,
  'active_by_supervisor', ch.active_by_supervisor)`;

/** The partner's row with the fields the spec lists (seed-spec section 3, "Agency/partner"). */
const PARTNER_SELECT = `
  SELECT a.id, a.name, a.production_api_on, a.corporate_number_on, a.ghost_segments_remarks_on, a.markups,
         a.auto_cancel_held_on, a.time_zone,
         a.gate_active AS active,
         json_build_array(json_build_object('id', a.id, 'transaction_fee', a.transaction_fee)) AS agency_transaction_fees,
         coalesce((SELECT json_agg(${CHANNEL} ORDER BY ch.created_at) FROM read.channels ch
                    WHERE ch.agency_id = a.id AND NOT ch.deleted), '[]') AS channels,
         coalesce((SELECT json_agg(${PERSON} ORDER BY u.last_name) FROM read.users u
                    WHERE u.agency_id = a.id AND u.user_type = 'Supervisor'), '[]') AS supervisors,
         (SELECT count(*)::int FROM read.users u WHERE u.agency_id = a.id AND u.user_type = 'Supervisor')
           AS supervisors_count,
         (SELECT count(*)::int FROM read.companies c WHERE c.agency_id = a.id AND NOT c.deleted) AS companies_count
    FROM read.agencies a`;

/** The company's row with the fields the spec lists (seed-spec section 3, "Company"). */
const COMPANY_SELECT = `
  SELECT c.id, c.agency_id, c.name, c.currency, c.shared_bookings, c.markups, c.gate_active AS active,
         json_build_object('amount', coalesce(b.amount, 0), 'currency', coalesce(b.currency, c.currency))
           AS balance_amount,
         json_build_object('amount', coalesce(b.credit_limit, 0), 'currency', coalesce(b.currency, c.currency))
           AS credit_limit,
         coalesce((SELECT json_agg(${PERSON} ORDER BY u.last_name) FROM read.users u
                    WHERE c.id = ANY(u.company_ids) AND u.user_type = 'Agent'), '[]') AS avia_managers,
         coalesce((SELECT json_agg(${CHANNEL} ORDER BY ch.created_at) FROM read.channels ch
                    WHERE ch.agency_id = c.agency_id AND NOT ch.deleted), '[]') AS channels
    FROM read.companies c LEFT JOIN read.company_balances b ON b.company_id = c.id`;

/** An agent's link to a company (GET /agent_company_relationships). */
interface RelationshipDbRow {
  id: string;
  user_id: string;
  company_id: string;
  agency_id: string;
  email: string;
  first_name: string;
  last_name: string;
  since: Date;
}

/** A request to join a partner with the partner's name and the requester (null when the directory lacks them). */
interface JoinRequestDbRow extends JoinAgency {
  updated_at: Date;
  agency_name: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

/** A line of read.directory_history with its author, and the count of the lines the filter matches. */
interface DirectoryHistoryDbRow extends Omit<DirectoryHistoryRow, "at" | "link" | "actor"> {
  actor: DirectoryHistoryRow["actor"] & { name: string | null };
  at: Date;
  total: number;
}

/** Partners, companies, people, connection requests and the partner and company change history. */
export function directoryRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["directory", "channels"]);
  const freshWithBalances = freshReadModels(readModels, ["directory", "channels", "balances"]);

  router.get("/agencies", fresh, async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const scope = agencyScope(p, "a.id", 0);
    const { rows } = await pool.query<Partner>(
      `${PARTNER_SELECT} WHERE NOT a.deleted AND ${scope.sql} ORDER BY a.name`,
      scope.params,
    );
    res.json({ data: rows } satisfies PartnerListResponse);
  });

  router.get("/agencies/:id", fresh, async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const scope = agencyScope(p, "a.id", 1);
    const { rows } = await pool.query<Partner>(
      `${PARTNER_SELECT} WHERE a.id = $1 AND NOT a.deleted AND ${scope.sql}`,
      [idParam(req, "id"), ...scope.params],
    );
    if (!rows[0]) throw new NotFound("No such partner", "agency_not_found");
    res.json({ partner: rows[0] } satisfies PartnerResponse);
  });

  router.get("/agencies/:id/supervisors", fresh, async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const agencyId = idParam(req, "id");
    // Another partner's id answers 404, as one that does not exist, not an empty list.
    const { rows: found } = await pool.query<{ found: 1 }>(
      "SELECT 1 AS found FROM read.agencies WHERE id = $1 AND NOT deleted AND ($2::boolean OR id = $3)",
      [agencyId, readsEverything(p), p.agencyId],
    );
    if (found.length === 0) throw new NotFound("No such partner", "agency_not_found");
    const scope = agencyScope(p, "a.id", 1);
    const { rows } = await pool.query<{ person: PersonRow }>(
      `SELECT ${PERSON} AS person FROM read.agencies a JOIN read.users u ON u.agency_id = a.id
        WHERE a.id = $1 AND NOT a.deleted AND u.user_type = 'Supervisor' AND ${scope.sql} ORDER BY u.last_name`,
      [agencyId, ...scope.params],
    );
    res.json({ data: rows.map((r) => r.person) } satisfies SupervisorsResponse);
  });

  router.get("/companies", freshWithBalances, async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const scope = agencyScope(p, "c.agency_id", 0);
    const { rows } = await pool.query<Company>(
      `${COMPANY_SELECT} WHERE NOT c.deleted AND ${scope.sql} ORDER BY c.name`,
      scope.params,
    );
    res.json({ data: rows } satisfies CompanyListResponse);
  });

  router.get("/companies/:id", freshWithBalances, async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const scope = agencyScope(p, "c.agency_id", 1);
    const { rows } = await pool.query<Company>(
      `${COMPANY_SELECT} WHERE c.id = $1 AND NOT c.deleted AND ${scope.sql}`,
      [idParam(req, "id"), ...scope.params],
    );
    if (!rows[0]) throw new NotFound("No such company", "company_not_found");
    res.json({ company: rows[0] } satisfies CompanyResponse);
  });

  router.get("/agent_company_relationships", fresh, async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const query = parseInput(RelationshipsQuery, req.query, "query");
    const where = new Where()
      .and(() => "NOT c.deleted AND u.user_type = 'Agent'")
      .when(query.company_id, (n) => `r.company_id = ${n}`)
      .scope((offset) => agencyScope(p, "c.agency_id", offset));
    const { rows } = await pool.query<RelationshipDbRow>(
      `SELECT r.id, r.user_id, r.company_id, c.agency_id, u.email, u.first_name, u.last_name, r.since
         FROM read.agent_company_relationships r JOIN read.companies c ON c.id = r.company_id
         JOIN read.users u ON u.id = r.user_id
        WHERE ${where.sql}
        ORDER BY u.last_name, u.first_name`,
      where.params,
    );
    res.json({ data: rows });
  });

  router.get("/join_agency_requests", fresh, async (req, res) => {
    const p = requireUserType(req, "Agent", ...MANAGERS);
    const query = parseInput(JoinRequestsQuery, req.query, "query");
    // An agent sees its own requests; a supervisor its partner's; administrators all.
    const where = new Where()
      .when(query.status, (n) => `j.status = ${n}`)
      .when(query.agency_id, (n) => `j.agency_id = ${n}`);
    if (p.userType === "Agent") where.and((n) => `j.user_id = ${n}`, p.userId);
    else if (p.userType === "Supervisor") where.and((n) => `j.agency_id = ${n}`, p.agencyId);
    const { rows } = await pool.query<JoinRequestDbRow>(
      `SELECT j.id, j.agency_id, j.user_id, j.company_id, j.status, j.updated_at, a.name AS agency_name,
              u.email, u.first_name, u.last_name
         FROM read.join_agency_requests j JOIN read.agencies a ON a.id = j.agency_id
         LEFT JOIN read.users u ON u.id = j.user_id
        WHERE ${where.sql}
        ORDER BY j.updated_at DESC LIMIT 500`,
      where.params,
    );
    res.json({ data: rows });
  });

  router.get("/directory_history", fresh, async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const q = parseInput(DirectoryHistoryQuery, req.query, "query");
    const { data, total } = await historyLines(p, q, null);
    res.json({
      data,
      meta: { page: q.page, per_page: q.per_page, total },
    });
  });

  /** One change of a partner or company by its event (each history line links here). */
  router.get("/directory_history/:eventId", fresh, async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const eventId = String(req.params.eventId);
    const line = Uuid.safeParse(eventId).success
      ? (await historyLines(p, parseInput(DirectoryHistoryQuery, {}, "query"), eventId)).data[0]
      : undefined;
    if (!line) throw new NotFound("No such change", "change_not_found");
    res.json({ data: line });
  });

  async function historyLines(
    p: Principal,
    q: z.output<typeof DirectoryHistoryQuery>,
    eventId: string | null,
  ) {
    const where = new Where()
      .when(q.agency_id, (n) => `h.agency_id = ${n}`)
      .when(q.company_id, (n) => `h.company_id = ${n}`)
      .when(q.date_from, (n) => `h.at >= ${n}::date`)
      .when(q.date_to, (n) => `h.at < ${n}::date + 1`)
      .when(eventId, (n) => `h.event_id = ${n}::uuid`)
      .scope((offset) => agencyScope(p, "h.agency_id", offset));
    const { rows } = await pool.query<DirectoryHistoryDbRow>(
      `SELECT h.event_id, h.position::text AS position, h.stream_id, h.agency_id, h.company_id, h.type, h.data,
              json_build_object('user_id', h.actor_id, 'role', h.actor_role,
                'name', nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')) AS actor,
              h.source, h.at, (SELECT count(*)::int FROM read.directory_history h WHERE ${where.sql}) AS total
         FROM read.directory_history h LEFT JOIN read.users u ON u.id = h.actor_id
        WHERE ${where.sql}
        ORDER BY h.position DESC LIMIT ${where.param(q.per_page)} OFFSET ${where.param((q.page - 1) * q.per_page)}`,
      where.params,
    );
    return {
      data: rows.map(({ total: _t, ...r }) => ({ ...r, link: `/directory_history/${r.event_id}` })),
      total: rows[0]?.total ?? 0,
    };
  }

  return router;
}
