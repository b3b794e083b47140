import {
  ChannelHistoryQuery,
  ChannelListQuery,
  type GatesResponse,
} from "@skyward/contracts/ticketing-commands";
import { Where } from "@skyward/infra/db";
import { requireUserType } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { type Request, Router } from "express";
import type { QueryDeps } from "../deps.ts";
import { ADMINISTRATION_READERS, readsEverything } from "../scope.ts";

/** A channel row of the spec's shape (section 3, Channel), its cards' facts and its per-company switches. */
const CHANNEL_SELECT = `
  SELECT c.id, c.agency_id, c.title, c.currency, c.form_of_payment, c.active_by_admin, c.active_by_supervisor,
         c.credential_active, c.credential_set, c.source_web, c.source_api, c.source_extension, c.companies_off,
         c.nego_code, c.resident_fares_code, c.ticketing_card_id,
         coalesce((SELECT active FROM read.gates WHERE kind = 'main' AND id = ''), true)
           AND coalesce((SELECT active FROM read.gates WHERE kind = 'channel' AND id = ''), true) AS main_gate,
         coalesce((SELECT json_agg(json_build_object('id', k.id, 'brand', k.brand, 'last4', k.last4,
                          'exp_month', k.exp_month, 'exp_year', k.exp_year, 'holder', k.holder) ORDER BY k.created_at)
                     FROM read.cards k WHERE k.id = ANY(c.card_ids) AND NOT k.deleted), '[]') AS cards,
         coalesce((SELECT json_agg(json_build_object('id', co.id, 'name', co.name) ORDER BY co.name)
                     FROM read.companies co WHERE co.agency_id = c.agency_id), '[]') AS companies
    FROM read.channels c`;

interface ChannelDbRow {
  id: string;
  agency_id: string;
  title: string;
  currency: string;
  form_of_payment: "balance" | "card";
  active_by_admin: boolean;
  active_by_supervisor: boolean;
  credential_active: boolean;
  credential_set: boolean;
  source_web: boolean;
  source_api: boolean;
  source_extension: boolean;
  companies_off: string[];
  nego_code: string | null;
  resident_fares_code: string | null;
  ticketing_card_id: string | null;
  main_gate: boolean;
  cards: { id: string }[];
  companies: { id: string; name: string }[];
}

/** A card of read.cards as GET /credit_cards lists it. */
interface CardDbRow {
  id: string;
  agency_id: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  holder: string;
  channel_ids: string[];
  created_at: Date;
}

/** A row of read.channel_history (`h.*`) with its author's name. */
interface ChannelHistoryDbRow {
  global_position: number;
  event_id: string;
  event_type: string;
  stream_id: string;
  stream_position: number;
  at: Date;
  actor_user_id: string | null;
  actor_role: string;
  source: string;
  trace_id: string;
  agency_id: string | null;
  company_id: string | null;
  channel_id: string | null;
  gate: string | null;
  field: string;
  /** The field's value before and after the change, as the event had it (jsonb). */
  before: unknown;
  after: unknown;
  /** The event as stored (jsonb). */
  event: unknown;
  first_name: string | null;
  last_name: string | null;
}

/** `active_by_company` is the caller's company's switch for an agent-like view; managers see each company's. */
function channelOf(r: ChannelDbRow) {
  const companies = r.companies.map((co) => ({
    id: `${r.id}_${co.id}`,
    company_id: co.id,
    name: co.name,
    active: !r.companies_off.includes(co.id),
  }));
  const byCompany = companies.every((co) => co.active);
  return {
    id: r.id,
    agency_id: r.agency_id,
    title: r.title,
    currency: r.currency,
    active: r.active_by_admin && r.active_by_supervisor && r.main_gate && r.credential_active,
    active_by_admin: r.active_by_admin,
    active_by_company: byCompany,
    active_by_main_gate: r.main_gate,
    active_by_supervisor: r.active_by_supervisor,
    active_credential: r.credential_active,
    credential:
      r.credential_set || r.credential_active
        ? { active: r.credential_active, agency_id: r.agency_id }
        : null,
    form_of_payment: r.form_of_payment,
    credit_card: r.cards.find((k) => k.id === r.ticketing_card_id) ?? null,
    credit_cards: r.cards,
    nego_code: r.nego_code,
    resident_fares_code: r.resident_fares_code,
    api: r.source_api,
    web: r.source_web,
    extension: r.source_extension,
    companies,
  };
}

