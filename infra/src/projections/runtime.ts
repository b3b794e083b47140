import { EventEmitter } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { comparePositions, type FeedPosition } from "@skyward/contracts/position";
import pg from "pg";
import { type Statement, StatementBatch } from "../db.ts";
import type { EventStore } from "../event-store/event-store.ts";
import type { StoredEvent } from "../event-store/types.ts";
import type { Wakeup } from "../event-store/wakeup.ts";
import { createLogger, type Logger } from "../logger.ts";
import { metrics } from "../telemetry/metrics.ts";
import { projected } from "../telemetry/tracing.ts";
import { type CheckpointMove, CommitGroup } from "./commit-group.ts";
import { type Projection, tablesOf } from "./projection.ts";
import type { FeedPage, SharedFeed } from "./shared-feed.ts";

export interface RunnerOptions {
  /** A feed reader shared by the projectors of this process (one query for all of them). */
  feed?: SharedFeed;
  /** Commits the batches of this process's projectors that are ready together in one transaction (commitGroup). */
  commits?: CommitGroup;
  batchSize?: number;
  /** Fallback poll when no wake-up arrives (another process's commit, a missed NOTIFY). */
  pollMs?: number;
  /** How often a waiting instance tries to take the projection's lock. */
  lockRetryMs?: number;
  /** Test hook: runs inside the batch transaction (on its connection) after the handler, before commit. */
  beforeCommit?: (events: readonly StoredEvent[], client: pg.PoolClient) => Promise<void> | void;
  /** Where a failed loop is reported before it is retried; pino at level error when unset. */
  logger?: Pick<Logger, "error" | "info">;
  /** Backoff between retries of a failed loop: doubles from `min` to `max` milliseconds. */
  retryMs?: { min: number; max: number };
  /** A leading loop that has not come round for this long (a statement hanging) counts as stuck: 30 s. */
  stallMs?: number;
}

interface Checkpoint {
  tx: bigint;
  gp: bigint;
}

/** How soon a runner looks again at events committed but not yet readable (behind a running transaction). */
const PENDING_RETRY_MS = 3;
/** How long a checkpoint may stay in memory only while the feed carries no event the projection handles. */
const STORE_SKIPPED_MS = 200;

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

async function readCheckpoint(pool: pg.Pool, name: string, generation: number): Promise<Checkpoint | null> {
  const { rows } = await pool.query<{ tx: string; gp: string }>(
    "SELECT last_tx::text AS tx, last_gp::text AS gp FROM read.checkpoints WHERE projection = $1 AND generation = $2",
    [name, generation],
  );
  const row = rows[0];
  return row ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : null;
}

/** The checkpoint's compare-and-set from `from` to `to`, raising `CHECKPOINT_MOVED` when it matched no row. */
function checkpointCas(
  projection: string,
  generation: number,
  from: Checkpoint,
  to: Checkpoint,
  live: boolean,
): Statement {
  return {
    text: `WITH moved AS (
        UPDATE read.checkpoints SET last_tx = $3::xid8, last_gp = $4::bigint, updated_at = now()
         WHERE projection = $1::text AND generation = $2::int AND last_tx = $5::xid8 AND last_gp = $6::bigint
           AND (NOT $7::boolean
                OR EXISTS (SELECT FROM read.projections p WHERE p.name = $1 AND p.generation = $2 FOR SHARE))
        RETURNING 1)
      -- No wait for the WAL flush at this transaction's commit (see commitCheckpoint), also when it is one statement.
      SELECT read.checkpoint_moved(count(*)), set_config('synchronous_commit', 'off', true) FROM moved`,
    values: [
      projection,
      generation,
      to.tx.toString(),
      to.gp.toString(),
      from.tx.toString(),
      from.gp.toString(),
      live,
    ],
  };
}

/** SQLSTATE of `read.checkpoint_moved`: the compare-and-set matched no row. */
const CHECKPOINT_MOVED = "SK001";

