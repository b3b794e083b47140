import type { SearchRequest, SearchResult } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import type { Principal } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type pg from "pg";

export interface StoredSearch {
  id: string;
  user_id: string;
  company_id: string;
  channel_id: string;
  request: SearchRequest;
  result: SearchResult;
  filters: SearchFilters;
}

/** How long an agent can book from a result page before searching again. */
export const SEARCH_TTL_MINUTES = 60;

export async function saveSearch(pool: pg.Pool, search: StoredSearch): Promise<void> {
  await pool.query(
    `INSERT INTO app.search_results (id, user_id, company_id, channel_id, request, result, filters)
     VALUES ($1,$2,$3,$4,$5,$6,'{}')
     ON CONFLICT (id) DO UPDATE SET result = EXCLUDED.result, filters = '{}', created_at = now()`,
    [
      search.id,
      search.user_id,
      search.company_id,
      search.channel_id,
      JSON.stringify(search.request),
      JSON.stringify(search.result),
    ],
  );
}

/** A caller's own recent search; anyone else's answers 404. */
export async function loadSearch(pool: pg.Pool, principal: Principal, id: string): Promise<StoredSearch> {
  const { rows } = await pool.query<StoredSearch>(
    `SELECT id, user_id, company_id, channel_id, request, result, filters FROM app.search_results
      WHERE id = $1 AND user_id = $2 AND created_at > now() - make_interval(mins => $3)`,
    [id, principal.userId, SEARCH_TTL_MINUTES],
  );
  const row = rows[0];
  if (!row) throw new NotFound("This search result has expired; search again", "search_result_not_found");
  return row;
}

export async function saveFilters(pool: pg.Pool, id: string, filters: SearchFilters): Promise<void> {
  await pool.query("UPDATE app.search_results SET filters = $2 WHERE id = $1", [id, JSON.stringify(filters)]);
}
