// `npm run bench -- compare --base=<commit> [--pairs=3] [--bench=booking-flow] [-- <bench args>]` (issue 26):
// speed as a ratio to a frozen commit, measured in the same minutes on the same machine. The base commit is checked
// out in a temporary worktree (kept for the next comparison, keyed by its hash) and installed with `npm ci`; the same
// load generator, this checkout's, then measures the base's app and this checkout's app alternately (base first in
// odd pairs, current first in even ones, so a drift of the machine falls on both sides), each on a fresh database.
// It prints every run, the medians and the ratios current / base: flows/s, CPU per flow by process, p99 per call,
// and the per-flow counts when the bench args include --counts.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

interface BenchResult {
  flows_per_second: number;
  flows: number;
  failed: number;
  calls: Record<string, { count: number; p50: number; p99: number }>;
  cpu_ms_per_flow: Record<string, number>;
  counts: Record<string, number> | null;
  /** Turns at company balances and version conflicts (absent in a base without the metric). */
  turns?: Record<string, number> | null;
}

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();

/** The base commit's worktree, checked out and installed once per commit. */
function baseWorktree(commit: string): string {
  const dir = join(os.tmpdir(), `skyward-bench-base-${commit.slice(0, 12)}`);
  const ready = join(dir, ".bench-ready");
  if (existsSync(ready)) return dir;
  if (!existsSync(dir)) git("worktree", "add", "--detach", dir, commit);
  console.log(`installing ${commit.slice(0, 12)} in ${dir} (npm ci)…`);
  execFileSync("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  writeFileSync(ready, `${new Date().toISOString()}\n`);
  return dir;
}

/** Runs one benchmark against the app in `appDir`, echoing its output, and returns its BENCH_RESULT line. */
function runOnce(bench: string, args: readonly string[], appDir: string): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "scripts/bench/index.ts", bench, ...args, `--app-dir=${appDir}`],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
      if (code !== 0 || !line) {
        process.stdout.write(out);
        reject(new Error(`${bench} exited with ${code}${line ? "" : " and no BENCH_RESULT line"}`));
      } else resolve(JSON.parse(line.slice("BENCH_RESULT ".length)) as BenchResult);
    });
  });
}

const median = (values: readonly number[]) => {
  const sorted = [...values].filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Every figure compare reports, by name, from one run. */
function figures(result: BenchResult): Map<string, number> {
  const out = new Map<string, number>([
    ["flows/s", result.flows_per_second],
    ["failed flows", result.failed],
  ]);
  for (const [side, ms] of Object.entries(result.cpu_ms_per_flow)) out.set(`CPU ms/flow ${side}`, ms);
  for (const [call, stats] of Object.entries(result.calls)) out.set(`p99 ms ${call}`, stats.p99);
  for (const [name, value] of Object.entries(result.counts ?? {})) out.set(`per flow ${name}`, value);
  for (const [name, value] of Object.entries(result.turns ?? {})) out.set(`turns ${name}`, value);
  return out;
}

export async function run(argv: readonly string[]): Promise<void> {
  const split = argv.indexOf("--");
  const own = split >= 0 ? argv.slice(0, split) : argv;
  const benchArgs = split >= 0 ? argv.slice(split + 1) : [];
  const option = (name: string) => own.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const baseRef = option("base");
  if (!baseRef)
    throw new Error("usage: npm run bench -- compare --base=<commit> [--pairs=3] [-- <bench args>]");
  const pairs = Number(option("pairs") ?? 3);
  const bench = option("bench") ?? "booking-flow";
  const base = git("rev-parse", `${baseRef}^{commit}`);
  const head = git("rev-parse", "HEAD");
  const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
  const baseDir = baseWorktree(base);
  const sides = { base: baseDir, current: process.cwd() } as const;
  const runs: { side: keyof typeof sides; pair: number; result: BenchResult }[] = [];
  console.log(
    `compare ${bench} ${benchArgs.join(" ")}: base ${base.slice(0, 12)} vs current ${head.slice(0, 12)}${dirty ? " (with uncommitted changes)" : ""}, ${pairs} pairs, ${os.cpus().length} cores`,
  );
  for (let pair = 0; pair < pairs; pair++) {
    const order: (keyof typeof sides)[] = pair % 2 === 0 ? ["base", "current"] : ["current", "base"];
    for (const side of order) {
      const result = await runOnce(bench, benchArgs, sides[side]);
      runs.push({ side, pair, result });
      const p99s = Object.entries(result.calls)
        .map(([call, s]) => `${call} ${s.p99.toFixed(0)}`)
        .join(", ");
      console.log(
        `run ${runs.length} pair ${pair + 1} ${side.padEnd(7)}: ${result.flows_per_second.toFixed(1)} flows/s, ${result.failed} failed, CPU ms/flow app ${result.cpu_ms_per_flow.app?.toFixed(1)} postgres ${result.cpu_ms_per_flow.postgres?.toFixed(1)}; p99 ms ${p99s}`,
      );
    }
  }
  const names = [...new Set(runs.flatMap((r) => [...figures(r.result).keys()]))];
  const medianOf = (side: keyof typeof sides, name: string) =>
    median(runs.filter((r) => r.side === side).map((r) => figures(r.result).get(name) ?? Number.NaN));
  console.log(
    `\n${"figure".padEnd(34)}${"base".padStart(12)}${"current".padStart(12)}${"ratio".padStart(9)}`,
  );
  for (const name of names) {
    const b = medianOf("base", name);
    const c = medianOf("current", name);
    const ratio = b > 0 ? (c / b).toFixed(2) : "-";
    console.log(
      `${name.padEnd(34)}${b.toFixed(2).padStart(12)}${c.toFixed(2).padStart(12)}${ratio.padStart(9)}`,
    );
  }
  console.log("(medians of each side's runs; ratio = current / base)");
}
