import { promisify } from "node:util";
import zlib from "node:zlib";
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
const TTL_MS = SEARCH_TTL_MINUTES * 60_000;

const compress = promisify(zlib.brotliCompress);
const decompress = promisify(zlib.brotliDecompress);
/** Quality 1: a page shrinks about 15 times in 0.1 ms, on libuv's thread pool rather than the event loop. */
const FAST = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };

/**
 * Result pages an agent books from. Kept in PostgreSQL (an unlogged table, Brotli-compressed: never looked into
 * there) so any command-service process can serve the booking, with this process's newest pages in memory in front
 * of it: a page is 100-200 KB, and reading it back for every filter and booking would cost more than the search.
 */
export class SearchResults {
  private readonly memory = new Map<string, { search: StoredSearch; at: number }>();

  constructor(
    private readonly pool: pg.Pool,
    /**
     * Pages kept parsed in memory, newest first: enough for the pages agents are booking from now. Each is a few
     * hundred KB of objects that every garbage collection walks, so older ones are read back from the table.
     */
    private readonly capacity = 256,
  ) {}

  private remember(search: StoredSearch, at: number): void {
    this.memory.delete(search.id);
    this.memory.set(search.id, { search, at });
    // A Map iterates oldest first: drop the least recently used beyond capacity.
    for (const id of this.memory.keys()) {
      if (this.memory.size <= this.capacity) break;
      this.memory.delete(id);
    }
  }

  /** Keeps a page; `resultJson` is `search.result` as already serialized for the answer. */
  async save(search: StoredSearch, resultJson: Buffer | string): Promise<void> {
    this.remember(search, Date.now());
    const result = await compress(resultJson, FAST);
    await this.pool.query(
      `INSERT INTO app.search_results (id, user_id, company_id, channel_id, request, result, filters)
       VALUES ($1,$2,$3,$4,$5,$6,'{}')`,
      [
        search.id,
        search.user_id,
        search.company_id,
        search.channel_id,
        JSON.stringify(search.request),
        result,
      ],
    );
  }

  /** A caller's own recent search; anyone else's answers 404. */
  async load(principal: Principal, id: string): Promise<StoredSearch> {
    const cached = this.memory.get(id);
    if (cached && Date.now() - cached.at < TTL_MS) {
      if (cached.search.user_id !== principal.userId) throw notFound();
      this.remember(cached.search, cached.at);
      return cached.search;
    }
    const { rows } = await this.pool.query<
      Omit<StoredSearch, "result"> & { result: Buffer; created_at: Date }
    >(
      `SELECT id, user_id, company_id, channel_id, request, result, filters, created_at FROM app.search_results
        WHERE id = $1 AND user_id = $2 AND created_at > now() - make_interval(mins => $3)`,
      [id, principal.userId, SEARCH_TTL_MINUTES],
    );
    const row = rows[0];
    if (!row) throw notFound();
    const { created_at, result, ...rest } = row;
    const search = {
      ...rest,
      result: JSON.parse((await decompress(result)).toString("utf8")) as SearchResult,
    };
    this.remember(search, created_at.getTime());
    return search;
  }

  async saveFilters(search: StoredSearch, filters: SearchFilters): Promise<void> {
    search.filters = filters;
    await this.pool.query("UPDATE app.search_results SET filters = $2 WHERE id = $1", [
      search.id,
      JSON.stringify(filters),
    ]);
  }

  /** Drops pages past their time to live. */
  async purge(): Promise<number> {
    const { rowCount } = await this.pool.query(
      "DELETE FROM app.search_results WHERE created_at < now() - make_interval(mins => $1)",
      [SEARCH_TTL_MINUTES],
    );
    return rowCount ?? 0;
  }
}

const notFound = () =>
  new NotFound("This search result has expired; search again", "search_result_not_found");