/** Rows of an agency-owned table (alias `x`) the caller may see: all for administrators and auditors, its own for a supervisor. */
const agencyScope = (p: Principal, param: number) =>
  readsEverything(p) ? { sql: "true", params: [] } : { sql: `x.agency_id = $${param}`, params: [p.agencyId] };

/** Reads of gates, channels, cards and the channel-change audit (DESIGN.md section 5 scopes them). */
export function ticketingReadRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["channels", "directory"]);
  const manager = (req: Request) => requireUserType(req, ...ADMINISTRATION_READERS);

  router.get("/ticketing/gates", fresh, async (req, res) => {
    requireUserType(req, "Admin", "Support", "Auditor");
    const { rows: gates } = await pool.query<{ kind: string; id: string; active: boolean }>(
      "SELECT kind, id, active FROM read.gates",
    );
    const globalGate = (kind: string) => gates.find((g) => g.kind === kind && g.id === "")?.active ?? true;
    const partnerGate = (kind: string, id: string) =>
      gates.find((g) => g.kind === kind && g.id === id)?.active ?? true;
    const [{ rows: agencies }, { rows: companies }] = await Promise.all([
      pool.query<{ id: string; name: string }>("SELECT id, name FROM read.agencies ORDER BY name"),
      pool.query<{ id: string; name: string; agency_id: string }>(
        "SELECT id, name, agency_id FROM read.companies ORDER BY name",
      ),
    ]);
    res.json({
      data: {
        main_gate: globalGate("main"),
        agency_gate: globalGate("consolidator"),
        channel_gate: globalGate("channel"),
        agencies: agencies.map((a) => ({ ...a, active: partnerGate("agency", a.id) })),
        companies: companies.map((c) => ({ ...c, active: partnerGate("company", c.id) })),
      },
    } satisfies GatesResponse);
  });

  router.get("/ticketing/agency_channels", fresh, async (req, res) => {
    const p = manager(req);
    const { agency_id } = parseInput(ChannelListQuery, req.query, "query");
    const where = new Where()
      .and(() => "NOT c.deleted")
      .when(agency_id, (n) => `c.agency_id = ${n}`)
      .scope((offset) => {
        const scope = agencyScope(p, offset + 1);
        return {
          sql: `EXISTS (SELECT 1 FROM read.channels x WHERE x.id = c.id AND ${scope.sql})`,
          params: scope.params,
        };
      });
    const { rows } = await pool.query<ChannelDbRow>(
      `${CHANNEL_SELECT} WHERE ${where.sql} ORDER BY c.created_at`,
      where.params,
    );
    res.json({ data: rows.map(channelOf) });
  });

  router.get("/ticketing/agency_channels/:id", fresh, async (req, res) => {
    const p = manager(req);
    const scope = agencyScope(p, 2);
    const { rows } = await pool.query<ChannelDbRow>(
      `${CHANNEL_SELECT} WHERE c.id = $1 AND NOT c.deleted
          AND EXISTS (SELECT 1 FROM read.channels x WHERE x.id = c.id AND ${scope.sql})`,
      [req.params.id, ...scope.params],
    );
    const row = rows[0];
    if (!row) throw new NotFound("No such ticketing channel", "channel_not_found");
    res.json({ data: channelOf(row) });
  });

  router.get("/credit_cards", fresh, async (req, res) => {
    const p = manager(req);
    const scope = readsEverything(p)
      ? { sql: "true", params: [] as unknown[] }
      : { sql: "x.agency_id = $1", params: [p.agencyId] };
    const { rows } = await pool.query<CardDbRow>(
      `SELECT x.id, x.agency_id, x.brand, x.last4, x.exp_month, x.exp_year, x.holder, x.channel_ids,
              x.created_at
         FROM read.cards x WHERE NOT x.deleted AND ${scope.sql} ORDER BY x.created_at`,
      scope.params,
    );
    res.json({ data: rows });
  });

  router.get("/ticketing/channel_history", fresh, async (req, res) => {
    const p = manager(req);
    const q = parseInput(ChannelHistoryQuery, req.query, "query");
    const where = new Where();
    if (!readsEverything(p)) where.and((n) => `h.agency_id = ${n}`, p.agencyId);
    where
      .when(q.channel_id, (n) => `h.channel_id = ${n}`)
      .when(q.agency_id, (n) => `h.agency_id = ${n}`)
      .when(q.company_id, (n) => `h.company_id = ${n}`)
      .when(q.gate, (n) => `h.gate = ${n}`)
      .when(q.actor_id, (n) => `h.actor_user_id = ${n}`)
      .when(q.source, (n) => `h.source = ${n}`)
      .when(q.date_from, (n) => `h.at >= ${n}::date`)
      .when(q.date_to, (n) => `h.at < ${n}::date + 1`);
    const { rows } = await pool.query<ChannelHistoryDbRow & { total: number }>(
      `SELECT h.*, (SELECT count(*) FROM read.channel_history h WHERE ${where.sql}) AS total, u.first_name, u.last_name
         FROM read.channel_history h LEFT JOIN read.users u ON u.id = h.actor_user_id
        WHERE ${where.sql}
        ORDER BY h.global_position DESC
        LIMIT ${q.per_page} OFFSET ${(q.page - 1) * q.per_page}`,
      where.params,
    );
    const cards = await cardsNamed(pool, rows);
    res.json({
      data: rows.map((row) => historyRowOf(row, cards)),
      meta: { page: q.page, per_page: q.per_page, total: Number(rows[0]?.total ?? 0) },
    });
  });

  /** One audit row with its event as stored: the link every row of the list carries. */
  router.get("/ticketing/channel_history/:event_id", fresh, async (req, res) => {
    const p = manager(req);
    const { rows } = await pool.query<ChannelHistoryDbRow>(
      `SELECT h.*, u.first_name, u.last_name FROM read.channel_history h
         LEFT JOIN read.users u ON u.id = h.actor_user_id
        WHERE h.event_id = $1 AND ($2::boolean OR h.agency_id = $3)`,
      [req.params.event_id, readsEverything(p), p.agencyId],
    );
    const row = rows[0];
    if (!row) throw new NotFound("No such change", "change_not_found");
    res.json({
      data: { ...historyRowOf(row, await cardsNamed(pool, [row])), event: row.event },
    });
  });

  return router;
}

