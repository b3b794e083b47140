import { setTimeout as sleep } from "node:timers/promises";
import {
  type CanonicalEvent,
  type ChainAnchor,
  type ChainProblem,
  GENESIS_HASH,
  type VerifyReport,
} from "@skyward/contracts/audit";
import type pg from "pg";
import { Where } from "../db.ts";
import type { Wakeup } from "../event-store/wakeup.ts";
import type { Logger } from "../logger.ts";
import { linkHash } from "./canonical.ts";

/*
 * The tamper-evident log. Why a chainer behind the appends rather than a chain head updated inside es.append: the
 * global order is (transaction_id, global_position), known only once the appending transactions have committed, and a
 * single head row locked by every append would serialise all writers until their commit. The chainer links events
 * in the feed's commit-safe order (only transactions older than every one still running), exactly the order every
 * projector sees. The window: an event is unchained from its commit until the chainer's next batch (milliseconds
 * when woken, at most `pollMs` otherwise); the verifier reports how many events are still unchained.
 */

/** The columns an event is hashed from, read as exact text (big numbers, microsecond times). */
const EVENT_SELECT = `e.global_position::text AS gp, e.transaction_id::text AS tx, e.stream_id,
  e.stream_position::text AS sp, e.event_id::text AS event_id, e.event_type, e.data, e.metadata,
  to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at`;

export interface EventRow {
  gp: string;
  tx: string;
  stream_id: string;
  sp: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: unknown;
  recorded_at: string;
}

export const canonicalOf = (r: EventRow): CanonicalEvent => ({
  global_position: r.gp,
  transaction_id: r.tx,
  stream_id: r.stream_id,
  stream_position: r.sp,
  event_id: r.event_id,
  event_type: r.event_type,
  recorded_at: r.recorded_at,
  data: r.data,
  metadata: r.metadata,
});

interface Head {
  seq: number;
  tx: string;
  gp: string;
  hash: string;
}

const GENESIS: Head = { seq: 0, tx: "0", gp: "0", hash: GENESIS_HASH };

async function readHead(db: Pick<pg.Pool, "query">): Promise<Head> {
  const { rows } = await db.query<Head>(
    "SELECT seq, transaction_id::text AS tx, global_position::text AS gp, hash FROM es.chain ORDER BY seq DESC LIMIT 1",
  );
  return rows[0] ? { ...rows[0], seq: Number(rows[0].seq) } : GENESIS;
}

/**
 * Events linked per transaction, at most. A chainer's transaction holds back every projector while it writes (the feed
 * delivers only events older than every running transaction), and its hashing holds the process's event loop: 2,000
 * links took 25-90 ms to insert, and hashing them held the loop up to 60 ms, each a stall of the command → read model
 * path. Without a chainer, 8 writers' events read back at p99 42 ms; with one linking
 * 2,000 a batch, 91-97 ms; 250, 55-58 ms; 100, 48-54 ms (issue 26, `npm run bench -- event-store`).
 */
export const CHAIN_BATCH = 100;
/** A chainer links at most this many events per `minIntervalMs` (1 s): a backlog is caught up beside the appends. */
const LINKS_PER_INTERVAL = 2000;

export interface ChainOptions {
  /** Events linked per transaction (CHAIN_BATCH). */
  batchSize?: number;
  /** An anchor is taken every this many links... */
  anchorEvery?: number;
  /** ...and at least this often while events arrive. */
  anchorEveryMs?: number;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);

/** The prefixes of es.chain.keys, by filter. */
const KEY_PREFIX = {
  stream_id: "s",
  locator: "l",
  agency_id: "a",
  company_id: "c",
  actor_id: "u",
  trace_id: "t",
} as const;

function chainKeys(link: Record<keyof typeof KEY_PREFIX, string | null>): string[] {
  const keys: string[] = [];
  for (const [column, prefix] of Object.entries(KEY_PREFIX)) {
    const value = link[column as keyof typeof KEY_PREFIX];
    if (value !== null) keys.push(`${prefix}:${value}`);
  }
  return keys;
}

/**
 * The links of a batch of events after `head`, as the JSON array the chain's INSERT reads, and the last link. Hashing
 * holds the event loop (2,000 links held it up to 60 ms): CHAIN_BATCH keeps that short as well.
 */
