import { timingSafeEqual } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type pg from "pg";
import client from "prom-client";

/**
 * The process's Prometheus metrics (issue 30), behind this one module: every instrumentation point is one call of
 * `metrics.*`, and `/metrics` answers the registry in the text format. Labels carry names from closed sets (route
 * templates, command routes, error codes, job and projection names, supplier calls), never an id, an e-mail or
 * anything a client typed.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: "skyward_" });

const LATENCY = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const httpDuration = new client.Histogram({
  name: "skyward_http_request_duration_seconds",
  help: "HTTP requests by route template, method and status, with their latency",
  labelNames: ["route", "method", "status"] as const,
  buckets: LATENCY,
  registers: [registry],
});
const commands = new client.Counter({
  name: "skyward_commands_total",
  help: "Commands (state-changing requests) by command route and outcome: accepted, refused (with its code), conflict, error",
  labelNames: ["command", "outcome", "code"] as const,
  registers: [registry],
});
const appendDuration = new client.Histogram({
  name: "skyward_event_store_append_duration_seconds",
  help: "Event-store appends and their latency, by outcome (ok, conflict, error)",
  labelNames: ["outcome"] as const,
  buckets: LATENCY,
  registers: [registry],
});
const appendEvents = new client.Histogram({
  name: "skyward_event_store_append_events",
  help: "Events written per successful append",
  buckets: [1, 2, 3, 5, 10, 20, 50, 100, 1000],
  registers: [registry],
});
const versionConflicts = new client.Counter({
  name: "skyward_event_store_version_conflicts_total",
  help: "Appends refused because a stream moved past the version the command read",
  registers: [registry],
});
const projectionFailures = new client.Counter({
  name: "skyward_projection_failures_total",
  help: "Failed attempts of a projector's loop (it retries)",
  labelNames: ["projection"] as const,
  registers: [registry],
});
const jobRuns = new client.Counter({
  name: "skyward_job_runs_total",
  help: "Background job runs by job and outcome (ok, retry_later, failed, failed_final)",
  labelNames: ["job", "outcome"] as const,
  registers: [registry],
});
const jobDuration = new client.Histogram({
  name: "skyward_job_run_duration_seconds",
  help: "Background job run latency by job",
  labelNames: ["job"] as const,
  buckets: LATENCY,
  registers: [registry],
});
const supplierDuration = new client.Histogram({
  name: "skyward_supplier_call_duration_seconds",
  help: "Supplier calls by operation and outcome (ok, refused, timeout, error), with their latency",
  labelNames: ["operation", "outcome"] as const,
  buckets: LATENCY,
  registers: [registry],
});
const turnWait = new client.Histogram({
  name: "skyward_turn_wait_seconds",
  help: "How long commands waited for their turn at a contended stream (a company balance they charge)",
  buckets: LATENCY,
  registers: [registry],
});
const signInFailures = new client.Counter({
  name: "skyward_sign_in_failures_total",
  help: "Failed sign-ins by method and reason",
  labelNames: ["method", "reason"] as const,
  registers: [registry],
});
const rateLimitRefusals = new client.Counter({
  name: "skyward_rate_limit_refusals_total",
  help: "Requests refused by a rate limit (429), by error code",
  labelNames: ["code"] as const,
  registers: [registry],
});

/** What the scrape-time gauges read: the pools, projectors and tables of the apps running in this process. */
export interface ProcessSources {
  pool: pg.Pool;
  /** The projectors this process runs: their name and the feed position they have committed. */
  projectors?: () => readonly { name: string; position: { tx: bigint; gp: bigint } | null }[];
  /** Whether this process runs jobs and commands (queue depth and open operations are read from the database). */
  commands?: boolean;
}
const sources = new Set<ProcessSources>();

/** Takes the gauges' figures from `source` until the returned function is called (the app stops). */
export function observeProcess(source: ProcessSources): () => void {
  sources.add(source);
  return () => {
    sources.delete(source);
  };
}

function gauge(
  name: string,
  help: string,
  labelNames: string[],
  collect: (g: client.Gauge) => Promise<void>,
) {
  return new client.Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      // A figure the database cannot give now (it is down) is left out of this scrape; skyward_db_up says why.
      await collect(this).catch(() => {});
    },
  });
}

gauge("skyward_db_pool_connections_in_use", "PostgreSQL pool connections checked out", [], async (g) => {
  let n = 0;
  for (const s of sources) n += s.pool.totalCount - s.pool.idleCount;
  g.set(n);
});
gauge("skyward_db_pool_waiting", "Requests waiting for a PostgreSQL pool connection", [], async (g) => {
  let n = 0;
  for (const s of sources) n += s.pool.waitingCount;
  g.set(n);
});
gauge("skyward_db_up", "1 when the database answered this scrape's queries, 0 when not", [], async (g) => {
  let up = 1;
  for (const s of sources) {
    const ok = await s.pool
      .query("SELECT 1")
      .then(() => true)
      .catch(() => false);
    if (!ok) up = 0;
  }
  g.set(sources.size === 0 ? 0 : up);
});

