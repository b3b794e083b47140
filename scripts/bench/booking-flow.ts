// `npm run bench -- booking-flow [--agents=N] [--seconds=N] [--warmup=N] [--split] [--after-sales[=percent]]
// [--processes=N] [--smtp=sink|none|<url>]`:
// simulated agents over real HTTP, each looping search → book → issue → read the booking, against the all-in-one app
// on a fresh embedded PostgreSQL (fsync on). --after-sales (default 20 %) ends that share of the flows with a void, a
// refund (quote, confirm) or an exchange (change request, priced offers, confirm) in turn, as the booking page's
// actions allow, and reads the booking again. The first --warmup seconds (default 5) run the same loop unmeasured, while V8 compiles the hot code.
// --multi-city[=percent] (default 20 %) searches that share of the flows as a three-slice journey (A → B, then B →
// the next route's end, back to A), booked, issued and read as any other (issue 23.1); with --after-sales, a
// multi-city flow owed an after-sale books a Flex fare (every slice changeable) and exchanges its last slice. An app
// that answers no multi-city search (a base commit before it) runs one-pair flows only, and the output says so.
// --statements prints the statements and transactions per flow (pg_stat_statements), steady on a busy machine.
// It also prints the CPU each side used over the measured window (from /proc: the app process, every PostgreSQL
// process, this load generator). The app is N web processes (--processes, default 1; the agents spread over them),
// the background jobs' process beside them (an app with the jobs role: issue 26), and with --split the projectors';
// its CPU is every one of them summed (the jobs' also shown alone). Mail goes to an SMTP sink in this process unless
// --smtp says otherwise; the output says which. BENCH_CPU_PROFILE=<dir> writes the app's V8 CPU profile there; BENCH_PERF=1
// starts it with a perf map, for `perf record -p <app pid>`.
// --telemetry=on: metrics scraped every 5 s and traces exported to an OTLP sink in this process; --telemetry=metrics:
// the metrics scraped, no tracing; --telemetry=off: metrics off (METRICS_ENABLED=false) and no tracing. Run both alternately to see what telemetry costs (issue 30).
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import os from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { createPool, withDatabase } from "@skyward/infra/db";
import { startEmbeddedPostgres } from "@skyward/infra/embedded-postgres";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import type pg from "pg";
import { SMTPServer } from "smtp-server";
import { HttpClient, type HttpResponse, httpTraffic } from "../src/testing/http-client.ts";
import { startCountingProxy, type WireCounts } from "./pg-proxy.ts";

const TARGETS = { searchP95Ms: 100, bookP99Ms: 100, issueP99Ms: 100, flowsPerSecond: 100 };
const AFTER_SALES_TARGETS = { everyCallP99Ms: 100, flowsPerSecond: 150 };
const ROUTES = [
  ["KBP", "WAW"],
  ["WAW", "CDG"],
  ["KBP", "FRA"],
  ["LWO", "VIE"],
  ["WAW", "LHR"],
  ["ODS", "IST"],
  ["KRK", "AMS"],
  ["GDN", "MUC"],
] as const;
/** Agents of both agencies, so balances and bookings spread as in real use. */
const AGENTS = ["agent@dnipro.test", "agent.lviv@dnipro.test", "agent@vistula.test"];

/** Starts `npm run serve` with the given roles (demo world) as a child process and resolves with its URL. */
/** The URL a child process prints as "listening at <url>" once it listens. */
export function listeningUrl(child: ChildProcess, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening at (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`${what} exited with ${code} before listening`)));
  });
}

