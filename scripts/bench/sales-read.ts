// `npm run bench -- sales-read [--lines=1000000] [--requests=200]`: GET /sales and GET /analytics over HTTP (the real
// routes, with the app's HTTP conventions) on a sales read model of generated lines; prints p50/p95/p99 per call and
// role (target: p95 under 100 ms). Callers are set per request by a header instead of a session (no sign-in here).
// Each case also prints what its statements cost PostgreSQL (EXPLAIN ANALYZE, BUFFERS of one request): buffers
// touched and rows read by scans, figures that do not depend on the machine's load (`--plans` prints the plans). `--keep=<database>` seeds a
// database once and reuses it (with DATABASE_URL) on later runs.
import type { AddressInfo } from "node:net";
import os from "node:os";
import { Config } from "@skyward/contracts/config";
import type { UserType } from "@skyward/contracts/metadata";
import { createHttpApp } from "@skyward/infra/http/app";
import type { Principal } from "@skyward/infra/http/context";
import { Csrf } from "@skyward/infra/http/middleware";
import { createLogger } from "@skyward/infra/logger";
import { salesRoutes } from "@skyward/query-service/sales/routes";
import {
  agencyId,
  agentId,
  type BenchDatabase,
  benchDatabase,
  companyId,
  DAYS,
  option,
  percentiles,
  seedSales,
} from "../src/sales-bench-data.ts";
import { HttpClient } from "../src/testing/http-client.ts";

const principals: Record<string, Principal> = {
  admin: {
    userId: "admin",
    userType: "Admin" as UserType,
    agencyId: null,
    companyIds: [],
    demo: false,
    sessionId: null,
  },
  supervisor: {
    userId: "sup",
    userType: "Supervisor",
    agencyId: agencyId(3),
    companyIds: [],
    demo: false,
    sessionId: null,
  },
  agent: {
    userId: agentId(3, 1, 4),
    userType: "Agent",
    agencyId: agencyId(3),
    companyIds: [companyId(3, 1)],
    demo: false,
    sessionId: null,
  },
};

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

