// `npm run ai-eval -- --table=<path> [--json] [--scores-only]`: scores the AI admin assistant or the text search on
// an evaluation table (issue 25). Starts the all-in-one app in-process on a fresh embedded PostgreSQL of its own
// with the demo world, its clock on the table's "today", signs in as each row's asker, posts each row to the real
// endpoint (`POST /admin_panel/ask`, `POST /text_search`) and compares the answer with the row's expectation by the
// rules of compare.ts. Prints exact-match % per feature, language, answer kind and rule, and the count of plans on an
// entity the request did not name. A held-back table prints scores only (no row's text or answer).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { DEMO_PASSWORD, demoUsers } from "@skyward/command-service/world/demo-world";
import { createPool, withDatabase } from "@skyward/infra/db";
import { type EmbeddedServer, startEmbeddedPostgres } from "@skyward/infra/embedded-postgres";
import { HttpClient } from "../src/testing/http-client.ts";
import {
  type AssistantRow,
  compareAssistant,
  compareSearch,
  type SearchRow,
  type Verdict,
} from "./compare.ts";

interface Table {
  feature: "assistant" | "search";
  half: string;
  today: string;
  rows: (AssistantRow & SearchRow)[];
}

const args = process.argv.slice(2);
const tablePath = args.find((a) => a.startsWith("--table="))?.slice("--table=".length);
if (!tablePath) {
  console.error("usage: npm run ai-eval -- --table=<path> [--json] [--scores-only]");
  process.exit(2);
}
const asJson = args.includes("--json");
const table = JSON.parse(await readFile(tablePath, "utf8")) as Table;
const scoresOnly = args.includes("--scores-only") || table.half !== "tune";

// The process's clock on the table's today, at this moment's time of day, as scripts/src/testing/shifted-clock.ts
// shifts a test's (every reader of the time sees it: the routes, sessions, the sign-in codes): relative dates
// ("tomorrow", "on Christmas Eve") then have one right answer whenever the table is scored. The database keeps its
// own clock: sessions (14 days) outlive the shift only while the real date is at most two weeks past the table's.
const DAY_MS = 86_400_000;
const offsetMs = Date.parse(`${table.today}T00:00:00Z`) - (Date.now() - (Date.now() % DAY_MS));
process.env.TEST_SHIFT_CLOCK_MS = String(offsetMs);
// By its URL, as child-command-process.ts preloads it: a script with no exports, run for its effect.
await import(new URL("../src/testing/shifted-clock.ts", import.meta.url).href);
const { startSkyward } = await import("../src/app.ts");

process.env.DEV_MAILBOX ??= "true";
const dataDir = process.env.DATABASE_URL ? null : await mkdtemp(join(os.tmpdir(), "skyward-ai-eval-"));
let server: EmbeddedServer | null = null;
const log = (line: string) => (asJson ? process.stderr : process.stdout).write(`${line}\n`);

try {
  server = dataDir ? await startEmbeddedPostgres({ dataDir }) : null;
  const serverUrl = process.env.DATABASE_URL ?? server?.url ?? "";
  const database = `ai_eval_${Date.now()}`;
  const admin = createPool(serverUrl, { max: 1 });
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const app = await startSkyward({
    databaseUrl: withDatabase(serverUrl, database),
    port: 0,
    host: "127.0.0.1",
    seedDemo: true,
    logLevel: "silent",
  });
  try {
    const clients = new Map<string, HttpClient>();
    const clientOf = async (role: string) => {
      const known = clients.get(role);
      if (known) return known;
      const user = demoUsers.find((u) => u.key === role);
      if (!user) throw new Error(`row asker ${role} is not a demo-world user`);
      const client = new HttpClient(app.url);
      if (user.password) await client.signInWithPassword(user.email, DEMO_PASSWORD);
      else await client.signIn(user.email);
      clients.set(role, client);
      return client;
    };
    const results: { row: Table["rows"][number]; status: number; body: unknown; verdict: Verdict }[] = [];
    for (const row of table.rows) {
      // A search row may leave its asker out: the search is every signed-in user's, asked as the demo agent.
      const client = await clientOf(row.role ?? (table.feature === "search" ? "dnipro-agent" : ""));
      const res =
        table.feature === "assistant"
          ? await client.post("/admin_panel/ask", { text: row.text, locale: row.language })
          : await client.post("/text_search", { text: row.text, language: row.language, today: row.today });
      const verdict =
        table.feature === "assistant"
          ? compareAssistant(row, res.status, res.body)
          : compareSearch(row, res.status, res.body);
      results.push({ row, status: res.status, body: res.body, verdict });
    }
    report(results);
  } finally {
    await app.stop();
  }
} finally {
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

function report(results: { row: Table["rows"][number]; status: number; body: unknown; verdict: Verdict }[]) {
  const groups = (key: (r: (typeof results)[number]) => string[]) => {
    const by = new Map<string, { exact: number; total: number }>();
    for (const r of results)
      for (const k of key(r)) {
        const g = by.get(k) ?? { exact: 0, total: 0 };
        g.total++;
        if (r.verdict.exact) g.exact++;
        by.set(k, g);
      }
    return Object.fromEntries(
      [...by]
        .toSorted(([a], [b]) => a.localeCompare(b))
        .map(([k, g]) => [k, { ...g, percent: Math.round((1000 * g.exact) / g.total) / 10 }]),
    );
  };
  const exact = results.filter((r) => r.verdict.exact).length;
  const summary = {
    feature: table.feature,
    table: tablePath,
    half: table.half,
    today: table.today,
    rows: results.length,
    exact,
    percent: Math.round((1000 * exact) / results.length) / 10,
    per_language: groups((r) => [r.row.language]),
    per_kind: groups((r) => [
      r.row.expect.kind === "search" && r.row.requires ? "search (multi-city)" : r.row.expect.kind,
    ]),
    per_rule: groups((r) => r.row.rules ?? []),
    answered_kinds: Object.fromEntries(
      [...new Set(results.map((r) => r.verdict.kind))].map((k) => [
        k,
        results.filter((r) => r.verdict.kind === k).length,
      ]),
    ),
    plans_on_unnamed_entity: results.filter((r) => r.verdict.unnamedTarget).length,
  };
  const rows = scoresOnly
    ? undefined
    : results.map((r) => ({
        id: r.row.id,
        exact: r.verdict.exact,
        kind: r.verdict.kind,
        why: r.verdict.why,
        text: r.row.text,
        status: r.status,
        answer: r.body,
      }));
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ ...summary, ...(rows ? { rows } : {}) }, null, 1)}\n`);
    return;
  }
  const line = (label: string, g: Record<string, { exact: number; total: number; percent: number }>) =>
    `${label.padEnd(10)} ${Object.entries(g)
      .map(([k, v]) => `${k} ${v.percent}% (${v.exact}/${v.total})`)
      .join(", ")}`;
  log(`${summary.feature} on ${summary.table} (${summary.half}, today ${summary.today})`);
  log(`exact      ${summary.percent}% (${exact}/${results.length})`);
  log(line("language", summary.per_language));
  log(line("kind", summary.per_kind));
  log(line("rule", summary.per_rule));
  log(
    `answered   ${Object.entries(summary.answered_kinds)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
  );
  if (table.feature === "assistant")
    log(`plans on an entity the request did not name: ${summary.plans_on_unnamed_entity}`);
  if (rows)
    for (const r of rows.filter((x) => !x.exact))
      log(`  ✗ ${r.id} ${JSON.stringify(r.text)}\n      ${r.why.join("\n      ")}`);
}
