import {
  Logger as GraphileLogger,
  type JobHelpers,
  makeWorkerUtils,
  parseCronItems,
  type Runner,
  run,
  type Task,
  type WorkerUtils,
} from "graphile-worker";
import type pg from "pg";
import { z } from "zod";
import type { Logger } from "../logger.ts";
import { metrics } from "../telemetry/metrics.ts";
import { watchWorkerLiveness } from "./dead-workers.ts";

/**
 * Background jobs on PostgreSQL through graphile-worker (schema `graphile_worker`, migrated by the library itself).
 * A job is sent once and runs once, in whichever runner takes it first (`FOR UPDATE SKIP LOCKED`), however many
 * processes run one; a failure is retried with the library's exponential backoff: e^attempt seconds (3 s, 7 s,
 * 20 s, 55 s, 2.5 min ... capped at 6 h).
 */

/** What a job is, by name: its payload schema, how often it is tried, and its schedule if it runs periodically. */
export interface JobSpec {
  payload: z.ZodType;
  /** Runs before giving up for good (default 10: about 3.5 hours of retries). */
  maxAttempts?: number;
  /**
   * A cron line (minute resolution): the job also runs on this schedule, once per tick across all processes. Its
   * job key is the job's name: a send with that key joins the pending run instead of adding another.
   */
  cron?: string;
}

export type JobSpecs = Record<string, JobSpec>;

export interface JobContext {
  /** The trace id of whatever sent the job (a request, another job), or `job-<id>` for scheduled runs. */
  traceId: string;
  jobId: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  logger: Logger;
}

export type JobHandler<Deps, Schema extends z.ZodType> = (
  payload: z.output<Schema>,
  deps: Deps,
  job: JobContext,
) => Promise<unknown>;

/** One handler for each job of the specs: a job cannot be sent that nobody runs. */
export type JobHandlers<Deps, S extends JobSpecs> = { [N in keyof S]: JobHandler<Deps, S[N]["payload"]> };

/**
 * A handler's way of saying "not yet, ask again later" (e.g. a supplier still confirming): the job is retried with
 * the same backoff as a failure, but logged at info, since nothing went wrong.
 */
export class RetryLater extends Error {
  override readonly name = "RetryLater";
}

export interface SendOptions {
  /** Not before this time. */
  runAt?: Date;
  /** Not before this many milliseconds from now, by the database's clock (the one the queue runs on). */
  delayMs?: number;
  /**
   * At most one pending job per key: `unsafe_dedupe` keeps an existing job as it is (even one that failed for
   * good), `preserve_run_at` updates it but keeps its time, `replace` (the default) updates it all.
   */
  jobKey?: string;
  jobKeyMode?: "replace" | "preserve_run_at" | "unsafe_dedupe";
  maxAttempts?: number;
  /** Carried into the job's log lines and the events it appends. */
  traceId?: string;
}

/** A job to queue, as `app.add_job_spec(jsonb)` reads it (JobQueue.spec). */
export interface QueuedJobSpec {
  identifier: string;
  payload: { trace_id: string | undefined; data: unknown };
  run_at: string | null;
  delay_ms: number | null;
  max_attempts: number;
  job_key: string | null;
  job_key_mode: string | null;
}

/** What a job row carries: the payload and the sender's trace id. Scheduled (cron) runs carry neither. */
const Envelope = z.object({ trace_id: z.string().optional(), data: z.unknown().optional() });

const DEFAULT_MAX_ATTEMPTS = 10;

/** Sends jobs: validates the payload with its schema before it is queued. */
export class JobQueue<S extends JobSpecs> {
  private constructor(
    private readonly utils: WorkerUtils,
    private readonly specs: S,
  ) {}

  /** Migrates the library's schema (idempotent, under its own lock) and returns a queue on the app's pool. */
  static async open<S extends JobSpecs>(pool: pg.Pool, specs: S): Promise<JobQueue<S>> {
    const utils = await makeWorkerUtils({ pgPool: pool, logger: silentLogger });
    await utils.migrate();
    return new JobQueue(utils, specs);
  }