/**
 * Moves a checkpoint from `from` to `to` and runs `statements` with it, in one transaction whose statements are
 * sent pipelined, each with its parameters (one round trip; projector batches were a large share of all round
 * trips), or as one statement when there are none: BEGIN, the compare-and-set (raising when
 * another instance moved the checkpoint, or, `live`, when a rebuild took the generation out of service: it holds
 * the generation FOR SHARE, so a switch waits for it), the statements, COMMIT. No wait for the WAL flush: a crash
 * can only lose whole batches (read models and checkpoint together), which are applied again from the durable
 * event store. Returns false, having written nothing, when the compare-and-set failed. `beforeCommit` (a test
 * hook) runs on the open transaction before its COMMIT.
 */
async function commitCheckpoint(
  pool: pg.Pool,
  projection: Projection,
  generation: number,
  from: Checkpoint,
  to: Checkpoint,
  statements: readonly Statement[],
  options: {
    live: boolean;
    beforeCommit?: (client: pg.PoolClient) => Promise<void> | void;
    commits?: CommitGroup;
  },
): Promise<boolean> {
  const move = { projection: projection.name, generation, from, to, live: options.live, statements };
  if (options.commits && !options.beforeCommit) return options.commits.commit(move);
  return commitAlone(pool, move, options.beforeCommit);
}

/** A process's commit group: the moves ready in the same turn of the event loop share one transaction. */
export function commitGroup(pool: pg.Pool): CommitGroup {
  return new CommitGroup(pool, (move) => commitAlone(pool, move));
}

/** commitCheckpoint for one move in a transaction of its own. */
async function commitAlone(
  pool: pg.Pool,
  { projection, generation, from, to, live, statements }: CheckpointMove,
  beforeCommit?: (client: pg.PoolClient) => Promise<void> | void,
): Promise<boolean> {
  const cas = checkpointCas(projection, generation, from, to, live);
  const options = { beforeCommit };
  if (statements.length === 0 && !options.beforeCommit) {
    // A move past events the projection does not handle changes nothing else: one statement is its transaction.
    try {
      await pool.query(cas.text, [...cas.values]);
      return true;
    } catch (error) {
      if (error instanceof pg.DatabaseError && error.code === CHECKPOINT_MOVED) return false;
      throw error;
    }
  }
  const batch = new StatementBatch();
  batch.add("BEGIN");
  batch.add(cas.text, cas.values);
  for (const { text, values } of statements) batch.add(text, values);
  if (!options.beforeCommit) batch.add("COMMIT");
  const client = await pool.connect();
  // A connection lost mid-batch fails the batch; unheard, its 'error' event would crash the process.
  const ignoreLostConnection = () => {};
  client.on("error", ignoreLostConnection);
  try {
    await batch.send(client);
    if (options.beforeCommit) {
      await options.beforeCommit(client);
      await client.query("COMMIT");
    }
    return true;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    if (error instanceof pg.DatabaseError && error.code === CHECKPOINT_MOVED) return false;
    throw error;
  } finally {
    client.off("error", ignoreLostConnection);
    client.release();
  }
}

/** Moves a checkpoint past events the projection does not handle: one round trip, no read-model change. */
function moveCheckpoint(
  pool: pg.Pool,
  projection: Projection,
  generation: number,
  from: Checkpoint,
  to: Checkpoint,
  commits: CommitGroup | undefined,
): Promise<boolean> {
  return commitCheckpoint(pool, projection, generation, from, to, [], {
    live: true,
    ...(commits ? { commits } : {}),
  });
}

/**
 * Applies a batch read outside any transaction and moves the checkpoint from `from` to its last event, exactly
 * once across crashes and competing instances (see commitCheckpoint). The projection's statements are collected,
 * not sent one by one. Returns the new checkpoint, or null when another instance moved the checkpoint or a rebuild
 * replaced the generation.
 */
