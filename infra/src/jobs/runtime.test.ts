import net from "node:net";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { pino } from "pino";
import { z } from "zod";
import { createPool } from "../db.ts";
import { freePort } from "../embedded-postgres.ts";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import {
  connectingThroughRestarts,
  type JobHandlers,
  JobQueue,
  type JobRunner,
  RetryLater,
  startJobRunner,
} from "./runtime.ts";

interface LogLine {
  level: number;
  msg: string;
  job?: string;
  traceId?: string;
  attempt?: number;
  retryInSeconds?: number | null;
  final?: boolean;
}

/** A real pino logger whose lines the test reads. */
function capturingLogger() {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: "debug" }, stream), lines };
}

async function until<T>(read: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const specs = {
  flaky: { payload: z.object({ failures: z.number().int() }) },
  "not-yet": { payload: z.object({}) },
  count: { payload: z.object({ n: z.number().int() }) },
};

interface Deps {
  attempts: { job: string; attempt: number; at: number; traceId: string }[];
  runs: { n: number; runner: string }[];
  runner: string;
}

const handlers: JobHandlers<Deps, typeof specs> = {
  async flaky(payload, deps, job) {
    deps.attempts.push({ job: "flaky", attempt: job.attempt, at: Date.now(), traceId: job.traceId });
    if (job.attempt <= payload.failures) throw new Error(`supplier down (attempt ${job.attempt})`);
  },
  async "not-yet"(_payload, deps, job) {
    deps.attempts.push({ job: "not-yet", attempt: job.attempt, at: Date.now(), traceId: job.traceId });
    if (job.attempt === 1) throw new RetryLater("still confirming");
  },
  async count(payload, deps) {
    await sleep(30);
    deps.runs.push({ n: payload.n, runner: deps.runner });
  },
};

describe("jobs on PostgreSQL", () => {
  let db: TestDatabase;
  let queue: JobQueue<typeof specs>;
  const runners: JobRunner[] = [];
  const pools = [] as ReturnType<typeof createPool>[];

  beforeAll(async () => {
    db = await createTestDatabase();
    queue = await JobQueue.open(db.pool, specs);
  });
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    await queue.close();
    for (const pool of pools) await pool.end();
    await db.drop();
  });

  async function runner(name: string, deps: Omit<Deps, "runner">, logger = pino({ level: "silent" })) {
    const pool = createPool(db.url, { max: 6 });
    pools.push(pool);
    const started = await startJobRunner({
      pool,
      specs,
      handlers,
      deps: { ...deps, runner: name },
      logger,
      concurrency: 2,
      pollIntervalMs: 100,
    });
    runners.push(started);
    return started;
  }

  it("when a job fails, then it is retried with exponential backoff and each failure is logged at error level with the sender's trace id", async () => {
    const { logger, lines } = capturingLogger();
    const deps = { attempts: [] as Deps["attempts"], runs: [] };
    const started = await runner("a", deps, logger);
    const id = await queue.send("flaky", { failures: 5 }, { traceId: "trace-flaky-1", maxAttempts: 6 });

    await until(() => (deps.attempts.length >= 2 ? true : undefined), 6000);
    const [first, second] = deps.attempts;
    // The library waits e^1 s after the first failure.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(2500);
    expect(deps.attempts.map((a) => [a.attempt, a.traceId])).toEqual([
      [1, "trace-flaky-1"],
      [2, "trace-flaky-1"],
    ]);
    // ... and e^2 s after the second.
    const failed = async () => {
      const { rows } = await db.pool.query<{ attempts: number; run_at: Date; last_error: string }>(
        "SELECT attempts, run_at, last_error FROM graphile_worker.jobs WHERE id = $1 AND locked_at IS NULL",
        [id],
      );
      return rows[0]?.attempts === 2 ? rows[0] : undefined;
    };
    let row = await failed();
    for (let i = 0; !row && i < 100; i++) row = await sleep(20).then(failed);
    expect((row?.run_at.getTime() ?? 0) - (second?.at ?? 0)).toBeGreaterThan(Math.exp(2) * 1000 - 300);
    expect((row?.run_at.getTime() ?? 0) - (second?.at ?? 0)).toBeLessThan(Math.exp(2) * 1000 + 700);
    expect(row?.last_error).toContain("supplier down (attempt 2)");

    const failures = lines.filter((l) => l.job === "flaky" && l.level >= 50);
    expect(failures.map((l) => [l.msg, l.traceId, l.attempt, l.retryInSeconds])).toEqual([
      ["job flaky failed; retrying in 3 s", "trace-flaky-1", 1, 3],
      ["job flaky failed; retrying in 7 s", "trace-flaky-1", 2, 7],
    ]);
    await started.stop();
    runners.splice(runners.indexOf(started), 1);
  }, 15_000);

  it("when a job is not due yet (RetryLater), then it is asked again with backoff and logged at info, not as an error", async () => {
    const { logger, lines } = capturingLogger();
    const deps = { attempts: [] as Deps["attempts"], runs: [] };
    const started = await runner("b", deps, logger);
    await queue.send("not-yet", {}, { traceId: "trace-not-yet" });
    await until(() => (deps.attempts.length >= 2 ? true : undefined), 6000);
    const mine = lines.filter((l) => l.job === "not-yet");
    expect(mine.filter((l) => l.level >= 50)).toEqual([]);
    expect(mine.find((l) => l.level === 30)).toMatchObject({
      msg: "job not-yet: still confirming; asking again in 3 s",
      traceId: "trace-not-yet",
    });
    await started.stop();
    runners.splice(runners.indexOf(started), 1);
  }, 15_000);

  it("when two runners share the database, then each job runs exactly once", async () => {
    const runs: Deps["runs"] = [];
    await runner("one", { attempts: [], runs });
    await runner("two", { attempts: [], runs });
    const count = 40;
    for (let n = 0; n < count; n++) await queue.send("count", { n });
    await until(() => (runs.length >= count ? true : undefined), 10_000);
    await sleep(500); // a duplicate would show up meanwhile
    expect(runs.map((r) => r.n).sort((a, b) => a - b)).toEqual([...Array(count).keys()]);
    expect(new Set(runs.map((r) => r.runner))).toEqual(new Set(["one", "two"]));
  }, 20_000);

  it("when a burst of jobs is queued, then the runner fetches them in fewer statements than jobs, each run once", async () => {
    // This runner alone takes the burst: the earlier tests' runners stop.
    for (const earlier of runners.splice(0)) await earlier.stop();
    // The runner's pool, counting the statements that fetch (and lock) jobs on every connection it hands out.
    let fetches = 0;
    const wrapped = new WeakSet<object>();
    const pool = createPool(db.url, { max: 6 });
    pools.push(pool);
    const connect = pool.connect.bind(pool) as () => Promise<import("pg").PoolClient>;
    const counting = new Proxy(pool, {
      get(target, property) {
        if (property === "connect")
          return async (...args: unknown[]) => {
            if (args.length > 0) return (target.connect as (...a: unknown[]) => unknown)(...args);
            const client = await connect();
            // A pooled connection is handed out again: counted once.
            if (wrapped.has(client)) return client;
            wrapped.add(client);
            const query = client.query.bind(client) as (...a: unknown[]) => unknown;
            (client as { query: unknown }).query = (...a: unknown[]) => {
              const text = typeof a[0] === "string" ? a[0] : (a[0] as { text?: string })?.text;
              if (text && /for update\s+skip locked/i.test(text) && /_private_jobs/.test(text)) fetches++;
              return query(...a);
            };
            return client;
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const runs: Deps["runs"] = [];
    const started = await startJobRunner({
      pool: counting,
      specs,
      handlers,
      deps: { attempts: [], runs, runner: "burst" },
      logger: pino({ level: "silent" }),
      concurrency: 4,
      pollIntervalMs: 100,
    });
    runners.push(started);
    await sleep(300); // the runner's first polls, before the burst
    const count = 24;
    const before = fetches;
    await Promise.all(Array.from({ length: count }, (_, n) => queue.send("count", { n: 1000 + n })));
    await until(() => (runs.length >= count ? true : undefined), 10_000);
    await sleep(300); // a duplicate would show up meanwhile
    expect(runs.map((r) => r.n).sort((a, b) => a - b)).toEqual(
      Array.from({ length: count }, (_, n) => 1000 + n),
    );
    // Fewer fetches than jobs (43 for 24 before the local queue). Not tighter: the runner's polls (every 100 ms) fall in
    // the window too, and a loaded machine spreads the 24 sends over more of them (13 once in a whole run).
    expect(fetches - before).toBeLessThan(count);
    await started.stop();
    runners.splice(runners.indexOf(started), 1);
  }, 20_000);

  it("when a payload does not match its job's schema, then it is refused before it is queued", async () => {
    await expect(queue.send("count", { n: "seven" } as unknown as { n: number })).rejects.toThrow();
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'count'",
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("when the server refuses connections for a while (restarting), then the runner's pool waits and connects; other errors fail at once", async () => {
    // A port that opens 400 ms later, relaying to the real server: what a client sees while PostgreSQL restarts.
    const target = new URL(db.url);
    const port = await freePort();
    const relay = net.createServer((inbound) => {
      const outbound = net.connect(Number(target.port), "127.0.0.1");
      inbound.pipe(outbound).pipe(inbound);
      inbound.on("error", () => outbound.destroy());
      outbound.on("error", () => inbound.destroy());
    });
    const url = new URL(db.url);
    url.host = `127.0.0.1:${port}`;
    url.searchParams.delete("host"); // over TCP, through the relay, not the server's own socket
    const pool = createPool(url.toString(), { max: 2 });
    const opened = sleep(400).then(
      () => new Promise<void>((resolve) => relay.listen(port, "127.0.0.1", resolve)),
    );
    try {
      await expect(pool.connect()).rejects.toMatchObject({ code: "ECONNREFUSED" });
      const client = await connectingThroughRestarts(pool).connect();
      const { rows } = await client.query<{ one: number }>("SELECT 1 AS one");
      client.release();
      expect(rows).toEqual([{ one: 1 }]);
      await opened;

      // A wrong password is no restart: refused at once, not retried for a minute.
      const wrong = new URL(url);
      wrong.password = "not-the-password";
      const badPool = createPool(wrong.toString(), { max: 1 });
      pools.push(badPool);
      const startedAt = Date.now();
      await expect(connectingThroughRestarts(badPool).connect()).rejects.toMatchObject({ code: "28P01" });
      expect(Date.now() - startedAt).toBeLessThan(5000);
    } finally {
      await opened;
      await pool.end(); // its connections go through the relay, which closes once they have
      await new Promise((resolve) => relay.close(resolve));
    }
  });
});

describe("periodic jobs on the database's clock", () => {
  const cronSpecs = { tick: { payload: z.object({}), cron: "* * * * *" } };
  let db: TestDatabase;
  const started: JobRunner[] = [];
  const pools = [] as ReturnType<typeof createPool>[];
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const runner of started) await runner.stop();
    for (const pool of pools) await pool.end();
    await db.drop();
  });

  it("when three runners start in the same minute, then a job with a cron line runs once for the database's minute, and a delayed send is due that long after the database's now", async () => {
    // Clear of a minute's turn by the database's clock, which would rightly make a second run.
    const { rows: clock } = await db.pool.query<{ second: number }>(
      "SELECT extract(second FROM now())::float8 AS second",
    );
    if ((clock[0]?.second ?? 0) > 52) await sleep((61 - (clock[0]?.second ?? 0)) * 1000);
    const runs: string[] = [];
    const cronHandlers: JobHandlers<string, typeof cronSpecs> = {
      async tick(_payload, runner) {
        runs.push(runner);
      },
    };
    await Promise.all(
      ["a", "b", "c"].map(async (name) => {
        const pool = createPool(db.url, { max: 4 });
        pools.push(pool);
        started.push(
          await startJobRunner({
            pool,
            specs: cronSpecs,
            handlers: cronHandlers,
            deps: name,
            logger: pino({ level: "silent" }),
            pollIntervalMs: 100,
          }),
        );
      }),
    );
    await until(() => (runs.length > 0 ? true : undefined), 5000);
    await sleep(1000);
    expect(runs).toHaveLength(1);
    const { rows } = await db.pool.query<{ identifier: string; this_minute: boolean }>(
      "SELECT identifier, last_minute = date_trunc('minute', now()) AS this_minute FROM app.job_schedule",
    );
    expect(rows).toEqual([{ identifier: "tick", this_minute: true }]);

    const queue = await JobQueue.open(db.pool, cronSpecs);
    try {
      const id = await queue.send("tick", {}, { delayMs: 60_000 });
      const { rows: due } = await db.pool.query<{ in_ms: number }>(
        "SELECT extract(epoch FROM run_at - now())::float8 * 1000 AS in_ms FROM graphile_worker.jobs WHERE id = $1",
        [id],
      );
      expect(due[0]?.in_ms).toBeGreaterThan(59_000);
      expect(due[0]?.in_ms).toBeLessThanOrEqual(60_000);
    } finally {
      await queue.close();
    }
  }, 30_000);
});