  /** A job as queued: its payload checked against its spec, when it runs, how often it may be tried. */
  private prepare<N extends keyof S & string>(
    name: N,
    payload: z.input<S[N]["payload"]>,
    options: SendOptions,
  ) {
    const spec = this.specs[name];
    if (!spec) throw new Error(`unknown job ${name}`);
    return {
      payload: { trace_id: options.traceId, data: spec.payload.parse(payload) },
      runAt: options.runAt,
      delayMs: options.runAt ? undefined : options.delayMs,
      maxAttempts: options.maxAttempts ?? spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      jobKey: options.jobKey,
      jobKeyMode: options.jobKey ? options.jobKeyMode : undefined,
    };
  }

  /**
   * A job as `app.add_job_spec` (migration 085) queues it: the same payload check, trace id, attempts and timing as
   * sendIn, as one value a single statement can claim something and queue its job with (issue 26).
   */
  spec<N extends keyof S & string>(
    name: N,
    payload: z.input<S[N]["payload"]>,
    options: SendOptions = {},
  ): QueuedJobSpec {
    const job = this.prepare(name, payload, options);
    return {
      identifier: name,
      payload: job.payload,
      run_at: job.runAt?.toISOString() ?? null,
      delay_ms: job.delayMs ?? null,
      max_attempts: job.maxAttempts,
      job_key: job.jobKey ?? null,
      job_key_mode: job.jobKeyMode ?? null,
    };
  }

  /** Queues a job; returns its id. */
  async send<N extends keyof S & string>(
    name: N,
    payload: z.input<S[N]["payload"]>,
    options: SendOptions = {},
  ): Promise<string> {
    return this.utils.withPgClient((client) => this.sendIn(client as pg.ClientBase, name, payload, options));
  }

  /**
   * Queues a job on `client`, inside the caller's transaction: it exists if and only if that transaction commits
   * (what the caller writes beside it and the job cannot be parted by a crash). Returns its id. A delay is added to
   * the database's clock, which the queue compares run times with: computed on this process's clock, a delay
   * would be hours early or late when the two disagree (issue 29).
   */
  async sendIn<N extends keyof S & string>(
    client: pg.ClientBase,
    name: N,
    payload: z.input<S[N]["payload"]>,
    options: SendOptions = {},
  ): Promise<string> {
    const job = this.prepare(name, payload, options);
    const { rows } = await client.query<{ id: string }>(
      `SELECT id::text FROM graphile_worker.add_job(identifier => $1::text, payload => $2::json,
         run_at => coalesce($3::timestamptz, now() + $7::double precision * interval '1 millisecond'),
         max_attempts => $4::int, job_key => $5::text, job_key_mode => $6::text)`,
      [
        name,
        JSON.stringify(job.payload),
        job.runAt?.toISOString() ?? null,
        job.maxAttempts,
        job.jobKey ?? null,
        job.jobKeyMode ?? null,
        job.delayMs ?? null,
      ],
    );
    return rows[0]?.id ?? "";
  }

  async close(): Promise<void> {
    await this.utils.release();
  }
}

export interface JobRunnerOptions<Deps, S extends JobSpecs> {
  pool: pg.Pool;
  specs: S;
  handlers: JobHandlers<Deps, S>;
  deps: Deps;
  logger: Logger;
  /** Jobs this process runs at once (default 4: a slow supplier call does not hold up a sign-in mail). */
  concurrency?: number;
  /** How often jobs due later (retries, delayed sends) are looked for; new jobs come at once by LISTEN/NOTIFY. */
  pollIntervalMs?: number;
}

export interface JobRunner {
  stop(): Promise<void>;
}

/** Connection errors of a server restarting: refused on TCP, socket file gone (ENOENT) on a Unix socket. */
const RESTARTING = new Set(["ECONNREFUSED", "ENOENT", "57P03"]);

/**
 * The pool as the job runner sees it: a connection attempt that fails because the server is restarting is tried
 * again (backoff 100 ms to 2 s, for up to `withinMs`), as graphile-worker's own retries (e.g. recording a job's
 * failure) cover neither a refused connection nor a vanished socket. The callback form (its LISTEN connection,
 * which reconnects by itself) passes through unchanged.
 */