/** The most events a lag figure counts (a constant, not input). */
const LAG_COUNT_CAP = 1_000_000;

interface Lag {
  events: number;
  seconds: number;
}
/**
 * How far a feed position is behind the head: the events after it (counted up to LAG_COUNT_CAP) and the age of the
 * first of them. Both walk the feed's index in its order, under a generic plan too (the pool prepares every statement
 * with parameters, db.ts; feed-plans.test.ts): a rebuild far behind costs no full scan.
 */
export async function projectorLag(pool: pg.Pool, position: { tx: bigint; gp: bigint } | null): Promise<Lag> {
  const { rows } = await pool.query<{ events: string; seconds: number | null }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM es.events
               WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
               ORDER BY transaction_id, global_position LIMIT ${LAG_COUNT_CAP}) behind)::text AS events,
            (SELECT extract(epoch FROM clock_timestamp() - recorded_at)::float8 FROM es.events
              WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
              ORDER BY transaction_id, global_position LIMIT 1) AS seconds`,
    [String(position?.tx ?? 0n), String(position?.gp ?? 0n)],
  );
  return { events: Number(rows[0]?.events ?? 0), seconds: Math.max(0, rows[0]?.seconds ?? 0) };
}

/** How far each projector's position is behind the feed's head. */
async function lagsOf(source: ProcessSources): Promise<Map<string, { position: number } & Lag>> {
  const lags = new Map<string, { position: number } & Lag>();
  for (const p of source.projectors?.() ?? [])
    lags.set(p.name, {
      position: Number(p.position?.gp ?? 0n),
      ...(await projectorLag(source.pool, p.position)),
    });
  return lags;
}
let lagScrape: { at: number; value: Promise<Map<string, { position: number } & Lag>> } | null = null;
/** The three projection gauges share one round of queries per scrape. */
function projectionLags(): Promise<Map<string, { position: number } & Lag>> {
  if (lagScrape && Date.now() - lagScrape.at < 500) return lagScrape.value;
  const value = (async () => {
    const all = new Map<string, { position: number } & Lag>();
    for (const s of sources) for (const [name, lag] of await lagsOf(s)) all.set(name, lag);
    return all;
  })();
  lagScrape = { at: Date.now(), value };
  return value;
}
gauge(
  "skyward_projection_position",
  "The feed position (global) each projector has committed",
  ["projection"],
  async (g) => {
    for (const [name, lag] of await projectionLags()) g.set({ projection: name }, lag.position);
  },
);
gauge(
  "skyward_projection_lag_events",
  "Events in the feed after each projector's position",
  ["projection"],
  async (g) => {
    for (const [name, lag] of await projectionLags()) g.set({ projection: name }, lag.events);
  },
);
gauge(
  "skyward_projection_lag_seconds",
  "Age of the oldest event each projector has not passed yet (0 when caught up)",
  ["projection"],
  async (g) => {
    for (const [name, lag] of await projectionLags()) g.set({ projection: name }, lag.seconds);
  },
);
gauge(
  "skyward_job_queue_depth",
  "Background jobs waiting to run (due or scheduled), by job",
  ["job"],
  async (g) => {
    for (const s of sources) {
      if (!s.commands) continue;
      const { rows } = await s.pool.query<{ job: string; n: number }>(
        `SELECT task_identifier AS job, count(*)::int AS n FROM graphile_worker.jobs
        WHERE locked_at IS NULL AND attempts < max_attempts GROUP BY task_identifier`,
      );
      for (const row of rows) g.inc({ job: row.job }, row.n);
    }
  },
);
gauge(
  "skyward_supplier_operations_open",
  "Supplier operations started and not yet recorded",
  [],
  async (g) => {
    g.set((await openOperations()).open);
  },
);
gauge(
  "skyward_supplier_operation_oldest_age_seconds",
  "Age of the oldest supplier operation still open (0 when none)",
  [],
  async (g) => {
    g.set((await openOperations()).oldest);
  },
);
let operationsScrape: { at: number; value: Promise<{ open: number; oldest: number }> } | null = null;
function openOperations(): Promise<{ open: number; oldest: number }> {
  if (operationsScrape && Date.now() - operationsScrape.at < 500) return operationsScrape.value;
  const value = (async () => {
    for (const s of sources) {
      if (!s.commands) continue;
      const { rows } = await s.pool.query<{ open: number; oldest: number | null }>(
        `SELECT count(*)::int AS open, extract(epoch FROM now() - min(operation_started_at))::float8 AS oldest
           FROM read.bookings WHERE operation_id IS NOT NULL`,
      );
      return { open: rows[0]?.open ?? 0, oldest: Math.max(0, rows[0]?.oldest ?? 0) };
    }
    return { open: 0, oldest: 0 };
  })();
  operationsScrape = { at: Date.now(), value };
  return value;
}

const SAFE = /^[A-Za-z0-9_:./-]{1,64}$/;
/** A label value from a closed set; anything else (it should never happen) is folded into "other". */
const safe = (value: string) => (SAFE.test(value) ? value : "other");
const seconds = (startedAt: bigint) => Number(process.hrtime.bigint() - startedAt) / 1e9;
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The template of the route that answered (`/bookings/:locator`), never the path with its ids. */
function routeOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== "string") return "unmatched";
  return `${req.baseUrl}${path}` || "/";
}

function outcomeOf(status: number, code: string | undefined): { outcome: string; code: string } {
  if (status < 400) return { outcome: "accepted", code: "" };
  if (status === 409) return { outcome: "conflict", code: safe(code ?? "conflict") };
  if (status >= 500) return { outcome: "error", code: safe(code ?? "internal") };
  return { outcome: "refused", code: safe(code ?? String(status)) };
}

/** Where an answered error's code is kept for the request metrics (errorHandler sets it). */
export const ERROR_CODE = "skywardErrorCode";

let enabled = true;
/** METRICS_ENABLED=false (the benchmark's baseline): every call below returns at once and /metrics is not served. */
export function setMetricsEnabled(on: boolean): void {
  enabled = on;
}

export const metrics = {
  /** Times every request (route template, method, status); a state-changing one also counts as a command. */
  http(req: Request, res: Response, next: NextFunction): void {
    if (!enabled) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const route = routeOf(req);
      const method = READS.has(req.method) || SAFE.test(req.method) ? req.method : "other";
      httpDuration.observe({ route, method, status: String(res.statusCode) }, seconds(started));
      if (route !== "unmatched" && !READS.has(req.method))
        commands.inc({
          command: `${method} ${route}`,
          ...outcomeOf(res.statusCode, res.locals[ERROR_CODE] as string | undefined),
        });
    });
    next();
  },
  /** One append: its outcome and latency; the events it wrote. */
  appended(startedAt: bigint, outcome: "ok" | "conflict" | "error", events: number): void {
    if (!enabled) return;
    appendDuration.observe({ outcome }, seconds(startedAt));
    if (outcome === "ok") appendEvents.observe(events);
    if (outcome === "conflict") versionConflicts.inc();
  },
  projectionFailed(projection: string): void {
    if (!enabled) return;
    projectionFailures.inc({ projection: safe(projection) });
  },
  jobRan(job: string, startedAt: bigint, outcome: "ok" | "retry_later" | "failed" | "failed_final"): void {
    if (!enabled) return;
    jobRuns.inc({ job: safe(job), outcome });
    jobDuration.observe({ job: safe(job) }, seconds(startedAt));
  },
  supplierCalled(
    operation: string,
    startedAt: bigint,
    outcome: "ok" | "refused" | "timeout" | "error",
  ): void {
    if (!enabled) return;
    supplierDuration.observe({ operation: safe(operation), outcome }, seconds(startedAt));
  },
  /** A command's turn at a contended stream (StreamLocks) began: how long it waited for it. */
  turnTaken(startedAt: bigint): void {
    if (!enabled) return;
    turnWait.observe(seconds(startedAt));
  },
  signInFailed(method: string, reason: string): void {
    if (!enabled) return;
    signInFailures.inc({ method: safe(method), reason: safe(reason) });
  },
  rateLimited(code: string): void {
    if (!enabled) return;
    rateLimitRefusals.inc({ code: safe(code) });
  },
  /** Now, for the `startedAt` of the calls above. */
  start: (): bigint => process.hrtime.bigint(),
};

/**
 * `GET /metrics`. Outside production it is open (a developer's own machine); with `token` set it asks for
 * `Authorization: Bearer <token>`, and in production without a token it is refused (404): the figures are served
 * only to a scraper that was given the token (README, operations).
 */
export function metricsRoute(options: { production: boolean; token?: string }): RequestHandler {
  const expected = options.token ? Buffer.from(`Bearer ${options.token}`) : null;
  return async (req, res, next) => {
    if (!enabled || req.path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) return next();
    if (!expected && options.production) return next();
    if (expected) {
      const given = Buffer.from(req.get("authorization") ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res
          .status(401)
          .set("WWW-Authenticate", 'Bearer realm="metrics"')
          .json({
            errors: [
              {
                status: "401",
                code: "unauthorized",
                title: "Unauthorized",
                detail: "Give the metrics token",
              },
            ],
          });
        return;
      }
    }
    res
      .set("Content-Type", registry.contentType)
      .set("Cache-Control", "no-store")
      .send(await registry.metrics());
  };
}