export async function spawnApp(
  databaseUrl: string,
  roles: string,
  extraEnv: Record<string, string> = {},
  appDir: string = process.cwd(),
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const profile = process.env.BENCH_CPU_PROFILE
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`]
    : process.env.BENCH_PERF
      ? ["--perf-basic-prof-only-functions"]
      : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", "scripts/src/serve.ts"], {
    cwd: appDir,
    env: {
      ...process.env,
      // serve is production by default; the bench signs in with the demo world's published password.
      NODE_ENV: "development",
      DATABASE_URL: databaseUrl,
      PORT: "0",
      LOG_LEVEL: "silent",
      SEED_DEMO: "true",
      ROLES: roles,
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await listeningUrl(child, "the app");
  return {
    url,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Whether the app in `appDir` has the jobs role (issue 26); a base commit before it runs jobs in command processes. */
function appHasJobsRole(appDir: string): boolean {
  const source = readFileSync(join(appDir, "scripts/src/app.ts"), "utf8");
  return /export const ROLES = \[[^\]]*"jobs"/.test(source);
}

/** An SMTP server that accepts every mail and drops it, counting them and their bytes (as sent, dot-stuffed). */
async function startSmtpSink(): Promise<{
  url: string;
  received(): { mails: number; bytes: number };
  close(): Promise<void>;
}> {
  let received = 0;
  let bytes = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      stream.on("end", () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => ({ mails: received, bytes }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** CPU seconds a process has used (user + system), from /proc; 0 once it is gone. */
export function cpuSecondsOf(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks: USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/** The parent process id of `pid`, from /proc; null once it is gone. */
function parentOf(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

/**
 * CPU seconds used so far by PostgreSQL: the bench's own server and its backends when it started one (so other
 * servers on the machine do not count), every PostgreSQL process otherwise.
 */
export function postgresCpuSeconds(postmaster: number | null): number {
  let postgres = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
      if (postmaster === null || Number(entry) === postmaster || parentOf(entry) === postmaster)
        postgres += cpuSecondsOf(entry);
    } catch {
      // gone meanwhile
    }
  }
  return postgres;
}

/** CPU seconds used so far by the app, by PostgreSQL (postgresCpuSeconds) and by this process. */
function cpuSnapshot(appPids: readonly number[], postmaster: number | null, jobsPid: number | null) {
  const postgres = postgresCpuSeconds(postmaster);
  const own = process.cpuUsage();
  return {
    app: appPids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
    app_jobs: jobsPid === null ? 0 : cpuSecondsOf(jobsPid),
    postgres,
    generator: (own.user + own.system) / 1e6,
  };
}

export function arg(args: readonly string[], name: string, fallback: number): number {
  const found = args.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : fallback;
}

/**
 * What an agent owes and whose turn it is: after-sales (a share of each flow) and the turn among void, refund and
 * exchange; multi-city flows (a share of each flow likewise).
 */
interface AgentTurns {
  owed: number;
  turn: number;
  multiCityOwed: number;
}
/**
 * Multi-city flows start at a phase of their own per agent, so they do not fall on the after-sales flows whenever
 * the two shares are equal: about the after-sales share of the multi-city flows end in an after-sale, as of the rest.
 */
const agentTurns = (index: number): AgentTurns => ({
  owed: 0,
  turn: index,
  multiCityOwed: (index * 0.37) % 1,
});

/** An empty sample list per call. */
const noSamples = () =>
  Object.fromEntries(calls.map((call) => [call, [] as number[]])) as Record<Call, number[]>;

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const calls = [
  "search",
  "search_multi_city",
  "book",
  "issue",
  "read",
  "void",
  "refund_quote",
  "refund",
  "change_request",
  "reshop_price",
  "exchange",
] as const;
type AfterSale = "void" | "refund" | "exchange";
const AFTER_SALES: readonly AfterSale[] = ["void", "refund", "exchange"];
type Call = (typeof calls)[number];

/** Whether the app searches a multi-city journey (`slices`): one probe search, three slices a few weeks out. */
async function multiCitySearchAnswers(client: HttpClient): Promise<boolean> {
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const probe = await client.post("/offers", {
    slices: [
      { origin: "KBP", destination: "WAW", departure_date: day(30) },
      { origin: "WAW", destination: "FRA", departure_date: day(33) },
      { origin: "FRA", destination: "KBP", departure_date: day(37) },
    ],
    passengers: { adults: 1, children: 0, infants: 0 },
  });
  return probe.status === 200;
}

/** Set by --per-call once measuring: runs each call alone and notes the statements it (and what it set off) ran. */
let aroundCall: ((call: Call, work: () => Promise<HttpResponse>) => Promise<HttpResponse>) | null = null;

async function timed(samples: Record<Call, number[]>, call: Call, work: () => Promise<HttpResponse>) {
  const started = performance.now();
  const res = await (aroundCall ? aroundCall(call, work) : work());
  samples[call].push(performance.now() - started);
  return res;
}

/** How long --per-call waits after a call for the work it set off (projections, jobs) before reading its statements. */
const PER_CALL_SETTLE_MS = 400;

/** Statements by call: each call's statements (and those of the work it set off), summed over its runs. */
type PerCallStatements = Map<Call, { runs: number; statements: Map<string, number> }>;

/** The statements counted since the last reset, by text, then a reset. */
async function takeStatements(pool: pg.Pool, database: string): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ calls: string; query: string }>(
    `SELECT s.calls::text AS calls, s.query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = $1 AND s.toplevel AND s.query NOT LIKE '%pg_stat_%'`,
    [database],
  );
  await pool.query("SELECT pg_stat_statements_reset()");
  return new Map(rows.map((r) => [r.query.replace(/\s+/g, " "), Number(r.calls)]));
}

function printPerCall(perCall: PerCallStatements, flows: number): void {
  console.log(
    `\nstatements by call (--per-call, one agent, ${PER_CALL_SETTLE_MS} ms after each call for what it set off):`,
  );
  let total = 0;
  for (const [call, { runs, statements }] of perCall) {
    const sum = [...statements.values()].reduce((a, b) => a + b, 0);
    total += sum;
    console.log(
      `\n${call}: ${runs} calls, ${(sum / runs).toFixed(2)} statements per call, ${(sum / flows).toFixed(2)} per flow`,
    );
    for (const [query, n] of [...statements].sort((a, b) => b[1] - a[1]))
      console.log(`${(n / runs).toFixed(2).padStart(7)}  ${query.slice(0, 130)}`);
  }
  console.log(`\nstatements per flow, summed by call: ${(total / flows).toFixed(2)}`);
}

/** Transactions committed or rolled back in `database` so far (pg_stat_database, updated within a second). */
async function transactionsOf(pool: pg.Pool, database: string): Promise<number> {
  await pool.query("SELECT pg_stat_force_next_flush()");
  const { rows } = await pool.query<{ n: string }>(
    "SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = $1",
    [database],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Statements and transactions per complete flow, and the statements sent most often. */
/** Events in the store so far (appended by the app; the bench's own pool appends none). */
async function eventCount(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>("SELECT count(*)::text AS n FROM es.events");
  return Number(rows[0]?.n ?? 0);
}

async function printStatements(
  pool: pg.Pool,
  database: string,
  flows: number,
  transactionsAtStart: number,
): Promise<{ statements: number; transactions: number }> {
  const transactions = (await transactionsOf(pool, database)) - transactionsAtStart;
  // Statements the app sent (not those run inside es.append): each one a message, most a round trip.
  const { rows } = await pool.query<{ calls: string; query: string; ms: number }>(
    `SELECT s.calls::text AS calls, s.query, s.total_exec_time AS ms FROM pg_stat_statements s
       JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = $1 AND s.toplevel AND s.query NOT LIKE '%pg_stat_%' ORDER BY s.calls DESC`,
    [database],
  );
  const total = rows.reduce((sum, row) => sum + Number(row.calls), 0);
  const per = (n: number) => (flows > 0 ? (n / flows).toFixed(2) : "NaN");
  console.log(`\nstatements per flow: ${per(total)}, transactions per flow: ${per(transactions)}`);
  // A long statement shows its start and its end (where a read's WHERE tells which read it is).
  const shown = (query: string) =>
    query.length > 180 ? `${query.slice(0, 110)} … ${query.slice(-65)}` : query;
  // Each statement's calls per flow, and its time executing in the server per flow (planning not included).
  console.log(`${"calls".padStart(7)}  ${"ms".padStart(6)}  statement`);
  for (const row of rows.slice(0, 40))
    console.log(
      `${per(Number(row.calls)).padStart(7)}  ${per(row.ms).padStart(6)}  ${shown(row.query.replace(/\s+/g, " "))}`,
    );
  const executing = rows.reduce((sum, row) => sum + row.ms, 0);
  console.log(`executing every statement: ${per(executing)} ms per flow`);
  return { statements: total / flows, transactions: transactions / flows };
}

/** The app's turn waits and version conflicts so far, from its /metrics (null when it has no such metric). */
async function turnsOf(
  url: string,
): Promise<{ waits: number; seconds: number; over100ms: number; conflicts: number } | null> {
  const text = await fetch(`${url}/metrics`)
    .then((r) => (r.ok ? r.text() : ""))
    .catch(() => "");
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
  const waits = value(/^skyward_turn_wait_seconds_count (\S+)$/m);
  if (Number.isNaN(waits)) return null;
  return {
    waits,
    seconds: value(/^skyward_turn_wait_seconds_sum (\S+)$/m),
    over100ms: waits - value(/^skyward_turn_wait_seconds_bucket\{le="0.1"\} (\S+)$/m),
    conflicts: value(/^skyward_event_store_version_conflicts_total (\S+)$/m),
  };
}

export async function run(args: readonly string[]): Promise<void> {
  const agents = arg(args, "agents", 16);
  const seconds = arg(args, "seconds", 20);
  const warmup = arg(args, "warmup", 5);
  const dataDir = process.env.DATABASE_URL ? null : await mkdtemp(join(os.tmpdir(), "skyward-bench-flow-"));
  // --statements: counts every statement the app sends (pg_stat_statements), a figure no other load on the
  // machine disturbs, for comparing two versions of the code on a busy machine.
  // --counts (issue 26): statements, transactions, round trips and bytes to PostgreSQL (through a counting proxy),
  // HTTP bytes and events appended, each per flow: figures no machine's speed changes.
  const counts = args.includes("--counts");
  // --per-call: one agent, each call alone, its statements (and those of the work it set off) listed by call.
  const perCall = args.includes("--per-call");
  const statements = args.includes("--statements") || counts || perCall;
  if (perCall && agents !== 1) throw new Error("--per-call runs one agent (--agents=1)");
  // --rate=R: an open loop offering R flows a second (see below); --app-dir: the app to measure (compare.ts points
  // it at the base commit's worktree, so both sides meet the same load generator).
  const rate = arg(args, "rate", 0);
  const appDir = args.find((a) => a.startsWith("--app-dir="))?.slice("--app-dir=".length) ?? process.cwd();
  if (statements && !dataDir) throw new Error("--statements needs the bench's own server (no DATABASE_URL)");
  const server = dataDir
    ? await startEmbeddedPostgres({
        dataDir,
        ...(statements
          ? {
              settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" },
            }
          : {}),
      })
    : null;
  const serverUrl = process.env.DATABASE_URL ?? server?.url ?? "";
  const admin = createPool(serverUrl, { max: 1 });
  const database = `bench_flow_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();

  // The app runs in its own process, as in production, so the load generator does not share its event loop.
  const databaseUrl = withDatabase(serverUrl, database);
  const proxy = counts ? await startCountingProxy(serverUrl) : null;
  const appDatabaseUrl = proxy ? proxy.urlFor(databaseUrl) : databaseUrl;
  // --split: the projectors in a process of their own, as in production (infra/deploy/nginx.conf).
  const split = args.includes("--split");
  // --telemetry=on|off (issue 30): an OTLP sink here that counts what the app exports, or metrics and tracing off.
  const telemetry = args.find((a) => a.startsWith("--telemetry="))?.split("=")[1] ?? null;
  const exported = { requests: 0, bytes: 0, scrapes: 0, names: new Map<string, number>() };
  const sink =
    telemetry === "on"
      ? createServer((req, res) => {
          exported.requests++;
          const chunks: Buffer[] = [];
          req.on("data", (chunk: Buffer) => {
            exported.bytes += chunk.length;
            chunks.push(chunk);
          });
          req.on("end", () => {
            // Which spans the app sends, to see that each instrumentation took (the JSON encoding).
            const body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as {
              resourceSpans?: { scopeSpans: { spans: { name: string }[] }[] }[];
            };
            for (const r of body.resourceSpans ?? [])
              for (const s of r.scopeSpans)
                for (const { name } of s.spans) exported.names.set(name, (exported.names.get(name) ?? 0) + 1);
            res.writeHead(200, { "content-type": "application/json" }).end("{}");
          });
        }).listen(0, "127.0.0.1")
      : null;
  if (sink) await new Promise((resolve) => sink.once("listening", resolve));
  const telemetryEnv: Record<string, string> =
    telemetry === "off"
      ? { METRICS_ENABLED: "false" }
      : sink
        ? { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as { port: number }).port}` }
        : {};
  // --smtp=sink (the default): an SMTP server here that accepts and drops every mail, so the run measures the app
  // and not a missing mail server; --smtp=none: no SMTP_URL (the dev outbox in PostgreSQL); --smtp=<url>: that server.
  const smtpChoice = args.find((a) => a.startsWith("--smtp="))?.slice("--smtp=".length) ?? "sink";
  const smtp = smtpChoice === "sink" ? await startSmtpSink() : null;
  const smtpUrl = smtp ? smtp.url : smtpChoice === "none" ? null : smtpChoice;
  const mailEnv: Record<string, string> = smtpUrl ? { SMTP_URL: smtpUrl } : {};
  // --processes=N (issue 26): N web processes on the one database, the agents spread over them as a proxy with sticky
  // sessions would; the first also runs the projectors (unless --split). The background jobs run in a jobs process
  // of their own when the app has that role, and in the web processes (each of them) when it has not (a base commit).
  const processes = Math.max(1, arg(args, "processes", 1));
  const jobsRole = appHasJobsRole(appDir);
  const appEnv = { ...telemetryEnv, ...mailEnv };
  const webRoles = (first: boolean) =>
    ["command", "query", ...(first && !split ? ["projectors"] : []), "frontend"].join(",");
  const webs: Awaited<ReturnType<typeof spawnApp>>[] = [];
  for (let i = 0; i < processes; i++)
    webs.push(await spawnApp(appDatabaseUrl, webRoles(i === 0), appEnv, appDir));
  const app = webs[0] as (typeof webs)[number];
  const projectors = split ? await spawnApp(appDatabaseUrl, "projectors", appEnv, appDir) : null;
  const jobs = jobsRole ? await spawnApp(appDatabaseUrl, "jobs", appEnv, appDir) : null;
  const scraper =
    telemetry === "on" || telemetry === "metrics"
      ? setInterval(() => {
          void fetch(`${app.url}/metrics`)
            .then((r) => r.text())
            .then(() => {
              exported.scrapes++;
            });
        }, 5000)
      : null;
  const pool = createPool(databaseUrl, { max: 2 });
  const postmaster = server?.pid ?? null;
  try {
    if (statements) await pool.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    // Deep pockets, so the run measures the flow and not "insufficient balance". Appended as the seed does, which
    // the base commit of `bench compare` understands as well (it had no top-up call yet).
    const store = new EventStore(pool);
    for (const key of ["dnipro-kyiv", "dnipro-lviv", "vistula-waw"]) {
      const companyId = demoId("company", key);
      const currency = key.startsWith("vistula") ? "PLN" : "UAH";
      await store.append({
        streamId: `balance-${companyId}`,
        expected: "any",
        events: [
          {
            type: "BalanceToppedUp",
            data: { company_id: companyId, amount: { amount: 1_000_000_000_00, currency }, comment: "bench" },
            metadata: systemMetadata("bench"),
          },
        ],
      });
    }
    const clients = await Promise.all(
      Array.from({ length: agents }, async (_, i) => {
        // As a browser asks: the answers come compressed.
        const web = webs[i % webs.length] as { url: string };
        const client = new HttpClient(web.url, { "accept-encoding": "gzip, deflate, br" });
        await client.signInWithPassword(AGENTS[i % AGENTS.length] as string, DEMO_PASSWORD);
        return client;
      }),
    );

    const afterSalesShare = args.some((a) => a.startsWith("--after-sales"))
      ? arg(args, "after-sales", 20) / 100
      : 0;
    const askedMultiCityShare = args.some((a) => a.startsWith("--multi-city"))
      ? arg(args, "multi-city", 20) / 100
      : 0;
    // An app without multi-city search (the base commit of `bench compare`, before issue 23) answers its slices
    // with 4xx: it then runs the plain one-pair flow only, and says so, rather than failing a share of its flows.
    const multiCitySupported =
      askedMultiCityShare === 0 || (await multiCitySearchAnswers(clients[0] as HttpClient));
    const multiCityShare = multiCitySupported ? askedMultiCityShare : 0;
    if (!multiCitySupported)
      console.log(
        `multi-city: this app (${appDir}) answers no multi-city search; its flows are all one-pair (--multi-city ignored)`,
      );
    let samples = noSamples();
    let flows = 0;
    let failures = 0;
    let failureCodes = new Map<string, number>();
    let skipped = 0;
    let multiCityExchanges = 0;
    /**
     * The after-sale of this turn (or the next one the booking page allows), then the booking read again at the
     * outcome's position; "none allowed" when its actions allow none.
     */
    const afterSale = async (
      client: HttpClient,
      locator: string,
      actions: readonly { action: string; allowed: boolean }[],
      turn: number,
      multiCity: boolean,
    ): Promise<HttpResponse | "none allowed"> => {
      // A multi-city flow's after-sale is the exchange of one slice (its fare was chosen changeable).
      const order = multiCity
        ? (["exchange"] as const)
        : AFTER_SALES.map((_, i) => AFTER_SALES[(turn + i) % AFTER_SALES.length] as AfterSale);
      const allowed = order.find((kind) => actions.some((a) => a.action === kind && a.allowed));
      if (!allowed) return "none allowed";
      let outcome: HttpResponse;
      if (allowed === "void") {
        outcome = await timed(samples, "void", () => client.delete(`/bookings/${locator}`));
      } else if (allowed === "refund") {
        const quote = await timed(samples, "refund_quote", () =>
          client.post(`/orders/${locator}/refund_requests/create`, {}),
        );
        if (quote.status !== 201) return quote;
        outcome = await timed(samples, "refund", () =>
          client.post(`/orders/${locator}/refund_requests/confirm`, { quote_id: quote.body.quote.quote_id }),
        );
      } else {
        const departure = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
        const request = await timed(samples, "change_request", () =>
          // A multi-city journey changes one slice: its last, moved later.
          client.post(`/orders/${locator}/flights_change_requests/create`, {
            departure_date: departure,
            ...(multiCity ? { slice: 2 } : {}),
          }),
        );
        if (request.status !== 201) return request;
        const priced = await timed(samples, "reshop_price", () =>
          client.post(`/orders/${locator}/reshop_offers/price`, {}),
        );
        const offer = priced.body?.offers?.[0];
        if (priced.status !== 200 || !offer) return priced;
        outcome = await timed(samples, "exchange", () =>
          client.post(`/orders/${locator}/flights_change_requests/confirm`, {
            reshop_offer_id: offer.reshop_offer_id,
          }),
        );
      }
      if (outcome.status >= 300) return outcome;
      return timed(samples, "read", () =>
        client.get(`/bookings/${locator}`, { headers: { "x-min-position": outcome.body.position } }),
      );
    };
    let started = performance.now();
    const deadline = started + (warmup + seconds) * 1000;
    // After the warm-up, everything counted so far is dropped and the clock starts.
    // Every process of the app counts: the web processes, the projectors' and the jobs' (each also shown alone).
    const webPids = webs.map((w) => w.pid);
    const appPids = [...webPids, ...(projectors ? [projectors.pid] : []), ...(jobs ? [jobs.pid] : [])];
    let cpuAtStart = cpuSnapshot(appPids, postmaster, jobs?.pid ?? null);
    let transactionsAtStart = 0;
    let wireAtStart: WireCounts = { roundTrips: 0, bytesToServer: 0, bytesToClient: 0 };
    let trafficAtStart = { ...httpTraffic };
    let eventsAtStart = 0;
    let mailAtStart = smtp?.received() ?? null;
    // Turns at company balances (StreamLocks) and version conflicts, from the first web process's metrics.
    let turnsAtStart = await turnsOf(app.url);
    const byCall: PerCallStatements = new Map();
    const measuring = setTimeout(async () => {
      samples = noSamples();
      flows = 0;
      skipped = 0;
      multiCityExchanges = 0;
      failures = 0;
      failureCodes = new Map();
      started = performance.now();
      cpuAtStart = cpuSnapshot(appPids, postmaster, jobs?.pid ?? null);
      turnsAtStart = await turnsOf(app.url);
      if (statements) {
        transactionsAtStart = await transactionsOf(pool, database);
        await pool.query("SELECT pg_stat_statements_reset()");
      }
      if (perCall)
        aroundCall = async (call, work) => {
          await sleep(PER_CALL_SETTLE_MS);
          await takeStatements(pool, database);
          const res = await work();
          await sleep(PER_CALL_SETTLE_MS);
          const entry = byCall.get(call) ?? { runs: 0, statements: new Map<string, number>() };
          entry.runs++;
          for (const [query, n] of await takeStatements(pool, database))
            entry.statements.set(query, (entry.statements.get(query) ?? 0) + n);
          byCall.set(call, entry);
          return res;
        };
      if (proxy) {
        wireAtStart = proxy.counts();
        trafficAtStart = { ...httpTraffic };
        eventsAtStart = await eventCount(pool);
        mailAtStart = smtp?.received() ?? null;
      }
    }, warmup * 1000);
    /** One flow: search, book, issue (unless the fare came back issued), read, and this flow's share of after-sales. */
    const flow = async (client: HttpClient, index: number, round: number, agent: AgentTurns) => {
      const [origin, destination] = ROUTES[(index + round) % ROUTES.length] as readonly [string, string];
      const daysOut = 14 + ((index * 7 + round) % 60);
      const day = (offset: number) =>
        new Date(Date.now() + (daysOut + offset) * 86_400_000).toISOString().slice(0, 10);
      const departure = day(0);
      // Multi-city flows owed by this agent, a share of each flow like the after-sales.
      agent.multiCityOwed += multiCityShare;
      const multiCity = agent.multiCityOwed >= 1;
      if (multiCity) agent.multiCityOwed -= 1;
      // This flow's share of after-sales, known before the search: a multi-city flow that ends in one picks a fare
      // whose every slice allows changes (Flex: its slices never sell in another family), to exchange a slice.
      agent.owed += afterSalesShare;
      const afterSaleDue = afterSalesShare > 0 && agent.owed >= 1;
      if (afterSaleDue) agent.owed -= 1;
      const [, onward] = ROUTES[(index + round + 1) % ROUTES.length] as readonly [string, string];
      const via = onward === origin || onward === destination ? "FRA" : onward;
      const passengers = { adults: 1, children: 0, infants: 0 };
      const search = await timed(samples, multiCity ? "search_multi_city" : "search", () =>
        client.post(
          "/offers",
          multiCity
            ? {
                slices: [
                  { origin, destination, departure_date: departure },
                  { origin: destination, destination: via, departure_date: day(3) },
                  { origin: via, destination: origin, departure_date: day(7) },
                ],
                passengers,
              }
            : { origin, destination, departure_date: departure, passengers },
        ),
      );
      const result = search.body?.result;
      const fares: {
        fare_id: string;
        family: string;
        penalty: { change_before_departure: { allowed: boolean } };
      }[] = (result?.origin_destinations ?? []).flatMap((od: { fares: [] }) => od.fares);
      const fare =
        multiCity && afterSaleDue
          ? fares.find((f) => f.family === "flex" && f.penalty.change_before_departure.allowed)
          : fares[0];
      const fail = (res: HttpResponse) => {
        failures++;
        const code = `${res.status} ${res.body?.errors?.[0]?.code ?? ""}`;
        failureCodes.set(code, (failureCodes.get(code) ?? 0) + 1);
      };
      if (search.status !== 200 || !fare) return fail(search);
      const booked = await timed(samples, "book", () =>
        client.post("/bookings", {
          search_result_id: result.id,
          fare_id: fare.fare_id,
          passengers: [
            {
              type: "adult",
              gender: "F",
              first_name: "Bench",
              last_name: "Traveller",
              date_of_birth: "1988-02-02",
              document: {
                type: "passport",
                number: `BN${index}${round}00`,
                issuing_country: "PL",
                nationality: "PL",
                expires_on: "2033-01-01",
              },
            },
          ],
          contacts: { email: "bench@example.com", phone: "+48221234567" },
        }),
      );
      if (booked.status !== 201) return fail(booked);
      // Instant-payment (low-cost) fares come back issued from the booking call itself.
      const issued =
        booked.body.status === "issued"
          ? booked
          : await timed(samples, "issue", () =>
              client.post("/bookings/issue", { locator: booked.body.locator }),
            );
      if (issued.status !== 201) return fail(issued);
      const read = await timed(samples, "read", () =>
        client.get(`/bookings/${booked.body.locator}`, {
          headers: { "x-min-position": issued.body.position },
        }),
      );
      if (read.status !== 200 || read.body.data.status !== "issued") return fail(read);
      if (afterSaleDue) {
        const done = await afterSale(
          client,
          booked.body.locator,
          read.body.data.actions ?? [],
          multiCity ? agent.turn : agent.turn++,
          multiCity,
        );
        if (done === "none allowed") skipped++;
        else if (done.status >= 300 || done.body?.data?.status === "issued") return fail(done);
        if (multiCity && done !== "none allowed") multiCityExchanges++;
      }
      flows++;
    };
    if (rate > 0) {
      // Open loop (--rate): a flow starts every 1/rate seconds whatever the earlier ones are doing, spread over the
      // signed-in agents, so latency is measured at a load rather than at saturation.
      const running = new Set<Promise<void>>();
      const agentsState = clients.map((_, index) => agentTurns(index));
      const begun = performance.now();
      for (let n = 0; ; n++) {
        const due = begun + (n * 1000) / rate;
        if (due >= deadline) break;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const index = n % clients.length;
        const started = flow(
          clients[index] as HttpClient,
          index,
          Math.floor(n / clients.length),
          agentsState[index] as AgentTurns,
        ).catch(() => {
          failures++;
        });
        running.add(started);
        void started.finally(() => running.delete(started));
      }
      await Promise.all(running);
    } else {
      await Promise.all(
        clients.map(async (client, index) => {
          const agent = agentTurns(index);
          for (let round = 0; performance.now() < deadline; round++) await flow(client, index, round, agent);
        }),
      );
    }
    clearTimeout(measuring);
    aroundCall = null;
    if (scraper) clearInterval(scraper);
    const elapsed = (performance.now() - started) / 1000;
    const cpuAtEnd = cpuSnapshot(appPids, postmaster, jobs?.pid ?? null);
    const flowsPerSecond = flows / elapsed;

    const mail = smtp?.received();
    console.log(
      `\nbooking-flow: ${agents} simulated agents over HTTP for ${elapsed.toFixed(1)} s after a ${warmup} s warm-up (${os.cpus().length} cores), ${processes} web process${processes > 1 ? "es" : ""}${split ? ", projectors in their own process" : ""}, ${jobs ? "jobs in their own process" : "jobs in the web process(es) (this app has no jobs role)"}; mail: ${smtp && mail ? `an SMTP sink in the load generator (${smtp.url}, ${mail.mails} mails) of ${(mail.bytes / Math.max(1, mail.mails) / 1024).toFixed(1)} KB each on average` : smtpUrl ? `SMTP ${smtpUrl}` : "no SMTP_URL (the dev outbox)"}\n`,
    );
    console.log("call            count     p50 ms   p95 ms   p99 ms");
    for (const call of calls) {
      const s = samples[call];
      if (s.length === 0) continue;
      console.log(
        `${call.padEnd(14)} ${String(s.length).padStart(6)} ${percentile(s, 50).toFixed(1).padStart(10)} ${percentile(s, 95).toFixed(1).padStart(8)} ${percentile(s, 99).toFixed(1).padStart(8)}`,
      );
    }
    console.log(`\ncomplete flows: ${flows} (${flowsPerSecond.toFixed(1)}/s), failed flows: ${failures}`);
    if (telemetry)
      console.log(
        telemetry === "on" || telemetry === "metrics"
          ? `telemetry ${telemetry}: metrics scraped ${exported.scrapes} times, ${exported.requests} OTLP exports (${Math.round(exported.bytes / 1024)} KB) received`
          : "telemetry off: METRICS_ENABLED=false, no OTEL_EXPORTER_OTLP_ENDPOINT",
      );
    if (exported.names.size > 0)
      console.log(
        `spans: ${[...exported.names]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 12)
          .map(([name, n]) => `${name} ${n}`)
          .join(", ")}`,
      );
    if (afterSalesShare > 0)
      console.log(
        `after-sales: ${calls
          .filter((c) => ["void", "refund", "exchange"].includes(c))
          .map((c) => `${samples[c].length} ${c}`)
          .join(", ")}; ${skipped} flows whose booking allowed none`,
      );
    if (multiCityShare > 0)
      console.log(
        `multi-city: ${samples.search_multi_city.length} three-slice flows of ${flows + failures}; ${multiCityExchanges} of them exchanged one slice`,
      );
    const cores = (side: keyof typeof cpuAtEnd) => (cpuAtEnd[side] - cpuAtStart[side]) / elapsed;
    const perFlow = (side: keyof typeof cpuAtEnd) =>
      flows > 0 ? ((cpuAtEnd[side] - cpuAtStart[side]) * 1000) / flows : Number.NaN;
    console.log("CPU used        cores   ms per flow");
    for (const [label, side] of [
      ["app (all)", "app"],
      ["  of it jobs", "app_jobs"],
      ["PostgreSQL", "postgres"],
      ["load generator", "generator"],
    ] as const) {
      console.log(
        `${label.padEnd(14)} ${cores(side).toFixed(2).padStart(6)} ${perFlow(side).toFixed(1).padStart(13)}`,
      );
    }
    for (const [code, n] of failureCodes) console.log(`  failure ${code}: ${n}`);
    if (perCall) printPerCall(byCall, flows);
    const perFlowStatements =
      statements && !perCall ? await printStatements(pool, database, flows, transactionsAtStart) : null;
    let perFlowCounts: Record<string, number> | null = null;
    if (proxy && perFlowStatements) {
      const wire = proxy.counts();
      const per = (n: number) => Math.round((n / flows) * 100) / 100;
      perFlowCounts = {
        statements: per(perFlowStatements.statements * flows),
        transactions: per(perFlowStatements.transactions * flows),
        round_trips: per(wire.roundTrips - wireAtStart.roundTrips),
        pg_bytes_sent: per(wire.bytesToServer - wireAtStart.bytesToServer),
        pg_bytes_received: per(wire.bytesToClient - wireAtStart.bytesToClient),
        http_responses: per(httpTraffic.responses - trafficAtStart.responses),
        http_bytes_compressed: per(httpTraffic.bodyBytes - trafficAtStart.bodyBytes),
        http_bytes_uncompressed: per(httpTraffic.decodedBytes - trafficAtStart.decodedBytes),
        events_appended: per((await eventCount(pool)) - eventsAtStart),
        // The mails the SMTP sink took in the window (sent a moment after their flows) and their bytes as sent.
        ...(smtp && mailAtStart
          ? {
              mails: per(smtp.received().mails - mailAtStart.mails),
              mail_bytes: per(smtp.received().bytes - mailAtStart.bytes),
            }
          : {}),
      };
      console.log("\ncounts per flow (no machine changes these):");
      for (const [name, value] of Object.entries(perFlowCounts)) console.log(`  ${name.padEnd(24)} ${value}`);
    }
    const turnsAtEnd = await turnsOf(app.url);
    let turns: Record<string, number> | null = null;
    if (turnsAtStart && turnsAtEnd && flows > 0) {
      const waits = turnsAtEnd.waits - turnsAtStart.waits;
      const measured = {
        waits_per_flow: waits / flows,
        mean_wait_ms: waits > 0 ? ((turnsAtEnd.seconds - turnsAtStart.seconds) * 1000) / waits : 0,
        waits_over_100ms_per_flow: (turnsAtEnd.over100ms - turnsAtStart.over100ms) / flows,
        conflicts_per_flow: (turnsAtEnd.conflicts - turnsAtStart.conflicts) / flows,
      };
      turns = measured;
      console.log(
        `\nturns at company balances (first web process): ${measured.waits_per_flow.toFixed(2)} per flow, mean wait ${measured.mean_wait_ms.toFixed(1)} ms, ${measured.waits_over_100ms_per_flow.toFixed(3)} per flow waited over 100 ms; version conflicts ${measured.conflicts_per_flow.toFixed(3)} per flow`,
      );
    }
    // One machine-readable line for `bench compare`.
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        flows_per_second: flowsPerSecond,
        flows,
        failed: failures,
        offered_rate: rate || null,
        calls: Object.fromEntries(
          calls
            .filter((call) => samples[call].length > 0)
            .map((call) => [
              call,
              {
                count: samples[call].length,
                p50: percentile(samples[call], 50),
                p99: percentile(samples[call], 99),
              },
            ]),
        ),
        cpu_ms_per_flow: {
          app: perFlow("app"),
          ...(jobs ? { app_jobs: perFlow("app_jobs") } : {}),
          postgres: perFlow("postgres"),
          generator: perFlow("generator"),
        },
        counts: perFlowCounts,
        turns,
      })}`,
    );
    const mark = (ok: boolean) => (ok ? "PASS" : "MISS");
    console.log("\ntargets:");
    console.log(
      `  search p95 < ${TARGETS.searchP95Ms} ms: ${mark(percentile(samples.search, 95) < TARGETS.searchP95Ms)}`,
    );
    console.log(
      `  book p99 < ${TARGETS.bookP99Ms} ms: ${mark(percentile(samples.book, 99) < TARGETS.bookP99Ms)}`,
    );
    console.log(
      `  issue p99 < ${TARGETS.issueP99Ms} ms: ${mark(percentile(samples.issue, 99) < TARGETS.issueP99Ms)}`,
    );
    console.log(`  flows/s >= ${TARGETS.flowsPerSecond}: ${mark(flowsPerSecond >= TARGETS.flowsPerSecond)}`);
    if (afterSalesShare > 0) {
      // Issue 10's targets for the mix with after-sales.
      const slowest = calls.filter((c) => percentile(samples[c], 99) >= AFTER_SALES_TARGETS.everyCallP99Ms);
      console.log(
        `  every call p99 < ${AFTER_SALES_TARGETS.everyCallP99Ms} ms: ${mark(slowest.length === 0)}${slowest.length ? ` (${slowest.join(", ")})` : ""}`,
      );
      console.log(
        `  flows/s with after-sales >= ${AFTER_SALES_TARGETS.flowsPerSecond}: ${mark(flowsPerSecond >= AFTER_SALES_TARGETS.flowsPerSecond)}`,
      );
      console.log(`  no failed flow: ${mark(failures === 0)}`);
    }
  } finally {
    await pool.end();
    for (const web of webs) await web.stop();
    await jobs?.stop();
    await smtp?.close();
    await proxy?.close();
    await projectors?.stop();
    if (scraper) clearInterval(scraper);
    sink?.close();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}
