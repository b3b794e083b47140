import { EventEmitter } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import type { FeedPosition } from "@skyward/contracts/position";
import type pg from "pg";
import type { EventStore } from "../event-store/event-store.ts";
import type { StoredEvent } from "../event-store/types.ts";
import type { Wakeup } from "../event-store/wakeup.ts";
import { type Projection, tablesOf } from "./projection.ts";

export interface RunnerOptions {
  batchSize?: number;
  /** Fallback poll when no wake-up arrives (another process's commit, a missed NOTIFY). */
  pollMs?: number;
  /** How often a waiting instance tries to take the projection's lock. */
  lockRetryMs?: number;
  /** Test hook: runs inside the batch transaction after the handler, before commit. */
  beforeCommit?: (events: readonly StoredEvent[]) => Promise<void> | void;
}

interface Checkpoint {
  tx: bigint;
  gp: bigint;
}

const lockKey = (name: string, purpose: string) => `skyward.projection.${purpose}.${name}`;

/** Creates a generation's tables and checkpoint (idempotent). */
async function createGeneration(pool: pg.Pool, projection: Projection, generation: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(projection.setup(tablesOf(projection, generation)));
    await client.query(
      "INSERT INTO read.checkpoints(projection, generation) VALUES ($1, $2) ON CONFLICT DO NOTHING",
      [projection.name, generation],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Puts a generation in service: repoints the views and drops the generation it replaces. */
async function switchTo(pool: pg.Pool, projection: Projection, generation: number): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ generation: number }>(
      "SELECT generation FROM read.projections WHERE name = $1 FOR UPDATE",
      [projection.name],
    );
    const previous = rows[0]?.generation;
    const t = tablesOf(projection, generation);
    for (const table of projection.tables) {
      await client.query(`DROP VIEW IF EXISTS read."${table}"`);
      await client.query(`CREATE VIEW read."${table}" AS SELECT * FROM ${t[table]}`);
    }
    await client.query(
      `INSERT INTO read.projections(name, generation, code_version) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET generation = $2, code_version = $3, switched_at = now()`,
      [projection.name, generation, projection.version],
    );
    if (previous !== undefined && previous !== generation) {
      const old = tablesOf(projection, previous);
      for (const table of projection.tables) await client.query(`DROP TABLE IF EXISTS ${old[table]}`);
      await client.query("DELETE FROM read.checkpoints WHERE projection = $1 AND generation = $2", [
        projection.name,
        previous,
      ]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function readCheckpoint(pool: pg.Pool, name: string, generation: number): Promise<Checkpoint> {
  const { rows } = await pool.query<{ tx: string; gp: string }>(
    "SELECT last_tx::text AS tx, last_gp::text AS gp FROM read.checkpoints WHERE projection = $1 AND generation = $2",
    [name, generation],
  );
  const row = rows[0];
  if (!row) throw new Error(`no checkpoint for ${name} generation ${generation}`);
  return { tx: BigInt(row.tx), gp: BigInt(row.gp) };
}

type BatchResult = "applied" | "empty" | "superseded";

/**
 * Reads one batch outside any transaction, then applies it and advances the checkpoint with a compare-and-set
 * in one transaction. A concurrent writer of the same checkpoint, or a switch to another generation, rolls the
 * batch back: the effect is exactly once across crashes and competing instances.
 */
async function processBatch(
  pool: pg.Pool,
  store: EventStore,
  projection: Projection,
  generation: number,
  options: RunnerOptions & { live: boolean },
): Promise<{ result: BatchResult; checkpoint?: Checkpoint; count: number }> {
  const from = await readCheckpoint(pool, projection.name, generation);
  const batch = await store.readFeed(from, options.batchSize ?? 1000, projection.eventTypes);
  const last = batch.at(-1);
  if (!last) return { result: "empty", count: 0 };
  const handled = new Set(projection.eventTypes);
  const events = batch.filter((e) => handled.has(e.type));
  const to = { tx: last.transactionId, gp: last.globalPosition };
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    if (options.live) {
      const { rows } = await client.query<{ generation: number }>(
        "SELECT generation FROM read.projections WHERE name = $1 FOR SHARE",
        [projection.name],
      );
      if (rows[0]?.generation !== generation) {
        await client.query("ROLLBACK");
        return { result: "superseded", count: 0 };
      }
    }
    const cas = await client.query(
      `UPDATE read.checkpoints SET last_tx = $3::xid8, last_gp = $4, updated_at = now()
        WHERE projection = $1 AND generation = $2 AND last_tx = $5::xid8 AND last_gp = $6`,
      [
        projection.name,
        generation,
        to.tx.toString(),
        to.gp.toString(),
        from.tx.toString(),
        from.gp.toString(),
      ],
    );
    if (cas.rowCount !== 1) {
      await client.query("ROLLBACK");
      return { result: "superseded", count: 0 };
    }
    if (events.length > 0) await projection.apply(client, events, tablesOf(projection, generation));
    await options.beforeCommit?.(events);
    await client.query("COMMIT");
    return { result: "applied", checkpoint: to, count: batch.length };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Builds `generation` from its checkpoint until it reaches the head of the feed. Returns events read. */
async function catchUp(
  pool: pg.Pool,
  store: EventStore,
  projection: Projection,
  generation: number,
  options: RunnerOptions,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { result, count } = await processBatch(pool, store, projection, generation, {
      ...options,
      live: false,
    });
    total += count;
    if (result === "empty") return total;
  }
}

/**
 * Builds a new generation of a projection side by side from position zero and switches the views to it once it
 * has caught up; the generation in service keeps answering meanwhile.
 */
export async function rebuildProjection(
  pool: pg.Pool,
  store: EventStore,
  projection: Projection,
  options: RunnerOptions = {},
): Promise<{ generation: number; events: number }> {
  const { rows } = await pool.query<{ next: number }>(
    "SELECT coalesce(max(generation), 0) + 1 AS next FROM read.checkpoints WHERE projection = $1",
    [projection.name],
  );
  const generation = Number(rows[0]?.next ?? 1);
  await createGeneration(pool, projection, generation);
  const events = await catchUp(pool, store, projection, generation, options);
  await switchTo(pool, projection, generation);
  return { generation, events };
}

export interface RunnerEvents {
  advanced: [name: string, checkpoint: Checkpoint];
}

/**
 * Keeps one projection up to date. Only one instance runs per projection: it holds a session advisory lock on a
 * dedicated connection (released by the server if the process dies); another instance waits and takes over.
 */
export class ProjectionRunner extends EventEmitter<RunnerEvents> {
  private stopped = false;
  private wake: (() => void) | null = null;
  /** Set by a wake-up that arrived while a batch was running, so the next sleep is skipped. */
  private dirty = false;
  private lockClient: pg.PoolClient | null = null;
  private loop: Promise<void> | null = null;
  generation = 0;
  isLeader = false;
  failure: Error | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: EventStore,
    readonly projection: Projection,
    private readonly wakeup: Wakeup | undefined,
    private readonly options: RunnerOptions = {},
  ) {
    super();
  }

  start(): void {
    this.loop = this.run().catch((error: Error) => {
      this.failure = error;
    });
  }

  private async acquireLock(): Promise<void> {
    this.lockClient = await this.pool.connect();
    for (;;) {
      if (this.stopped) return;
      const { rows } = await this.lockClient.query<{ ok: boolean }>(
        "SELECT pg_try_advisory_lock(hashtext($1)) AS ok",
        [lockKey(this.projection.name, "live")],
      );
      if (rows[0]?.ok) {
        this.isLeader = true;
        return;
      }
      await this.sleepUntilWake(this.options.lockRetryMs ?? 500);
    }
  }

  private async ensureGeneration(): Promise<void> {
    const { rows } = await this.pool.query<{ generation: number; code_version: number }>(
      "SELECT generation, code_version FROM read.projections WHERE name = $1",
      [this.projection.name],
    );
    const row = rows[0];
    if (!row) {
      await createGeneration(this.pool, this.projection, 1);
      await switchTo(this.pool, this.projection, 1);
      this.generation = 1;
    } else if (row.code_version !== this.projection.version) {
      this.generation = (
        await rebuildProjection(this.pool, this.store, this.projection, this.options)
      ).generation;
    } else {
      this.generation = row.generation;
    }
  }

  private async run(): Promise<void> {
    const unsubscribe = this.wakeup?.onWake(() => {
      this.dirty = true;
      this.wake?.();
    });
    try {
      await this.acquireLock();
      if (this.stopped) return;
      await this.ensureGeneration();
      while (!this.stopped) {
        const { result, checkpoint } = await processBatch(
          this.pool,
          this.store,
          this.projection,
          this.generation,
          {
            ...this.options,
            live: true,
          },
        );
        if (result === "applied" && checkpoint) {
          this.emit("advanced", this.projection.name, checkpoint);
        } else if (result === "superseded") {
          await this.ensureGeneration();
        } else {
          await this.sleepUntilWake(this.options.pollMs ?? 250);
        }
      }
    } finally {
      unsubscribe?.();
      if (this.lockClient) {
        await this.lockClient
          .query("SELECT pg_advisory_unlock(hashtext($1))", [lockKey(this.projection.name, "live")])
          .catch(() => {});
        this.lockClient.release();
        this.lockClient = null;
      }
      this.isLeader = false;
    }
  }

  private async sleepUntilWake(ms: number): Promise<void> {
    if (this.dirty) {
      this.dirty = false;
      return;
    }
    const controller = new AbortController();
    await Promise.race([
      sleep(ms, undefined, { signal: controller.signal }).catch(() => {}),
      new Promise<void>((resolve) => {
        this.wake = resolve;
      }),
    ]);
    controller.abort();
    this.wake = null;
    this.dirty = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }
}

/** Position the read models in service have all reached: the least of their checkpoints. */
export async function readModelsPosition(
  pool: pg.Pool,
  names: readonly string[],
): Promise<FeedPosition | null> {
  const { rows } = await pool.query<{ tx: string; gp: string }>(
    `SELECT c.last_tx::text AS tx, c.last_gp::text AS gp
       FROM read.checkpoints c JOIN read.projections p ON p.name = c.projection AND p.generation = c.generation
      WHERE c.projection = ANY($1)
      ORDER BY c.last_tx, c.last_gp LIMIT 1`,
    [names],
  );
  const row = rows[0];
  return row && rows.length > 0 ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : null;
}