export function connectingThroughRestarts(pool: pg.Pool, withinMs = 60_000): pg.Pool {
  const connect = async (): Promise<pg.PoolClient> => {
    const deadline = Date.now() + withinMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await pool.connect();
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code !== "string" || !RESTARTING.has(code) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
      }
    }
  };
  return new Proxy(pool, {
    get(target, property) {
      if (property === "connect")
        return (...args: unknown[]) =>
          args.length > 0 ? (target.connect as (...a: unknown[]) => unknown)(...args) : connect();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Runs every job of the registry in this process, beside any other runner on the same database. */
export async function startJobRunner<Deps, S extends JobSpecs>(
  options: JobRunnerOptions<Deps, S>,
): Promise<JobRunner> {
  const { handlers, specs, deps, logger } = options;
  const taskList: Record<string, Task> = {};
  for (const [name, spec] of Object.entries(specs))
    taskList[name] = jobTask(name, spec.payload, handlers[name as keyof S], deps, logger);
  const pgPool = connectingThroughRestarts(options.pool);
  // Jobs a killed process held run again now, not after the library's four hours (dead-workers.ts).
  const liveness = await watchWorkerLiveness(options.pool, logger);
  await liveness.recover();
  const start = () =>
    run({
      pgPool,
      events: liveness.events,
      taskList,
      concurrency: options.concurrency ?? 4,
      pollInterval: options.pollIntervalMs ?? 1000,
      noHandleSignals: true,
      logger: graphileLogger(logger),
      // Unbatched (the library's default), a job's completion or failure is written by a promise nobody awaits: the
      // database restarting at that moment rejected it unhandled and ended the process. Batched (at once: 0 ms), a
      // write that fails after its retries stops the runner instead, and the supervisor below starts it again.
      // Jobs are fetched (and locked) by the runner for its workers, a few at a time (the library's local queue):
      // each worker fetched its own, and every new job's NOTIFY sent each idle worker to ask, most of them for
      // nothing (issue 26: 1.6 fetches a booking flow for about 0.8 jobs). Jobs fetched but not begun are returned
      // after the library's TTL; a dead process's are unlocked like its workers' (dead-workers.ts records the pool).
      preset: {
        worker: {
          completeJobBatchDelay: 0,
          failJobBatchDelay: 0,
          localQueue: { size: (options.concurrency ?? 4) + 1 },
        },
      },
    });
  let stopped = false;
  let runner: Runner = await start();
  // The library's runner ends (its promise rejects) when it cannot reach the database for a while, e.g. a
  // PostgreSQL restart: unheard, that would crash the process. It is logged and started again with backoff.
  const supervise = (ended: Promise<unknown>, attempt: number): void => {
    ended.then(
      () => {},
      async (error: unknown) => {
        if (stopped) return;
        const retryInMs = Math.min(5000, 250 * 2 ** attempt);
        logger.error({ err: error, retryInMs }, "job runner stopped; starting it again");
        await new Promise((resolve) => setTimeout(resolve, retryInMs));
        if (stopped) return;
        try {
          runner = await start();
          supervise(runner.promise, 0);
        } catch (restartError) {
          supervise(Promise.reject(restartError), attempt + 1);
        }
      },
    );
  };
  supervise(runner.promise, 0);
  const schedule = scheduleOnDatabaseClock(options.pool, specs, logger);
  return {
    stop: async () => {
      stopped = true;
      await schedule.stop();
      // A runner that ended on its own has nothing left to stop.
      await runner.stop().catch(() => {});
      await liveness.stop();
    },
  };
}

/**
 * The jobs with a cron line, queued once a minute across every process, on the database's clock: the minute is the
 * database's, matched against each line, and a job runs at most once per minute however many processes tick
 * (app.job_schedule keeps each job's last minute). graphile-worker's own cron reads this process's clock, so an app
 * clock behind the database's never queued them (its last minute already lay ahead) and one ahead queued them
 * hours late (issue 29). Each tick waits for the next minute by the database's clock (durations do not depend on
 * whose clock is right).
 */
function scheduleOnDatabaseClock(pool: pg.Pool, specs: JobSpecs, logger: Logger): { stop(): Promise<void> } {
  const items = parseCronItems(
    Object.entries(specs).flatMap(([name, { cron }]) =>
      cron ? [{ task: name, match: cron, identifier: name }] : [],
    ),
  );
  const maxAttempts = (name: string) => specs[name]?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let ticking: Promise<void> = Promise.resolve();
  const tick = async (): Promise<number> => {
    const { rows } = await pool.query<{ minute: Date; into_minute_ms: number }>(
      "SELECT date_trunc('minute', now()) AS minute, extract(epoch FROM now() - date_trunc('minute', now())) * 1000 AS into_minute_ms",
    );
    const { minute, into_minute_ms } = rows[0] as { minute: Date; into_minute_ms: number };
    const digest = {
      min: minute.getUTCMinutes(),
      hour: minute.getUTCHours(),
      date: minute.getUTCDate(),
      month: minute.getUTCMonth() + 1,
      dow: minute.getUTCDay(),
    };
    const due = items.filter((item) => item.match(digest)).map((item) => item.task);
    if (due.length > 0)
      // A pending run (sent on demand, or retrying) is joined rather than doubled: the job's name is its key.
      await pool.query(
        `WITH due AS (
           INSERT INTO app.job_schedule AS s (identifier, last_minute)
           SELECT identifier, $2::timestamptz FROM unnest($1::text[]) AS identifier
           ON CONFLICT (identifier) DO UPDATE SET last_minute = excluded.last_minute
             WHERE s.last_minute < excluded.last_minute
           RETURNING identifier)
         SELECT graphile_worker.add_job(identifier => due.identifier, payload => '{}'::json,
           max_attempts => attempts.max_attempts, job_key => due.identifier, job_key_mode => 'preserve_run_at')
           FROM due JOIN unnest($1::text[], $3::int[]) AS attempts (identifier, max_attempts) USING (identifier)`,
        [due, minute.toISOString(), due.map(maxAttempts)],
      );
    return 60_000 - Number(into_minute_ms);
  };
  const loop = () => {
    if (stopped) return;
    ticking = tick().then(
      (untilNextMinuteMs) => {
        // A few milliseconds into the next minute, so the database's clock has reached it.
        if (!stopped) timer = setTimeout(loop, untilNextMinuteMs + 20);
      },
      (error: unknown) => {
        logger.error({ err: error }, "scheduling the periodic jobs failed; trying again in 5 s");
        if (!stopped) timer = setTimeout(loop, 5000);
      },
    );
  };
  loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
    },
  };
}

function jobTask<Deps>(
  name: string,
  schema: z.ZodType,
  handler: JobHandler<Deps, z.ZodType>,
  deps: Deps,
  logger: Logger,
): Task {
  return async (raw: unknown, helpers: JobHelpers) => {
    const { job } = helpers;
    const envelope = Envelope.safeParse(raw);
    const traceId = (envelope.success && envelope.data.trace_id) || `job-${job.id}`;
    const context: JobContext = {
      traceId,
      jobId: job.id,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      logger: logger.child({ job: name, jobId: job.id, attempt: job.attempts, traceId }),
    };
    const started = metrics.start();
    try {
      const payload = schema.parse(envelope.success ? (envelope.data.data ?? {}) : raw);
      await handler(payload, deps, context);
      metrics.jobRan(name, started, "ok");
    } catch (error) {
      const final = job.attempts >= job.max_attempts;
      metrics.jobRan(
        name,
        started,
        final ? "failed_final" : error instanceof RetryLater ? "retry_later" : "failed",
      );
      // What the library will wait before the next attempt (its failJob: e^min(attempts, 10) seconds).
      const retryInSeconds = final ? null : Math.round(Math.exp(Math.min(job.attempts, 10)));
      const fields = { err: error, final, retryInSeconds, maxAttempts: job.max_attempts };
      if (error instanceof RetryLater && !final)
        context.logger.info(fields, `job ${name}: ${error.message}; asking again in ${retryInSeconds} s`);
      else if (final)
        context.logger.error(fields, `job ${name} failed for good after ${job.attempts} attempts`);
      else context.logger.error(fields, `job ${name} failed; retrying in ${retryInSeconds} s`);
      throw error;
    }
  };
}

const silentLogger = new GraphileLogger(() => () => {});

/**
 * The library's own log lines through our logger. Its line for a failed job is left at debug: the job's wrapper
 * logs that failure itself, with the trace id.
 */
function graphileLogger(logger: Logger): GraphileLogger {
  const log = logger.child({ component: "jobs" });
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields = { scope };
    if (meta?.failure) log.debug(fields, message);
    else if (level === "error") log.error({ ...fields, err: meta?.error }, message);
    else if (level === "warning") log.warn(fields, message);
    else if (level === "info") log.info(fields, message);
    else log.debug(fields, message);
  });
}
