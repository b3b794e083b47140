import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import type { EventStore } from "../event-store/event-store.ts";
import type { Projection, Tables } from "../projections/projection.ts";
import { rebuildProjection } from "../projections/runtime.ts";

/** The suffix of a replay's tables and views: read."bookings__replay" beside read."bookings". */
const REPLAY = "__replay";

/**
 * The projection under another name with its tables renamed, so that it is built from the whole log side by side
 * with the live one, by the same code, without touching the live generation.
 */
function shadowOf(projection: Projection): Projection {
  const live = (t: Tables): Tables => {
    const mapped: Tables = {};
    for (const table of projection.tables) mapped[table] = t[`${table}${REPLAY}`] as string;
    return mapped;
  };
  return {
    ...projection,
    name: `${projection.name}${REPLAY}`,
    tables: projection.tables.map((t) => `${t}${REPLAY}`),
    setup: (t) => projection.setup(live(t)),
    apply: (writer, events, t) => projection.apply(writer, events, live(t)),
  };
}

export interface TableComparison {
  table: string;
  liveRows: number;
  replayRows: number;
  liveChecksum: string;
  replayChecksum: string;
  equal: boolean;
}

export interface ReplayReport {
  projection: string;
  events: number;
  seconds: number;
  tables: TableComparison[];
  agree: boolean;
  /** The generation put in service (after agreement, when asked to switch), or null. */
  switchedTo: number | null;
}

/** Row count and an order-independent checksum of every row of a view, read in one snapshot with the others. */
async function tableFacts(client: pg.PoolClient, view: string): Promise<{ rows: number; checksum: string }> {
  const { rows } = await client.query<{ n: number; checksum: string | null }>(
    `SELECT count(*)::int AS n, md5(coalesce(string_agg(h, '' ORDER BY h), '')) AS checksum
       FROM (SELECT md5(x::text) AS h FROM ${view} x) s`,
  );
  return { rows: rows[0]?.n ?? 0, checksum: rows[0]?.checksum ?? "" };
}

/** The checkpoint of the generation in service of a projection, as "tx-gp". */
async function liveCheckpoint(pool: pg.Pool, name: string): Promise<string | null> {
  const { rows } = await pool.query<{ at: string }>(
    `SELECT c.last_tx::text || '-' || c.last_gp::text AS at FROM read.projections p
       JOIN read.checkpoints c ON c.projection = p.name AND c.generation = p.generation WHERE p.name = $1`,
    [name],
  );
  return rows[0]?.at ?? null;
}

/** Removes a replay's tables, views and bookkeeping. */
async function dropShadow(pool: pg.Pool, projection: Projection): Promise<void> {
  const shadow = shadowOf(projection);
  const { rows } = await pool.query<{ generation: number }>(
    "SELECT generation FROM read.checkpoints WHERE projection = $1",
    [shadow.name],
  );
  for (const table of shadow.tables) await pool.query(`DROP VIEW IF EXISTS read."${table}"`);
  for (const { generation } of rows)
    for (const table of shadow.tables)
      await pool.query(`DROP TABLE IF EXISTS read."${table}_g${generation}"`);
  await pool.query("DELETE FROM read.checkpoints WHERE projection = $1", [shadow.name]);
  await pool.query("DELETE FROM read.projections WHERE name = $1", [shadow.name]);
}

/**
 * Replays a projection from the whole log side by side with the live one, compares them table by table (row count
 * and a checksum of every row) at the same place in the feed, and, when they agree and `switchWhenEqual`, builds
 * and puts a fresh generation in service (the usual rebuild). The replay's tables are dropped afterwards.
 */
export async function replayAndCompare(
  pool: pg.Pool,
  store: EventStore,
  projection: Projection,
  options: {
    switchWhenEqual?: boolean;
    onProgress?: (done: number, of: number) => void;
    settleMs?: number;
    /** False once the run was given up on (its heartbeat judged stale): it must not switch generations then. */
    stillOurs?: () => boolean;
  } = {},
): Promise<ReplayReport> {
  const shadow = shadowOf(projection);
  await dropShadow(pool, projection);
  const started = performance.now();
  const { rows: head } = await pool.query<{ gp: string | null }>(
    "SELECT max(global_position)::text AS gp FROM es.events",
  );
  const of = Number(head[0]?.gp ?? 0);
  const progress = setInterval(async () => {
    const { rows } = await pool
      .query<{ gp: string }>("SELECT max(last_gp)::text AS gp FROM read.checkpoints WHERE projection = $1", [
        shadow.name,
      ])
      .catch(() => ({ rows: [] as { gp: string }[] }));
    options.onProgress?.(Number(rows[0]?.gp ?? 0), of);
  }, 250);
  let events: number;
  try {
    ({ events } = await rebuildProjection(pool, store, shadow));
  } finally {
    clearInterval(progress);
  }
  options.onProgress?.(of, of);
  const seconds = (performance.now() - started) / 1000;
  try {
    // Compared at one place in the feed: wait (a little) until the live generation is where the replay stopped.
    const replayAt = await liveCheckpoint(pool, shadow.name);
    const deadline = Date.now() + (options.settleMs ?? 5000);
    while ((await liveCheckpoint(pool, projection.name)) !== replayAt && Date.now() < deadline)
      await sleep(50);
    const client = await pool.connect();
    const tables: TableComparison[] = [];
    try {
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      for (const table of projection.tables) {
        const live = await tableFacts(client, `read."${table}"`);
        const replay = await tableFacts(client, `read."${table}${REPLAY}"`);
        tables.push({
          table,
          liveRows: live.rows,
          replayRows: replay.rows,
          liveChecksum: live.checksum,
          replayChecksum: replay.checksum,
          equal: live.rows === replay.rows && live.checksum === replay.checksum,
        });
      }
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    const agree = tables.every((t) => t.equal);
    const switchedTo =
      agree && options.switchWhenEqual && (options.stillOurs?.() ?? true)
        ? (await rebuildProjection(pool, store, projection)).generation
        : null;
    return { projection: projection.name, events, seconds, tables, agree, switchedTo };
  } finally {
    await dropShadow(pool, projection);
  }
}
