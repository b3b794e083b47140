import { setTimeout as sleep } from "node:timers/promises";
import { comparePositions, START_POSITION } from "@skyward/contracts/position";
import type pg from "pg";
import type { EventStore } from "../event-store/event-store.ts";
import type { Projection, Tables } from "../projections/projection.ts";
import { catchUp, rebuildProjection } from "../projections/runtime.ts";

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

/**
 * Where the live generation and the replay stand in the feed, read in the client's snapshot: level when no event of
 * the projection's types lies between their checkpoints (either may have moved past events it does not read), else
 * which of them is ahead.
 */
async function placeOfReplay(
  client: pg.PoolClient,
  projection: Projection,
  replay: string,
): Promise<"level" | "live ahead" | "replay ahead"> {
  const { rows } = await client.query<{ name: string; tx: string; gp: string }>(
    `SELECT p.name, c.last_tx::text AS tx, c.last_gp::text AS gp FROM read.projections p
       JOIN read.checkpoints c ON c.projection = p.name AND c.generation = p.generation WHERE p.name = ANY($1)`,
    [[projection.name, replay]],
  );
  const at = (name: string) => {
    const row = rows.find((r) => r.name === name);
    return row ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : START_POSITION;
  };
  const [live, replayed] = [at(projection.name), at(replay)];
  const order = comparePositions(live, replayed);
  const [from, to] = order > 0 ? [replayed, live] : [live, replayed];
  const between = await client.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT FROM es.events WHERE event_type = ANY($1)
        AND (transaction_id, global_position) > ($2::xid8, $3::bigint)
        AND (transaction_id, global_position) <= ($4::xid8, $5::bigint)) AS found`,
    [[...projection.eventTypes], from.tx.toString(), from.gp.toString(), to.tx.toString(), to.gp.toString()],
  );
  if (order === 0 || !between.rows[0]?.found) return "level";
  return order > 0 ? "live ahead" : "replay ahead";
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
    /** Told how far the replay is, every 250 ms and once done (awaited then, before the comparison). */
    onProgress?: (done: number, of: number) => void | Promise<void>;
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
  let generation: number;
  try {
    ({ events, generation } = await rebuildProjection(pool, store, shadow));
  } finally {
    clearInterval(progress);
  }
  await options.onProgress?.(of, of);
  const seconds = (performance.now() - started) / 1000;
  try {
    // Compared at one place in the feed, in one snapshot: while the live generation is behind, it is waited for (a
    // little); while it is ahead (traffic went on after the replay read the log, as it does all day), the replay
    // catches up with it. Before, a live generation one event ahead was compared as it was, and differed.
    const deadline = Date.now() + (options.settleMs ?? 5000);
    const client = await pool.connect();
    const tables: TableComparison[] = [];
    // A connection whose statement failed mid-transaction is dropped, not returned: its transaction ends with it.
    let failed: Error | undefined;
    try {
      for (;;) {
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const place = await placeOfReplay(client, projection, shadow.name);
        if (place === "level" || Date.now() >= deadline) break;
        await client.query("COMMIT");
        if (place === "live ahead") events += await catchUp(pool, store, shadow, generation);
        else await sleep(50);
      }
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
    } catch (error) {
      failed = error as Error;
      throw error;
    } finally {
      client.release(failed);
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