export function linkRows(
  rows: readonly EventRow[],
  head: Pick<Head, "seq" | "hash">,
): { json: string; last: LinkedEvent } {
  let prev = head.hash;
  let seq = head.seq;
  const links = rows.map((r): LinkedEvent => {
    prev = linkHash(prev, canonicalOf(r));
    seq++;
    const data = (r.data ?? {}) as Record<string, unknown>;
    const meta = (r.metadata ?? {}) as {
      actor?: { user_id?: unknown };
      scope?: { agency_id?: unknown; company_id?: unknown };
      trace_id?: unknown;
    };
    const link = {
      seq,
      tx: r.tx,
      gp: r.gp,
      hash: prev,
      stream_id: r.stream_id,
      event_type: r.event_type,
      recorded_at: r.recorded_at,
      // A booking's own events name it by their stream; its balance movements and operations by their data.
      locator: str(data.locator) ?? (r.stream_id.startsWith("booking-") ? r.stream_id.slice(8) : null),
      agency_id: str(data.agency_id) ?? str(meta.scope?.agency_id),
      company_id: str(data.company_id) ?? str(meta.scope?.company_id),
      actor_id: str(meta.actor?.user_id),
      trace_id: str(meta.trace_id),
    };
    return { ...link, keys: chainKeys(link) };
  });
  const last = links.at(-1);
  if (!last) throw new Error("no events to link");
  return { json: JSON.stringify(links), last };
}

/** One event's link as es.chain stores it. */
export interface LinkedEvent {
  seq: number;
  tx: string;
  gp: string;
  hash: string;
  stream_id: string;
  event_type: string;
  recorded_at: string;
  locator: string | null;
  agency_id: string | null;
  company_id: string | null;
  actor_id: string | null;
  trace_id: string | null;
  keys: string[];
}

/**
 * Links the next events of the feed after the chain head, in one transaction; answers how many. Several chainers
 * may run (one per projector process): the one that holds the advisory lock works, the others answer 0.
 */
