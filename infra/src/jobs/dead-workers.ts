import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { WorkerEvents } from "graphile-worker";
import type pg from "pg";
import type { Logger } from "../logger.ts";

/**
 * Jobs held by a process that died (kill -9, a crash) run again at once (issue 26). graphile-worker locks a job
 * for the worker (or worker pool) that runs it and frees the lock of a worker that vanished only after four hours, so a mail whose
 * process was killed mid-send would wait that long. Here each runner's process holds a session advisory lock on its
 * instance for as long as it lives and records its workers (app.job_workers, migration 100); every runner, when it
 * starts and then every `everyMs`, takes the lock of each other instance it finds recorded: one it obtains belongs to a
 * dead process, whose workers' jobs are unlocked (graphile_worker.force_unlock_workers) and run again (each job's
 * attempt counts as tried). A worker that took a job before its record committed (the first milliseconds of a
 * process) is not known: such a job keeps the library's four-hour expiry.
 */
export interface WorkerLiveness {
  /** The runner's events (pass them to graphile-worker's `run`): each new worker is recorded under this process. */
  events: WorkerEvents;
  /** Unlocks the jobs of dead processes' workers now; answers how many jobs were unlocked. */
  recover(): Promise<number>;
  stop(): Promise<void>;
}

/** Two-key advisory locks (namespace, instance): a key space of their own, apart from the one-key locks. */
/** The advisory locks' namespace (hashed by PostgreSQL, sent as a parameter). */
const NAMESPACE = "skyward.job-workers";

export async function watchWorkerLiveness(
  pool: pg.Pool,
  logger: Logger,
  options: { everyMs?: number } = {},
): Promise<WorkerLiveness> {
  const instance = randomUUID();
  // One connection held for the process's life: its advisory lock says the process lives.
  let holder: pg.PoolClient | null = null;
  let stopped = false;
  const hold = async (): Promise<void> => {
    const client = await pool.connect();
    client.on("error", () => {
      // The server restarted: the lock went with the connection; take it again on a new one.
      client.release(true);
      if (holder === client) holder = null;
      if (!stopped)
        setTimeout(
          () =>
            void hold().catch((error: unknown) =>
              logger.error({ err: error }, "taking the job workers' liveness lock again failed"),
            ),
          500,
        );
    });
    await client.query("SELECT pg_advisory_lock(hashtext($1), hashtext($2))", [NAMESPACE, instance]);
    holder = client;
  };
  await hold();
  const recorded: Promise<unknown>[] = [];
  const events: WorkerEvents = new EventEmitter() as WorkerEvents;
  // The library locks a job for its worker pool (batched fetching) or its worker: both are recorded.
  const record = (workerId: string) =>
    recorded.push(
      pool
        .query(
          "INSERT INTO app.job_workers (worker_id, instance) VALUES ($1, $2) ON CONFLICT (worker_id) DO NOTHING",
          [workerId, instance],
        )
        .catch((error: unknown) => logger.error({ err: error }, "recording a job worker failed")),
    );
  events.on("pool:create", ({ workerPool }) => record(workerPool.id));
  events.on("worker:create", ({ worker }) => record(worker.workerId));

  const recover = async (): Promise<number> => {
    const { rows } = await pool.query<{ instance: string; workers: string[] }>(
      `SELECT instance, array_agg(worker_id) AS workers FROM app.job_workers
        WHERE instance <> $1 GROUP BY instance`,
      [instance],
    );
    let unlocked = 0;
    for (const dead of rows) {
      // On a connection of its own: a lock obtained means no live session holds it, i.e. its process is gone.
      const client = await pool.connect();
      try {
        const { rows: taken } = await client.query<{ ok: boolean }>(
          "SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok",
          [NAMESPACE, dead.instance],
        );
        if (!taken[0]?.ok) continue;
        try {
          const { rows: held } = await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE locked_by = ANY($1::text[])",
            [dead.workers],
          );
          await client.query("SELECT graphile_worker.force_unlock_workers($1::text[])", [dead.workers]);
          await client.query("DELETE FROM app.job_workers WHERE instance = $1", [dead.instance]);
          const n = held[0]?.n ?? 0;
          unlocked += n;
          if (n > 0)
            logger.warn(
              { instance: dead.instance, jobs: n },
              "jobs held by a process that died unlocked; they run again",
            );
        } finally {
          await client.query("SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", [
            NAMESPACE,
            dead.instance,
          ]);
        }
      } finally {
        client.release();
      }
    }
    return unlocked;
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const loop = () => {
    running = recover()
      .catch((error: unknown) => logger.error({ err: error }, "unlocking dead processes' jobs failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, options.everyMs ?? 15_000);
      });
  };
  timer = setTimeout(loop, options.everyMs ?? 15_000);
  return {
    events,
    recover,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await Promise.all(recorded);
      await pool
        .query("DELETE FROM app.job_workers WHERE instance = $1", [instance])
        .catch((error: unknown) =>
          logger.warn({ err: error }, "removing this process's job worker record failed"),
        );
      // Destroyed rather than returned to the pool, so the lock goes with it.
      holder?.release(true);
      holder = null;
    },
  };
}
