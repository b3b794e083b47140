// The flow benchmark's app as deployed (issue 26): --processes=N web processes, the jobs process beside them, and an
// SMTP sink by default, every process's CPU counted; a short run over real HTTP and PostgreSQL.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";

const root = fileURLToPath(new URL("../..", import.meta.url));

function bench(args: readonly string[]): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: process.env.SKYWARD_TEST_SERVER_URL };
  delete env.NODE_OPTIONS;
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/bench/index.ts", "booking-flow", ...args],
    {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, out })));
}

describe("the flow benchmark's processes", () => {
  it("when run with --processes=2, then two web processes and the jobs process serve the flows, the itinerary mails reach the bench's SMTP sink, and the jobs process's CPU is counted in the app's", async () => {
    // 12 s: the itinerary mails go a sweep's batch at a time from a jobs process that runs at a lower priority, so on
    // a machine the whole suite loads the first batch can come later than a shorter run ends (7 s failed once, ci21).
    const { code, out } = await bench(["--agents=4", "--seconds=12", "--warmup=2", "--processes=2"]);
    expect({ code, tail: out.slice(-2000) }).toMatchObject({ code: 0 });
    expect(out).toMatch(
      /2 web processes, jobs in their own process; mail: an SMTP sink in the load generator/,
    );
    const mails = Number(/\((smtp:\/\/[^,]+), (\d+) mails\)/.exec(out)?.[2]);
    expect(mails).toBeGreaterThan(0);
    const result = JSON.parse(/^BENCH_RESULT (.*)$/m.exec(out)?.[1] ?? "null") as {
      flows: number;
      failed: number;
      cpu_ms_per_flow: { app: number; app_jobs: number };
    };
    expect(result.flows).toBeGreaterThan(0);
    expect(result.failed).toBe(0);
    expect(result.cpu_ms_per_flow.app_jobs).toBeGreaterThan(0);
    expect(result.cpu_ms_per_flow.app).toBeGreaterThan(result.cpu_ms_per_flow.app_jobs);
  }, 240_000);
});