async function applyBatch(
  pool: pg.Pool,
  projection: Projection,
  generation: number,
  from: Checkpoint,
  batch: readonly StoredEvent[],
  options: RunnerOptions & { live: boolean },
): Promise<Checkpoint | null> {
  const last = batch.at(-1);
  if (!last) return from;
  const handled = new Set(projection.eventTypes);
  const events = batch.filter((e) => handled.has(e.type));
  const to = { tx: last.transactionId, gp: last.globalPosition };
  const startedAt = Date.now();
  const statements = new StatementBatch();
  if (events.length > 0) await projection.apply(statements, events, tablesOf(projection, generation));
  const hook = options.beforeCommit;
  const moved = await commitCheckpoint(pool, projection, generation, from, to, statements.statements, {
    live: options.live,
    // Rebuilds (not live) commit alone: the group is for the runners of a process following the feed together.
    ...(options.live && options.commits ? { commits: options.commits } : {}),
    ...(hook ? { beforeCommit: (client: pg.PoolClient) => hook(events, client) } : {}),
  });
  if (moved && options.live) projected(projection.name, events, startedAt);
  return moved ? to : null;
}

/**
 * Builds `generation` from its checkpoint up to the newest event of the projection's types committed when it began:
 * a new generation from the start, or one already built kept level with the live one (a replay as traffic goes on).
 * Returns the events applied.
 */