/** The history's fields whose before and after are card ids. */
const CARD_FIELDS = new Set(["ticketing_credit_card_id", "credit_cards"]);

const cardIdsOf = (r: ChannelHistoryDbRow): string[] =>
  CARD_FIELDS.has(r.field) ? [r.before, r.after].filter((id): id is string => typeof id === "string") : [];

/**
 * Brand and last four of the cards the rows name (deleted ones too: the change stays readable). The rows are the
 * caller's already; a card a channel of theirs used is theirs to recognise.
 */
async function cardsNamed(
  pool: QueryDeps["pool"],
  rows: readonly ChannelHistoryDbRow[],
): Promise<Map<string, { brand: string; last4: string }>> {
  const ids = [...new Set(rows.flatMap(cardIdsOf))];
  if (ids.length === 0) return new Map();
  const found = await pool.query<{ id: string; brand: string; last4: string }>(
    "SELECT id, brand, last4 FROM read.cards WHERE id = ANY($1)",
    [ids],
  );
  return new Map(found.rows.map((card) => [card.id, { brand: card.brand, last4: card.last4 }]));
}

function historyRowOf(r: ChannelHistoryDbRow, cards: Map<string, { brand: string; last4: string }>) {
  const named = cardIdsOf(r).flatMap((id) => {
    const card = cards.get(id);
    return card ? [[id, card] as const] : [];
  });
  return {
    event_id: r.event_id,
    event_type: r.event_type,
    stream_id: r.stream_id,
    stream_position: r.stream_position,
    at: r.at.toISOString(),
    actor: {
      user_id: r.actor_user_id,
      role: r.actor_role,
      name: r.first_name ? `${r.first_name} ${r.last_name}` : null,
    },
    source: r.source,
    trace_id: r.trace_id,
    agency_id: r.agency_id,
    company_id: r.company_id,
    channel_id: r.channel_id,
    gate: r.gate,
    field: r.field,
    before: r.before,
    after: r.after,
    ...(named.length > 0 ? { cards: Object.fromEntries(named) } : {}),
    link: `/ticketing/channel_history/${r.event_id}`,
  };
}