interface PlanNode {
  "Node Type": string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

/** Rows the plan's scans read (what the aggregates and indexes are there to cut), summed over the tree. */
function scannedRows(node: PlanNode): number {
  const own = /Scan/.test(node["Node Type"]) ? node["Actual Rows"] * node["Actual Loops"] : 0;
  return own + (node.Plans ?? []).reduce((n, child) => n + scannedRows(child), 0);
}

/** The pool as the routes use it, remembering the statements of the requests made while `recording`. */
function recordingPool(pool: BenchDatabase["pool"]) {
  const recorded: { text: string; values: unknown[] }[] = [];
  const state = { recording: false };
  const proxy = new Proxy(pool, {
    get(target, name, receiver) {
      if (name !== "query") return Reflect.get(target, name, receiver);
      return (text: unknown, values?: unknown[]) => {
        if (state.recording && typeof text === "string") recorded.push({ text, values: values ?? [] });
        return (target.query as (t: unknown, v?: unknown[]) => Promise<unknown>)(text, values);
      };
    },
  });
  return { proxy, recorded, state };
}

async function explain(
  pool: BenchDatabase["pool"],
  statements: { text: string; values: unknown[] }[],
  plans = false,
) {
  let buffers = 0;
  let rows = 0;
  let ms = 0;
  for (const { text, values } of statements) {
    const { rows: plan } = await pool.query<{ "QUERY PLAN": [{ Plan: PlanNode; "Execution Time": number }] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
      values,
    );
    const top = plan[0]?.["QUERY PLAN"][0];
    if (!top) continue;
    if (plans) {
      const { rows: lines } = await pool.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${text}`,
        values,
      );
      console.log(`\n${text.replace(/\s+/g, " ").slice(0, 300)}\n${JSON.stringify(values)}`);
      for (const line of lines) console.log(`  ${line["QUERY PLAN"]}`);
    }
    buffers += (top.Plan["Shared Hit Blocks"] ?? 0) + (top.Plan["Shared Read Blocks"] ?? 0);
    rows += scannedRows(top.Plan);
    ms += top["Execution Time"];
  }
  return { statements: statements.length, buffers, rows, ms };
}

export async function run(args: readonly string[]): Promise<void> {
  const lines = option(args, "lines", 1_000_000);
  const requests = option(args, "requests", 200);
  // `--plans` prints each statement's plan (EXPLAIN ANALYZE, BUFFERS), `--only=<text>` runs the cases named so.
  const plans = args.includes("--plans");
  const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length);
  const keep = args.find((a) => a.startsWith("--keep="))?.slice("--keep=".length);
  const db = await benchDatabase(keep);
  const logger = createLogger("silent");
  try {
    const seeded = performance.now();
    if (!db.reused) await seedSales(db.pool, lines);
    const { rows } = await db.pool.query<{ n: number; daily: number; routes: number }>(
      `SELECT (SELECT count(*)::int FROM read.sales) AS n, (SELECT count(*)::int FROM read.sales_daily) AS daily,
              (SELECT count(*)::int FROM read.sales_route_daily) AS routes`,
    );
    console.log(
      `Skyward sales-read benchmark: ${rows[0]?.n} sale lines over ${DAYS} days (${rows[0]?.daily} day aggregates, ` +
        `${rows[0]?.routes} route-day aggregates) generated in ${((performance.now() - seeded) / 1000).toFixed(0)} s ` +
        `(${db.label} PostgreSQL), ${os.cpus().length} CPU, Node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1)}`,
    );
    const recorder = recordingPool(db.pool);
    const config = Config.parse({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32) });
    const app = createHttpApp(
      {
        logger,
        csrf: new Csrf({ secret: "bench".repeat(8), secureCookies: false }),
        authenticate: (req, _res, next) => {
          req.context.principal = principals[req.get("x-bench-caller") ?? ""] ?? null;
          next();
        },
      },
      (a) =>
        a.use(salesRoutes({ pool: recorder.proxy, config, logger, readModels: { wait: async () => true } })),
    );
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sampleTicket =
      (
        await db.pool.query<{ d: string }>(
          "SELECT document_number AS d FROM read.sales WHERE agency_id = $1 LIMIT 1 OFFSET 500",
          [agencyId(3)],
        )
      ).rows[0]?.d ?? "";

    const cases: [string, string, string][] = [
      ["GET /sales page 1 (no filter)", "admin", "/sales?page=1&per_page=50"],
      ["GET /sales page 20 (no filter)", "admin", "/sales?page=20&per_page=50"],
      [
        "GET /sales last 30 days",
        "supervisor",
        `/sales?ticket[date_from]=${day(30)}&ticket[date_to]=${day(0)}&per_page=50`,
      ],
      ["GET /sales own company", "agent", "/sales?per_page=50"],
      ["GET /sales text: ticket number", "admin", `/sales?ticket[text]=${sampleTicket}&per_page=50`],
      ["GET /sales text: passenger", "supervisor", "/sales?ticket[text]=passenger1234/&per_page=50"],
      [
        "GET /analytics 30 days",
        "admin",
        `/analytics?analytics[date_from]=${day(30)}&analytics[date_to]=${day(0)}`,
      ],
      [
        "GET /analytics 30 days",
        "supervisor",
        `/analytics?analytics[date_from]=${day(30)}&analytics[date_to]=${day(0)}`,
      ],
      [
        "GET /analytics 30 days",
        "agent",
        `/analytics?analytics[date_from]=${day(30)}&analytics[date_to]=${day(0)}`,
      ],
      [
        "GET /analytics 365 days",
        "admin",
        `/analytics?analytics[date_from]=${day(364)}&analytics[date_to]=${day(0)}`,
      ],
    ];
    console.log(`\n${requests} requests per case, one at a time, after 10 unmeasured ones\n`);
    console.log(
      `${"case".padEnd(34)} ${"caller".padEnd(11)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)}  ${"lines".padStart(7)}  SQL: statements, buffers, rows scanned, execution ms`,
    );
    for (const [name, caller, path] of cases) {
      if (only && !`${name} ${caller}`.includes(only)) continue;
      const client = new HttpClient(base, { "x-bench-caller": caller });
      let found = 0;
      for (let i = 0; i < 10; i++) await client.get(path);
      const samples: number[] = [];
      for (let i = 0; i < requests; i++) {
        const started = performance.now();
        const res = await client.get(path);
        samples.push(performance.now() - started);
        if (res.status !== 200)
          throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
        found = res.body.meta?.total ?? res.body.data?.current?.length ?? 0;
      }
      const p = percentiles(samples);
      recorder.recorded.length = 0;
      recorder.state.recording = true;
      await client.get(path);
      recorder.state.recording = false;
      const cost = await explain(db.pool, recorder.recorded, plans);
      console.log(
        `${name.padEnd(34)} ${caller.padEnd(11)} ${p.p50.toFixed(1).padStart(8)} ${p.p95.toFixed(1).padStart(8)} ${p.p99.toFixed(1).padStart(8)}  ${String(found).padStart(7)}  ${cost.statements}, ${cost.buffers}, ${cost.rows}, ${cost.ms.toFixed(1)}`,
      );
    }
    await new Promise((resolve) => server.close(resolve));
  } finally {
    await (keep ? db.release() : db.drop());
  }
}