export async function catchUp(
  pool: pg.Pool,
  store: EventStore,
  projection: Projection,
  generation: number,
  options: RunnerOptions = {},
): Promise<number> {
  const checkpoint = async () => {
    const at = await readCheckpoint(pool, projection.name, generation);
    if (!at) throw new Error(`no checkpoint for ${projection.name} generation ${generation}`);
    return at;
  };
  const read = (after: Checkpoint) => {
    const batch = store.readFeed(after, options.batchSize ?? 1000, projection.eventTypes);
    batch.catch(() => {}); // awaited below; a read ahead left behind by a failed batch must not go unhandled
    return batch;
  };
  // Every event of the projection committed before the catch-up began: the feed shows only those older than the
  // oldest transaction still open on the server (any database's), so an empty read may just mean "not yet".
  const { rows } = await pool.query<{ tx: string; gp: string }>(
    `SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events WHERE event_type = ANY($1)
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    [[...projection.eventTypes]],
  );
  const target = rows[0] ? { tx: BigInt(rows[0].tx), gp: BigInt(rows[0].gp) } : null;
  const reached = (at: Checkpoint) => !target || comparePositions(at, target) >= 0;
  let total = 0;
  let from = await checkpoint();
  let next = read(from);
  for (;;) {
    const batch = await next;
    const last = batch.at(-1);
    if (!last) {
      if (reached(from)) return total;
      await sleep(20);
      next = read(from);
      continue;
    }
    // Read the next batch while this one is applied, so reading and applying overlap.
    next = read({ tx: last.transactionId, gp: last.globalPosition });
    const to = await applyBatch(pool, projection, generation, from, batch, { ...options, live: false });
    if (to) {
      total += batch.length;
      from = to;
    } else {
      // Another builder of this generation moved its checkpoint: go on from there.
      from = await checkpoint();
      next = read(from);
    }
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
  /** The loop failed (database gone, a batch refused); it is retried after `retryInMs`. */
  failed: [name: string, error: Error, attempt: number, retryInMs: number];
}

/** What readiness reports of a runner. */
export interface RunnerStatus {
  projection: string;
  leader: boolean;
  /** Set while the loop is failing: the last error, since when, and how many attempts in a row failed. */
  failing: { error: string; since: string; attempts: number } | null;
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
  /** Set when the lock's connection dies: the server has released the lock, so this instance steps down. */
  private lockLost: Error | null = null;
  private readonly onLockLost = (error: Error) => {
    this.lockLost = error;
    this.wake?.();
  };
  private loop: Promise<void> | null = null;
  private readonly stopping = new AbortController();
  private failures = 0;
  private failingSince: Date | null = null;
  /** When the leading loop last came round (read the feed, applied or waited). */
  private progressAt = Date.now();
  generation = 0;
  isLeader = false;
  /** The error of the last failed attempt while the loop is failing; null once it works again. */
  failure: Error | null = null;
  /** The checkpoint this instance last committed or read while leading (null when unknown). */
  committed: Checkpoint | null = null;

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
    this.loop = this.supervise();
  }

  /**
   * Runs the loop until stopped. A failure (the database restarting, a connection killed, a batch the server
   * refused) is logged and retried with backoff, never left to stop the read model silently.
   */
  private async supervise(): Promise<void> {
    const logger = this.options.logger ?? createLogger("error");
    const { min, max } = this.options.retryMs ?? { min: 100, max: 2000 };
    while (!this.stopped) {
      try {
        await this.run();
      } catch (error) {
        if (this.stopped) return;
        this.failure = error instanceof Error ? error : new Error(String(error));
        this.failingSince ??= new Date();
        const attempt = ++this.failures;
        metrics.projectionFailed(this.projection.name);
        const retryInMs = Math.round(Math.min(min * 2 ** (attempt - 1), max) * (1 + Math.random() * 0.2));
        logger.error(
          {
            err: this.failure,
            projection: this.projection.name,
            generation: this.generation,
            attempt,
            retryInMs,
          },
          "projector failed; retrying",
        );
        this.emit("failed", this.projection.name, this.failure, attempt, retryInMs);
        await sleep(retryInMs, undefined, { signal: this.stopping.signal }).catch(() => {});
      }
    }
  }

  /** Called when the loop has made progress again. */
  private recovered(): void {
    this.progressAt = Date.now();
    if (this.failures === 0) return;
    this.options.logger?.info(
      { projection: this.projection.name, attempts: this.failures },
      "projector recovered",
    );
    this.failures = 0;
    this.failure = null;
    this.failingSince = null;
  }

  status(): RunnerStatus {
    const stalledMs = Date.now() - this.progressAt;
    if (this.isLeader && !this.failure && stalledMs > (this.options.stallMs ?? 30_000))
      return {
        projection: this.projection.name,
        leader: true,
        failing: {
          error: `no progress for ${Math.round(stalledMs / 1000)} s`,
          since: new Date(this.progressAt).toISOString(),
          attempts: 0,
        },
      };
    return {
      projection: this.projection.name,
      leader: this.isLeader,
      failing:
        this.failure && this.failingSince
          ? {
              error: this.failure.message,
              since: this.failingSince.toISOString(),
              attempts: this.failures,
            }
          : null,
    };
  }

  private async acquireLock(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      if (this.lockLost) this.stepDown();
      if (!this.lockClient) {
        const client = await this.pool.connect();
        client.on("error", this.onLockLost);
        this.lockClient = client;
      }
      const ok = await this.lockClient
        .query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext($1)) AS ok", [
          lockKey(this.projection.name, "live"),
        ])
        .then(
          ({ rows }) => rows[0]?.ok === true,
          (error: Error) => {
            // The waiting connection died: try again on a new one (a dead server fails `connect` instead).
            this.lockLost ??= error;
            return false;
          },
        );
      if (ok && !this.lockLost) {
        this.isLeader = true;
        this.progressAt = Date.now();
        return;
      }
      await this.sleepUntilWake(this.options.lockRetryMs ?? 500);
    }
  }

  private async ensureGeneration(): Promise<void> {
    this.committed = null;
    const { rows } = await this.pool.query<{ generation: number; code_version: number }>(
      "SELECT generation, code_version FROM read.projections WHERE name = $1",
      [this.projection.name],
    );
    const row = rows[0];
    if (!row) {
      // A process killed between creating generation 1 and putting it in service left it built: reuse it.
      if (!(await readCheckpoint(this.pool, this.projection.name, 1)))
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
      while (!this.stopped) {
        await this.acquireLock();
        if (this.stopped) return;
        await this.ensureGeneration();
        await this.lead();
      }
    } finally {
      unsubscribe?.();
      if (this.lockClient) {
        await this.lockClient
          .query("SELECT pg_advisory_unlock(hashtext($1))", [lockKey(this.projection.name, "live")])
          .catch(() => {});
        this.lockClient.off("error", this.onLockLost);
        this.lockClient.release();
        this.lockClient = null;
      }
      this.isLeader = false;
      this.committed = null;
    }
  }

  /** Applies batches while this instance holds the lock. */
  private async lead(): Promise<void> {
    // `known`: where this instance has read to; `stored`: the checkpoint in the database. They differ only by
    // events this projection does not handle, which move the checkpoint in memory and are stored when the runner
    // goes idle or every STORE_SKIPPED_MS, so a busy feed does not cost every projector a commit per append.
    let known: Checkpoint | null = null;
    let stored: Checkpoint | null = null;
    let storedAt = 0;
    const handled = new Set(this.projection.eventTypes);
    // Set when the last page read was short and nothing lay beyond it held back: until a wake-up says something was
    // appended, the head of the feed is known to be reached without asking the database again.
    let atHead = false;
    while (!this.stopped && !this.lockLost) {
      if (!known || !stored) {
        stored = await readCheckpoint(this.pool, this.projection.name, this.generation);
        known = stored;
        storedAt = Date.now();
      }
      const from = known;
      if (!from || !stored) {
        // A rebuild switched the views to a newer generation and dropped this one with its checkpoint.
        const dropped = this.generation;
        await this.ensureGeneration();
        if (this.generation === dropped)
          throw new Error(`no checkpoint for ${this.projection.name} generation ${dropped}`);
        continue;
      }
      const batchSize = this.options.batchSize ?? 1000;
      const page: FeedPage =
        atHead && !this.dirty
          ? { events: [], pending: false }
          : this.options.feed
            ? await this.options.feed.read(from, batchSize)
            : {
                events: await this.store.readFeed(from, batchSize, this.projection.eventTypes),
                pending: null,
              };
      const batch = page.events;
      atHead = page.pending === false && batch.length < batchSize;
      const last = batch.at(-1);
      if (!last) {
        if (comparePositions(stored, from) !== 0) {
          if (
            !(await moveCheckpoint(
              this.pool,
              this.projection,
              this.generation,
              stored,
              from,
              this.options.commits,
            ))
          ) {
            known = null;
            atHead = false;
            this.committed = null;
            await this.ensureGeneration();
            continue;
          }
          stored = from;
          storedAt = Date.now();
        }
        this.committed = from;
        this.recovered();
        // Events held back only by a transaction still running (often another projector's batch) become
        // readable within milliseconds and no append will announce them: look again shortly.
        const pending = page.pending ?? (await (this.options.feed ?? this.store).hasPendingAfter(from));
        // Whatever wakes this runner (an append, the poll) may have added events: the next round reads.
        atHead = false;
        await this.sleepUntilWake(pending ? PENDING_RETRY_MS : (this.options.pollMs ?? 250));
        continue;
      }
      const to = { tx: last.transactionId, gp: last.globalPosition };
      const skippable =
        !this.options.beforeCommit &&
        !batch.some((e) => handled.has(e.type)) &&
        Date.now() - storedAt < STORE_SKIPPED_MS;
      if (skippable) {
        known = to;
        this.committed = to;
        this.emit("advanced", this.projection.name, to);
        continue;
      }
      const applied = await applyBatch(this.pool, this.projection, this.generation, stored, batch, {
        ...this.options,
        live: true,
      });
      if (applied) {
        known = applied;
        stored = applied;
        storedAt = Date.now();
        this.committed = applied;
        this.recovered();
        this.emit("advanced", this.projection.name, applied);
      } else {
        known = null;
        atHead = false;
        this.committed = null;
        await this.ensureGeneration();
      }
    }
  }

  /** Another instance may lead now; the checkpoint's compare-and-set lets only one of them apply any batch. */
  private stepDown(): void {
    this.committed = null;
    this.lockClient?.off("error", this.onLockLost);
    this.lockClient?.release(this.lockLost ?? undefined);
    this.lockClient = null;
    this.lockLost = null;
    this.isLeader = false;
  }

  private async sleepUntilWake(ms: number): Promise<void> {
    // A stop that came while a read or a batch was in flight found nothing to wake: no sleep after it.
    if (this.stopped) return;
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
    this.stopping.abort();
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
      ORDER BY c.last_tx, c.last_gp`,
    [names],
  );
  // A read model that has never been built has passed nothing, whatever the others reached.
  const row = rows[0];
  return row && rows.length >= new Set(names).size ? { tx: BigInt(row.tx), gp: BigInt(row.gp) } : null;
}