export async function chainBatch(pool: pg.Pool, options: ChainOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? CHAIN_BATCH;
  const anchorEvery = options.anchorEvery ?? 1000;
  const anchorEveryMs = options.anchorEveryMs ?? 60 * 60 * 1000;
  const client = await pool.connect();
  try {
    // No wait for the WAL flush: a link lost in a crash is recomputed, identical, from the events by the next batch.
    await client.query("BEGIN; SET LOCAL synchronous_commit TO off");
    // Advisory, not a row lock: it takes no transaction id, so the feed read below is not held back by this one.
    const { rows: locked } = await client.query<Head & { ok: boolean }>(
      `SELECT l.ok, h.seq, h.tx, h.gp, h.hash FROM (SELECT pg_try_advisory_xact_lock(hashtext('skyward.chain')) AS ok) l
         LEFT JOIN LATERAL (SELECT seq, transaction_id::text AS tx, global_position::text AS gp, hash FROM es.chain
                             WHERE l.ok ORDER BY seq DESC LIMIT 1) h ON true`,
    );
    const lockRow = locked[0];
    if (!lockRow?.ok) {
      await client.query("ROLLBACK");
      return 0;
    }
    const head: Head = lockRow.seq == null ? GENESIS : { ...lockRow, seq: Number(lockRow.seq) };
    const { rows } = await client.query<EventRow>(
      `SELECT ${EVENT_SELECT} FROM es.events e
        WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
          AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY e.transaction_id, e.global_position
        LIMIT $3`,
      [head.tx, head.gp, batchSize],
    );
    if (rows.length === 0) {
      await client.query("ROLLBACK");
      return 0;
    }
    const { json, last } = linkRows(rows, head);
    const crossed = Math.floor(last.seq / anchorEvery) > Math.floor(head.seq / anchorEvery);
    // The links, the anchor when one is due, and the commit leave in one message.
    await client.query(
      `WITH linked AS (
         INSERT INTO es.chain (seq, transaction_id, global_position, hash, stream_id, event_type, recorded_at, locator,
                               agency_id, company_id, actor_id, trace_id, keys)
         SELECT seq, tx::xid8, gp, hash, stream_id, event_type, recorded_at, locator, agency_id, company_id, actor_id,
                trace_id, keys
           FROM jsonb_to_recordset($1::jsonb) AS x(seq bigint, tx text, gp bigint, hash text, stream_id text,
                event_type text, recorded_at timestamptz, locator text, agency_id text, company_id text,
                actor_id text, trace_id text, keys text[])
         RETURNING seq
       )
       INSERT INTO es.chain_anchors (seq, transaction_id, global_position, hash)
       SELECT $2, $3::xid8, $4, $5
        WHERE (SELECT count(*) FROM linked) > 0
          AND ($6::boolean
               OR NOT EXISTS (SELECT FROM es.chain_anchors
                               WHERE anchored_at > clock_timestamp() - $7 * interval '1 millisecond'))
       ON CONFLICT (seq) DO NOTHING`,
      [json, last.seq, last.tx, last.gp, last.hash, crossed, anchorEveryMs],
    );
    await client.query("COMMIT");
    return rows.length;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Links every event committed so far (tests, the verifier CLI, an export). */
export async function chainAll(pool: pg.Pool, options: ChainOptions = {}): Promise<void> {
  // However long the log, as long as each look links something; 1,000 looks in a row that link nothing give up.
  for (let idle = 0; idle < 1000; ) {
    const linked = await chainBatch(pool, options);
    if (linked > 0) {
      idle = 0;
      continue;
    }
    idle++;
    if (!(await chainBehind(pool))) return;
    await sleep(5); // behind a running transaction, or another chainer holds the lock
  }
  throw new Error("the chain did not catch up with the log");
}

/**
 * Whether committed events wait after the chain head. When a batch linked none of them, a running transaction holds
 * them back (any transaction of the cluster that began before they committed: transaction ids are cluster-wide), or
 * another chainer holds the lock.
 */
async function chainBehind(pool: pg.Pool): Promise<boolean> {
  // The first event after the head, along the feed's index. Asked as EXISTS (which drops its ORDER BY and LIMIT) or
  // against the head as one subquery's value, the planner scanned the events instead, each time a chainer linked
  // nothing (list-plans.test.ts counts those scans).
  const head = await readHead(pool);
  const { rowCount } = await pool.query(
    `SELECT 1 FROM es.events e WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
      ORDER BY e.transaction_id, e.global_position LIMIT 1`,
    [head.tx, head.gp],
  );
  return (rowCount ?? 0) > 0;
}

/** Takes an anchor at the chain head now (after linking what is committed); answers it, or null for an empty log. */
export async function anchorNow(pool: pg.Pool): Promise<ChainAnchor | null> {
  await chainAll(pool);
  const head = await readHead(pool);
  if (head.seq === 0) return null;
  await pool.query(
    `INSERT INTO es.chain_anchors (seq, transaction_id, global_position, hash) VALUES ($1, $2::xid8, $3, $4)
     ON CONFLICT (seq) DO NOTHING`,
    [head.seq, head.tx, head.gp, head.hash],
  );
  return (await listAnchors(pool)).find((a) => a.seq === head.seq) ?? null;
}

export async function listAnchors(db: Pick<pg.Pool, "query">): Promise<ChainAnchor[]> {
  const { rows } = await db.query<ChainAnchor>(
    `SELECT seq, transaction_id::text, global_position::text, hash,
            to_char(anchored_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS anchored_at
       FROM es.chain_anchors ORDER BY seq`,
  );
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

/** How soon a chainer looks again at events a running transaction holds back (without a wake-up to come for them). */
const HELD_BACK_LOOK_MS = 100;

/** Runs chainBatch whenever events are appended (woken) and every `pollMs`, until stopped. */
export class Chainer {
  private stopped = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private dirty = false;
  private unsubscribe: (() => void) | null = null;
  failure: Error | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: ChainOptions & {
      wakeup?: Wakeup;
      pollMs?: number;
      /** The least time between two batches (the chain's window grows by it; appends never wait for it). */
      minIntervalMs?: number;
      logger?: Pick<Logger, "error">;
    } = {},
  ) {}

  start(): void {
    this.unsubscribe =
      this.options.wakeup?.onWake(() => {
        this.dirty = true;
        this.wake?.();
      }) ?? null;
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    let backoff = 100;
    while (!this.stopped) {
      try {
        this.dirty = false;
        const linked = await chainBatch(this.pool, this.options);
        this.failure = null;
        backoff = 100;
        // At most LINKS_PER_INTERVAL links per `minIntervalMs` (1 s) while events stream in, in short transactions: a
        // full batch leaves more to link, and the next follows after its share of the interval.
        const interval = this.options.minIntervalMs ?? 1000;
        const batchSize = this.options.batchSize ?? CHAIN_BATCH;
        if (linked >= batchSize) {
          await this.pause((interval * batchSize) / LINKS_PER_INTERVAL, false);
          continue;
        }
        if (linked > 0) {
          await this.pause(interval, false);
          continue;
        }
        // Events committed behind a still-running transaction: look again in a moment. The wake-up of their append
        // may have come before this look (dirty) or long before it (the transaction holding them back ran on).
        if (this.dirty) continue;
        const pollMs = this.options.pollMs ?? 500;
        await this.pause((await chainBehind(this.pool)) ? Math.min(HELD_BACK_LOOK_MS, pollMs) : pollMs);
      } catch (error) {
        if (this.stopped) return;
        this.failure = error instanceof Error ? error : new Error(String(error));
        this.options.logger?.error({ err: this.failure }, "chainer failed; retrying");
        await this.pause(backoff);
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  private pause(ms: number, wakeable = true): Promise<void> {
    // A stop that came while a batch or a look was in flight found nothing to wake: no pause after it.
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      if (!wakeable) {
        this.wake = () => {
          this.wake = null;
          if (this.stopped) done();
        };
        return;
      }
      this.wake = () => {
        this.wake = null;
        // A short delay gathers a burst of appends into one batch.
        setTimeout(done, 2);
      };
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.wake?.();
    await this.loop;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The verifier: recomputes every link from the event rows and merges the chain with the log in global order.

interface LinkRow {
  seq: number;
  tx: string;
  gp: string;
  hash: string;
}

const PAGE = 2000;

function compareKeys(a: { tx: string; gp: string }, b: { tx: string; gp: string }): number {
  const atx = BigInt(a.tx);
  const btx = BigInt(b.tx);
  if (atx !== btx) return atx < btx ? -1 : 1;
  const agp = BigInt(a.gp);
  const bgp = BigInt(b.gp);
  return agp === bgp ? 0 : agp < bgp ? -1 : 1;
}

const problemOf = (
  kind: ChainProblem["kind"],
  link: LinkRow | null,
  event: EventRow | null,
  hashes: { expected?: string; actual?: string } = {},
): ChainProblem => ({
  kind,
  seq: link?.seq ?? null,
  global_position: event?.gp ?? link?.gp ?? null,
  transaction_id: event?.tx ?? link?.tx ?? null,
  event_id: event?.event_id ?? null,
  stream_id: event?.stream_id ?? null,
  stream_position: event?.sp ?? null,
  expected_hash: hashes.expected ?? null,
  actual_hash: hashes.actual ?? null,
});

export interface VerifyOptions {
  fromSeq?: number;
  toSeq?: number;
  /** Anchors kept outside the database (an exported file); the database's own are checked as well. */
  anchors?: readonly { seq: number; hash: string }[];
  /** Called after each page with the last link checked (a progress bar). */
  onProgress?: (checkedTo: number, of: number) => void;
}

/**
 * Checks the log from `fromSeq` (the link before it is taken as given) to `toSeq` (the head by default) and names
 * the first event that does not match: edited (its row no longer hashes to its link), deleted (a link without its
 * event), inserted (an event in the chained part of the log without a link), or an anchor the chain disagrees with.
 */
export async function verifyChain(
  pool: Pick<pg.Pool, "query">,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const head = await readHead(pool);
  const toSeq = Math.min(options.toSeq ?? head.seq, head.seq);
  const fromSeq = Math.max(1, options.fromSeq ?? 1);
  const { rows: pendingRows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM es.events e WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)`,
    [head.tx, head.gp],
  );
  const unchained = pendingRows[0]?.n ?? 0;
  const anchorAt = new Map<number, string>();
  for (const a of await listAnchors(pool)) anchorAt.set(a.seq, a.hash);
  // Outside anchors win over the database's: the database's may have been rewritten with the chain.
  for (const a of options.anchors ?? []) anchorAt.set(a.seq, a.hash);
  const report = (checked: number, anchorsChecked: number, problem: ChainProblem | null): VerifyReport => ({
    ok: problem === null,
    checked,
    from_seq: fromSeq,
    to_seq: toSeq,
    head: { seq: head.seq, hash: head.hash },
    anchors_checked: anchorsChecked,
    unchained,
    problem,
  });
  // An outside anchor beyond the head: links it vouched for are gone (the chain was cut back).
  const beyond = [...(options.anchors ?? [])]
    .filter((a) => a.seq > head.seq)
    .sort((a, b) => a.seq - b.seq)[0];
  if (beyond && options.toSeq === undefined)
    return report(0, 0, {
      ...problemOf("anchor_mismatch", null, null, { expected: beyond.hash }),
      seq: beyond.seq,
    });
  if (fromSeq > toSeq) return report(0, 0, null);

  let start: LinkRow = { seq: 0, tx: "0", gp: "0", hash: GENESIS_HASH };
  if (fromSeq > 1) {
    const { rows } = await pool.query<LinkRow>(
      "SELECT seq, transaction_id::text AS tx, global_position::text AS gp, hash FROM es.chain WHERE seq = $1",
      [fromSeq - 1],
    );
    if (!rows[0]) return report(0, 0, { ...problemOf("chain_broken", null, null), seq: fromSeq - 1 });
    start = { ...rows[0], seq: Number(rows[0].seq) };
  }
  const { rows: endRows } = await pool.query<LinkRow>(
    "SELECT seq, transaction_id::text AS tx, global_position::text AS gp, hash FROM es.chain WHERE seq = $1",
    [toSeq],
  );
  const end = endRows[0] ?? { seq: toSeq, tx: head.tx, gp: head.gp, hash: head.hash };

  let prev = start.hash;
  let expectedSeq = start.seq + 1;
  let checked = 0;
  let anchorsChecked = 0;
  let links: LinkRow[] = [];
  let li = 0;
  let linksAfter = start.seq;
  let linksDone = false;
  let events: EventRow[] = [];
  let ei = 0;
  let eventsAfter = { tx: start.tx, gp: start.gp };
  let eventsDone = false;

  const nextLink = async (): Promise<LinkRow | null> => {
    if (li >= links.length && !linksDone) {
      const { rows } = await pool.query<LinkRow>(
        `SELECT seq, transaction_id::text AS tx, global_position::text AS gp, hash FROM es.chain
          WHERE seq > $1 AND seq <= $2 ORDER BY seq LIMIT $3`,
        [linksAfter, toSeq, PAGE],
      );
      links = rows.map((r) => ({ ...r, seq: Number(r.seq) }));
      li = 0;
      if (links.length < PAGE) linksDone = true;
      const last = links.at(-1);
      if (last) linksAfter = last.seq;
      options.onProgress?.(linksAfter, toSeq);
    }
    return links[li] ?? null;
  };
  const nextEvent = async (): Promise<EventRow | null> => {
    if (ei >= events.length && !eventsDone) {
      const { rows } = await pool.query<EventRow>(
        `SELECT ${EVENT_SELECT} FROM es.events e
          WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
            AND (e.transaction_id, e.global_position) <= ($3::xid8, $4::bigint)
          ORDER BY e.transaction_id, e.global_position LIMIT $5`,
        [eventsAfter.tx, eventsAfter.gp, end.tx, end.gp, PAGE],
      );
      events = rows;
      ei = 0;
      if (rows.length < PAGE) eventsDone = true;
      const last = rows.at(-1);
      if (last) eventsAfter = { tx: last.tx, gp: last.gp };
    }
    return events[ei] ?? null;
  };

  for (;;) {
    const link = await nextLink();
    const event = await nextEvent();
    if (!link && !event) break;
    if (link && link.seq !== expectedSeq)
      return report(checked, anchorsChecked, {
        ...problemOf("chain_broken", link, null),
        seq: expectedSeq,
      });
    const order = !link ? 1 : !event ? -1 : compareKeys(link, event);
    if (order < 0)
      return report(checked, anchorsChecked, problemOf("deleted", link, null, { expected: link?.hash }));
    if (order > 0) return report(checked, anchorsChecked, problemOf("inserted", link, event));
    const l = link as LinkRow;
    const e = event as EventRow;
    const actual = linkHash(prev, canonicalOf(e));
    if (actual !== l.hash)
      return report(checked, anchorsChecked, problemOf("edited", l, e, { expected: l.hash, actual }));
    const anchored = anchorAt.get(l.seq);
    if (anchored !== undefined) {
      if (anchored !== actual)
        return report(
          checked,
          anchorsChecked,
          problemOf("anchor_mismatch", l, e, { expected: anchored, actual }),
        );
      anchorsChecked++;
    }
    prev = actual;
    expectedSeq++;
    checked++;
    li++;
    ei++;
  }
  if (checked < toSeq - start.seq)
    return report(checked, anchorsChecked, { ...problemOf("chain_broken", null, null), seq: expectedSeq });
  return report(checked, anchorsChecked, null);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading links with their events (the history and the exports).

export interface ChainedEvent {
  seq: number;
  prevHash: string;
  hash: string;
  event: CanonicalEvent;
}

export interface ChainFilter {
  stream_id?: string;
  locator?: string;
  company_id?: string;
  agency_id?: string;
  actor_id?: string;
  trace_id?: string;
  from?: string;
  to?: string;
  after_seq?: number;
}

/**
 * Chained events matching every filter given, in global order, with the link before each; `scope` gives an extra
 * SQL condition on alias `c` (es.chain) whose parameters are numbered after `offset`.
 */
export async function readChained(
  db: Pick<pg.Pool, "query">,
  filter: ChainFilter,
  limit: number,
  scope: (offset: number) => { sql: string; params: unknown[] } = () => ({ sql: "true", params: [] }),
): Promise<ChainedEvent[]> {
  const keys: string[] = [];
  for (const [column, prefix] of Object.entries(KEY_PREFIX)) {
    const value = filter[column as keyof typeof KEY_PREFIX];
    if (value !== undefined) keys.push(`${prefix}:${value}`);
  }
  const where = new Where()
    .when(keys.length > 0 ? keys : null, (p) => `c.keys @> ${p}::text[]`)
    .when(filter.from, (p) => `c.recorded_at >= ${p}::timestamptz`)
    .when(filter.to, (p) => `c.recorded_at <= ${p}::timestamptz`)
    .when(filter.after_seq, (p) => `c.seq > ${p}`)
    .scope(scope);
  // The page's links first, then each link's event by its place in the feed: the links are found along the chain (or
  // an index of a filter), and only the page's events are read. Joined before the LIMIT, a scope the planner cannot
  // estimate (a supervisor's agency or its bookings) made every page a scan of the whole chain and of the whole log,
  // hashed and joined; joined after it, a generic plan (which guesses a tenth of the chain for any LIMIT) still hashed
  // the whole log. The LIMIT 1 keeps the event's read a lookup per link (a subquery with one is not flattened).
  const { rows } = await db.query<EventRow & { seq: string; hash: string; prev_hash: string | null }>(
    `SELECT c.seq, c.hash, (SELECT p.hash FROM es.chain p WHERE p.seq = c.seq - 1) AS prev_hash, e.*
       FROM (SELECT c.seq, c.hash, c.transaction_id, c.global_position FROM es.chain c
              WHERE ${where.sql} ORDER BY c.seq LIMIT ${where.param(limit)}) c,
            LATERAL (SELECT ${EVENT_SELECT} FROM es.events e
                      WHERE e.transaction_id = c.transaction_id AND e.global_position = c.global_position LIMIT 1) e
      ORDER BY c.seq`,
    where.params,
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    hash: r.hash,
    prevHash: r.prev_hash ?? GENESIS_HASH,
    event: canonicalOf(r),
  }));
}

export { readHead as chainHead };
