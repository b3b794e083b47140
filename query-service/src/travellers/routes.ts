import { type Traveller, TravellersQuery } from "@skyward/contracts/travellers";
import { Where } from "@skyward/infra/db";
import { requireUserType } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { type Request, Router } from "express";
import type { QueryDeps } from "../deps.ts";

/** Who reads kept travellers: everyone who sells, and auditors (read-only administrators). */
const READERS = ["Agent", "Supervisor", "Admin", "Support", "Auditor"] as const;

/**
 * The travellers a caller may see, as a condition on alias `t`: a demo user its own sandbox ones; an agent its
 * companies'; a supervisor its agency's; administrators and auditors all (never a demo user's).
 */
function travellerScope(p: Principal, offset: number): { sql: string; params: unknown[] } {
  if (p.demo) return { sql: `t.demo_owner = $${offset + 1}`, params: [p.userId] };
  switch (p.userType) {
    case "Agent":
      return { sql: `(t.demo_owner IS NULL AND t.company_id = ANY($${offset + 1}))`, params: [p.companyIds] };
    case "Supervisor":
      return { sql: `(t.demo_owner IS NULL AND t.agency_id = $${offset + 1})`, params: [p.agencyId] };
    default:
      return { sql: "t.demo_owner IS NULL", params: [] };
  }
}

/** A row as readers see it: an erased traveller's personal fields are all empty (the placeholder). */
const TRAVELLER_SELECT = `
  SELECT t.id, t.company_id, t.agency_id, t.erased, t.first_name, t.last_name,
         to_char(t.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, t.profile->>'gender' AS gender,
         coalesce(t.profile->'documents', '[]') AS documents, coalesce(t.profile->'contacts', '{}') AS contacts,
         coalesce(t.profile->'loyalty', '[]') AS loyalty, coalesce(t.profile->'ssrs', '[]') AS ssrs,
         t.updated_at
    FROM read.travellers t`;

type TravellerRow = Omit<Traveller, "updated_at"> & { updated_at: Date };
const answer = ({ updated_at, ...row }: TravellerRow): Traveller => ({
  ...row,
  updated_at: updated_at.toISOString(),
});

/** Travellers the agency keeps (issue 23, item 4): found as the agent types, one by id. */
export function travellerReadRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["travellers"]);

  router.get("/travellers", fresh, async (req, res) => {
    const p = requireUserType(req, ...READERS);
    const q = parseInput(TravellersQuery, req.query, "query");
    // By name (either order) or document number, as typed: every word must be found.
    const words = (q.q ?? "").toUpperCase().split(/\s+/).filter(Boolean);
    const where = new Where()
      .and(() => "NOT t.erased")
      .when(q.company_id, (n) => `t.company_id = ${n}`)
      .when(
        words.length > 0 ? words : null,
        (n) => `(SELECT bool_and(position(w in t.search) > 0) FROM unnest(${n}::text[]) w) IS NOT FALSE`,
      )
      .scope((offset) => travellerScope(p, offset));
    const { rows } = await pool.query<TravellerRow>(
      `${TRAVELLER_SELECT} WHERE ${where.sql}
        ORDER BY ${q.order === "recent" ? "t.updated_at DESC, " : ""}t.last_name, t.first_name, t.id
        LIMIT ${where.param(q.limit)}`,
      where.params,
    );
    res.json({ data: rows.map(answer) });
  });

  router.get("/travellers/:id", fresh, async (req: Request, res) => {
    const p = requireUserType(req, ...READERS);
    const id = String(req.params.id);
    const scope = travellerScope(p, 1);
    const { rows } = await pool.query<TravellerRow>(`${TRAVELLER_SELECT} WHERE t.id = $1 AND ${scope.sql}`, [
      id.slice(0, 100),
      ...scope.params,
    ]);
    if (!rows[0]) throw new NotFound("No such traveller", "traveller_not_found");
    res.json({ traveller: answer(rows[0]) });
  });

  return router;
}
