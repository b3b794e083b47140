// Replays say they are alive (issue 14): the process running one heartbeats its run, so when that process is killed
// (SIGKILL, a real child process) the run reads as failed within the timeout and the projection can be replayed
// again at once, instead of being held for an hour. A slow replay whose process lives is not given up on.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { ReplayRun } from "@skyward/contracts/replay";
import { ABANDONED_ERROR, queueReplayRun } from "@skyward/infra/audit/replay-runs";
import { holdBooking } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

const entry = fileURLToPath(new URL("./testing/replay-process.ts", import.meta.url));
/** infra/src/audit/replay-runs.ts RUNNING_TIMEOUT, and the heartbeat's own period on top of it. */
const TIMEOUT_MS = 30_000;
const HEARTBEAT_MS = 5_000;

let t: TestApp;
let admin: HttpClient;
let child: ChildProcess | null = null;

beforeAll(async () => {
  t = await startTestApp();
  admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
  // Something for the bookings replay to apply.
  const agent = t.client();
  await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
  await holdBooking(agent);
}, 180_000);
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await t.stop();
});

async function run(id: string): Promise<ReplayRun> {
  const res = await admin.get(`/audit/replays/${id}`);
  expect(res.status).toBe(200);
  return ReplayRun.parse(res.body.data);
}

/** Starts the replay of a queued run in a process of its own; resolves once the replay is applying events. */
async function replayInChild(runId: string): Promise<ChildProcess> {
  const started = spawn(process.execPath, ["--import", "tsx", entry], {
    env: { ...process.env, DATABASE_URL: t.db.url, RUN_ID: runId, PROJECTION: "bookings", NODE_OPTIONS: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    started.once("exit", (code) => reject(new Error(`replay process exited with ${code}`)));
    createInterface({ input: started.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      if (line.startsWith('{"running"')) resolve();
    });
  });
  return started;
}

const heartbeat = async (id: string) =>
  (
    await t.db.pool.query<{ at: Date }>("SELECT heartbeat_at AS at FROM app.replay_runs WHERE id = $1", [id])
  ).rows[0]?.at.getTime() ?? 0;

describe("replay liveness", () => {
  it("when the process running a replay is killed, then the run reads as failed within the timeout and a new replay of the projection starts and agrees; while it lived, it was running past the timeout", async () => {
    const queued = await queueReplayRun(t.db.pool, {
      projection: "bookings",
      kind: "compare",
      startedBy: "replay-liveness-test",
    });
    child = await replayInChild(queued.id);
    const claimed = Date.now();

    // Alive and slow: longer than the timeout, it still reads as running, its heartbeat fresh.
    const firstBeat = await heartbeat(queued.id);
    await sleep(TIMEOUT_MS + HEARTBEAT_MS);
    expect((await run(queued.id)).status).toBe("running");
    expect(await heartbeat(queued.id)).toBeGreaterThan(firstBeat);
    // The projection is held meanwhile: a second replay is refused.
    const held = await admin.post("/audit/replays", { projection: "bookings" });
    expect([held.status, held.body.errors?.[0]?.code]).toEqual([409, "replay_running"]);
    expect(Date.now() - claimed).toBeGreaterThan(TIMEOUT_MS);

    const exited = new Promise((resolve) => child?.once("exit", resolve));
    process.kill(child.pid as number, "SIGKILL");
    await exited;
    const killed = Date.now();

    let seen = await run(queued.id);
    while (seen.status === "running" && Date.now() - killed < TIMEOUT_MS + 2 * HEARTBEAT_MS) {
      await sleep(250);
      seen = await run(queued.id);
    }
    const after = Date.now() - killed;
    expect(seen).toMatchObject({ status: "failed", error: ABANDONED_ERROR });
    expect(seen.finished_at).not.toBeNull();
    // At most the timeout after the last heartbeat, which came before the kill (plus the polling's slack).
    expect(after).toBeLessThanOrEqual(TIMEOUT_MS + 1_000);

    // The projection is free: a replay from the screen starts, runs in this app's job runner, and agrees.
    const again = await admin.post("/audit/replays", { projection: "bookings" });
    expect(again.status).toBe(202);
    let next = ReplayRun.parse(again.body.data);
    for (let i = 0; i < 600 && !["done", "failed"].includes(next.status); i++) {
      await sleep(100);
      next = await run(next.id);
    }
    expect(next).toMatchObject({ status: "done", projection: "bookings" });
    expect(next.report?.agree).toBe(true);
    // The dead run is now recorded as failed, not only read as such.
    const { rows } = await t.db.pool.query("SELECT status, error FROM app.replay_runs WHERE id = $1", [
      queued.id,
    ]);
    expect(rows[0]).toEqual({ status: "failed", error: ABANDONED_ERROR });
  }, 180_000);
});
