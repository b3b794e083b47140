import { promisify } from "node:util";
import zlib from "node:zlib";
import type { JourneySearchRequest, SearchResult } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import type { ChangeNotices } from "@skyward/infra/event-store/change-notices";
import type { Principal } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { LRUCache } from "lru-cache";
import type pg from "pg";
import type { StreamVersion } from "./selling-context.ts";

export interface StoredSearch {
  id: string;
  user_id: string;
  company_id: string;
  channel_id: string;
  request: JourneySearchRequest;
  result: SearchResult;
  filters: SearchFilters;
}

/** How long an agent can book from a result page before searching again. */
export const SEARCH_TTL_MINUTES = 60;
const TTL_MS = SEARCH_TTL_MINUTES * 60_000;
/** A page's key in ChangeNotices. */
const PAGE_KEY = "search-page:";

const compress = promisify(zlib.brotliCompress);
const decompress = promisify(zlib.brotliDecompress);
/** Quality 1: a page shrinks about 15 times in 0.1 ms, on libuv's thread pool rather than the event loop. */
const FAST = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };

/**
 * Result pages an agent books from. Kept in PostgreSQL (an unlogged table, the answer Brotli-compressed: never
 * looked into there) so any command-service process can serve the booking, with this process's newest pages in memory in front
 * of it: a page is 100-200 KB, and reading it back for every filter and booking would cost more than the search.
 * A page's filters change through any process: the change is announced (ChangeNotices) and others drop the page.
 */
export class SearchResults {
  /**
   * Pages kept parsed in memory, least recently used dropped first: enough for the pages agents are booking from
   * now. Each is a few hundred KB of objects that every garbage collection walks, so older ones are read back.
   */
  private readonly memory: LRUCache<string, StoredSearch>;
  /** Bumped by every page another process changed, so a read that such a change overtook is not kept. */
  private changes = 0;
  private readonly notices: ChangeNotices | undefined;
  readonly close: () => void;

  constructor(
    private readonly pool: pg.Pool,
    options: { capacity?: number; notices?: ChangeNotices } = {},
  ) {
    this.memory = new LRUCache({ max: options.capacity ?? 256, ttl: TTL_MS });
    this.notices = options.notices;
    this.close =
      options.notices?.onChange((keys) => {
        if (keys === "all") {
          this.changes++;
          this.memory.clear();
          return;
        }
        for (const key of keys) {
          if (!key.startsWith(PAGE_KEY)) continue;
          this.changes++;
          this.memory.delete(key.slice(PAGE_KEY.length));
        }
      }) ?? (() => {});
  }

  /** Keeps a page in memory for what is left of its time to live. */
  private remember(search: StoredSearch, createdAt: number): void {
    const ttl = TTL_MS - (Date.now() - createdAt);
    if (ttl > 0) this.memory.set(search.id, search, { ttl });
  }

  /**
   * Keeps a page; `answerJson` is the search's whole answer, `{"result": search.result}`, as serialized for the
   * caller. It is kept Brotli-encoded, and those bytes are returned: the answer to a browser that accepts Brotli, so
   * a page is encoded once, not again per answer. With a `guard` (the streams the search decided on, at the versions
   * read), the page is kept only if none of them moved meanwhile, in the same statement: null means the search must
   * be decided again on what they are now.
   */
  async save(
    search: StoredSearch,
    answerJson: Buffer | string,
    guard: readonly StreamVersion[] = [],
  ): Promise<Buffer | null> {
    const encoded = await compress(answerJson, FAST);
    // No wait for the WAL flush at commit: a page lost with a crash of the server only means searching again.
    const { rows } = await this.pool.query<{ kept: number }>(
      `WITH kept AS (
         INSERT INTO app.search_results (id, user_id, company_id, channel_id, request, result, filters)
         SELECT $1,$2,$3,$4,$5,$6,'{}'
          WHERE NOT EXISTS (
            SELECT FROM unnest($7::text[], $8::bigint[]) AS g(stream_id, version)
             WHERE coalesce((SELECT s.version FROM es.streams s WHERE s.stream_id = g.stream_id), 0) <> g.version)
         RETURNING 1)
       SELECT count(*)::int AS kept, set_config('synchronous_commit', 'off', true) FROM kept`,
      [
        search.id,
        search.user_id,
        search.company_id,
        search.channel_id,
        JSON.stringify(search.request),
        encoded,
        guard.map((g) => g.streamId),
        guard.map((g) => g.version),
      ],
    );
    if (rows[0]?.kept !== 1) return null;
    this.remember(search, Date.now());
    return encoded;
  }

  /** A caller's own recent search; anyone else's answers 404. */
  async load(principal: Principal, id: string): Promise<StoredSearch> {
    const cached = this.memory.get(id);
    if (cached) {
      if (cached.user_id !== principal.userId) throw notFound();
      return cached;
    }
    const changes = this.changes;
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
    const stored = JSON.parse((await decompress(result)).toString("utf8"));
    // Pages kept before answers were stored whole hold the result alone (an hour's worth after an upgrade).
    const search = { ...rest, result: ("result" in stored ? stored.result : stored) as SearchResult };
    if (changes === this.changes) this.remember(search, created_at.getTime());
    return search;
  }

  async saveFilters(search: StoredSearch, filters: SearchFilters): Promise<void> {
    search.filters = filters;
    await this.pool.query("UPDATE app.search_results SET filters = $2 WHERE id = $1", [
      search.id,
      JSON.stringify(filters),
    ]);
    this.notices?.announce([`${PAGE_KEY}${search.id}`]);
  }
  /** Drops pages past their time to live. */
  async purge(): Promise<number> {
    const { rowCount } = await this.pool.query(
      "DELETE FROM app.search_results WHERE created_at < now() - make_interval(mins => $1)",
      [SEARCH_TTL_MINUTES],
    );
    // Fare calendars are kept like pages (fare-calendar.ts).
    await this.pool.query(
      "DELETE FROM app.fare_calendars WHERE created_at < now() - make_interval(mins => $1)",
      [SEARCH_TTL_MINUTES],
    );
    return rowCount ?? 0;
  }
}

const notFound = () =>
  new NotFound("This search result has expired; search again", "search_result_not_found");
