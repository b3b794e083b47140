import type { EntityKind } from "@skyward/contracts/assistant-catalogue";
import { isAdministrator } from "@skyward/infra/http/auth";
import type { Principal } from "@skyward/infra/http/context";
import type pg from "pg";
import { foldedTokens } from "./text.ts";

/** A partner, company, channel or supervisor a request may name, within what its user may see. */
export interface Entity {
  kind: EntityKind;
  id: string;
  name: string;
  /** The partner it belongs to (itself for a partner). */
  agency_id: string | null;
  /** What tells two of the same name apart (the partner's name, an e-mail). */
  detail: string | null;
  tokens: string[];
}

export interface Directory {
  entities: Entity[];
}

export const entity = (e: Omit<Entity, "tokens">): Entity => ({ ...e, tokens: foldedTokens(e.name) });

/**
 * The entities the caller may act on (DESIGN.md section 5): administrators every partner's, a supervisor only their
 * own partner's. Whatever lies outside is never matched, so it is answered as missing, never as existing.
 */
export async function loadDirectory(pool: pg.Pool, p: Principal): Promise<Directory> {
  const all = isAdministrator(p);
  const agency = p.agencyId;
  const [agencies, companies, channels, supervisors] = await Promise.all([
    pool.query<{ id: string; name: string }>(
      "SELECT id, name FROM read.agencies WHERE NOT deleted AND ($1 OR id = $2) ORDER BY name",
      [all, agency],
    ),
    pool.query<{ id: string; name: string; agency_id: string; agency: string | null }>(
      `SELECT c.id, c.name, c.agency_id, a.name AS agency FROM read.companies c
         LEFT JOIN read.agencies a ON a.id = c.agency_id
        WHERE NOT c.deleted AND ($1 OR c.agency_id = $2) ORDER BY c.name`,
      [all, agency],
    ),
    pool.query<{ id: string; title: string; agency_id: string; agency: string | null }>(
      `SELECT ch.id, ch.title, ch.agency_id, a.name AS agency FROM read.channels ch
         LEFT JOIN read.agencies a ON a.id = ch.agency_id
        WHERE NOT ch.deleted AND ($1 OR ch.agency_id = $2) ORDER BY ch.title`,
      [all, agency],
    ),
    pool.query<{ id: string; first_name: string; last_name: string; email: string; agency_id: string }>(
      `SELECT id, first_name, last_name, email, agency_id FROM read.users
        WHERE user_type = 'Supervisor' AND active AND ($1 OR agency_id = $2)`,
      [all, agency],
    ),
  ]);
  return {
    entities: [
      ...agencies.rows.map((r) =>
        entity({ kind: "agency", id: r.id, name: r.name, agency_id: r.id, detail: null }),
      ),
      ...companies.rows.map((r) =>
        entity({ kind: "company", id: r.id, name: r.name, agency_id: r.agency_id, detail: r.agency }),
      ),
      ...channels.rows.map((r) =>
        entity({ kind: "channel", id: r.id, name: r.title, agency_id: r.agency_id, detail: r.agency }),
      ),
      ...supervisors.rows.map((r) =>
        entity({
          kind: "supervisor",
          id: r.id,
          name: `${r.first_name} ${r.last_name}`,
          agency_id: r.agency_id,
          detail: r.email,
        }),
      ),
    ],
  };
}

/**
 * The partners, companies, channels and supervisors outside the caller's scope (a supervisor: every other partner's), by name
 * only: a request naming one is refused as outside the scope, never read as a look-alike inside it. Their ids and
 * details never leave the server.
 */
export async function loadOutside(pool: pg.Pool, p: Principal): Promise<Entity[]> {
  if (isAdministrator(p)) return [];
  const { rows } = await pool.query<{ kind: EntityKind; id: string; name: string; agency_id: string }>(
    `SELECT 'agency' AS kind, id, name, id AS agency_id FROM read.agencies WHERE NOT deleted AND id <> $1
     UNION ALL SELECT 'company', id, name, agency_id FROM read.companies WHERE NOT deleted AND agency_id <> $1
     UNION ALL SELECT 'channel', id, title, agency_id FROM read.channels WHERE NOT deleted AND agency_id <> $1
     UNION ALL SELECT 'supervisor', id, first_name || ' ' || last_name, agency_id FROM read.users
      WHERE user_type = 'Supervisor' AND active AND agency_id <> $1`,
    [p.agencyId ?? ""],
  );
  return rows.map((r) =>
    entity({ kind: r.kind, id: r.id, name: r.name, agency_id: r.agency_id, detail: null }),
  );
}
