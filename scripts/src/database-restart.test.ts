// Database faults (issue 8, item 6): the command process and the projectors process stay up while their
// PostgreSQL is restarted and killed under load, readiness says so, and the read models catch up by themselves.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import type { FeedPosition } from "@skyward/contracts/position";
import { createPool, type Pool, withDatabase } from "@skyward/infra/db";
import { type EmbeddedServer, startEmbeddedPostgres } from "@skyward/infra/embedded-postgres";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { waitForReadModels } from "@skyward/infra/projections/read-your-writes";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { projections } from "@skyward/projectors/index";
import { type Skyward, startSkyward } from "./app.ts";
import { HttpClient } from "./testing/http-client.ts";

const USERS = ["admin@skyward.test", "agent@vistula.test", "agent@dnipro.test", "supervisor@dnipro.test"];
const LANGUAGES = ["en", "fr", "pl", "es", "ua"] as const;

let dataDir: string;
let server: EmbeddedServer;
let databaseUrl: string;
let command: Skyward;
let reader: Skyward;
let pool: Pool;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "skyward-restart-pg-"));
  server = await startEmbeddedPostgres({ dataDir, fsync: false });
  const admin = createPool(server.url, { max: 1 });
  await admin.query("CREATE DATABASE skyward");
  await admin.end();
  databaseUrl = withDatabase(server.url, "skyward");
  const env = { SESSION_SECRET: "a-shared-secret-of-at-least-32-characters!" };
  // The production split: the reader's projectors hear the command process through LISTEN/NOTIFY.
  command = await startSkyward({
    databaseUrl,
    port: 0,
    logLevel: "silent",
    env,
    roles: ["command", "jobs"],
    seedDemo: true,
  });
  reader = await startSkyward({
    databaseUrl,
    port: 0,
    logLevel: "silent",
    env,
    roles: ["query", "projectors"],
    seedDemo: false,
  });
  pool = createPool(databaseUrl, { max: 2 });
});

afterAll(async () => {
  await command?.stop();
  await reader?.stop();
  await pool?.end();
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Commands from several signed-in users until stopped, counting answers by class. */
function load(clients: HttpClient[]) {
  const counts = { ok: 0, failed: 0, unreachable: 0, failedStatuses: new Set<number>() };
  let running = true;
  const workers = clients.map(async (client, i) => {
    for (let n = i; running; n++) {
      try {
        const res = await client.put("/account/details/update_locale", {
          language: LANGUAGES[n % LANGUAGES.length],
        });
        if (res.status === 200) counts.ok++;
        else {
          counts.failed++;
          counts.failedStatuses.add(res.status);
          await sleep(20); // the database is down: no need to spin
        }
      } catch {
        counts.unreachable++; // the HTTP server itself did not answer
      }
    }
  });
  return {
    counts,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

async function ready(app: Skyward): Promise<number> {
  return (await new HttpClient(app.url).get("/ready")).status;
}

/** Milliseconds until `check` holds, polling every 20 ms; fails after 20 s. */
async function until(what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > 20_000) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
  return Math.round(performance.now() - started);
}

async function feedHead(): Promise<FeedPosition> {
  const { rows } = await pool.query<{ tx: string; gp: string }>(
    `SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  const row = rows[0];
  if (!row) throw new Error("no events");
  return { tx: BigInt(row.tx), gp: BigInt(row.gp) };
}

/** Every read model as served (through its view), each row as text, sorted. */
async function readModels(): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const projection of projections)
    for (const table of projection.tables) {
      const { rows } = await pool.query<{ row: string }>(
        `SELECT t::text AS row FROM read."${table}" t ORDER BY 1`,
      );
      tables[table] = rows.map((r) => r.row);
    }
  return tables;
}

// About 30 s (a server start, stop, kill and two restarts); the limit leaves room for a loaded machine.
describe("PostgreSQL restarted and killed under load", () => {
  it("when the server is restarted and then killed, then both processes stay up, readiness reports it, and the read models catch up and equal a full rebuild", async () => {
    const clients = await Promise.all(
      USERS.map(async (email) => {
        const client = new HttpClient(command.url);
        expect((await client.signInWithPassword(email, DEMO_PASSWORD)).status).toBe(200);
        return client;
      }),
    );
    expect([await ready(command), await ready(reader)]).toEqual([200, 200]);
    const traffic = load(clients);
    await sleep(1000);
    const beforeFaults = traffic.counts.ok;
    const measured: Record<string, number> = {};

    // 1. A clean restart (fast shutdown) on the same port.
    await server.stop();
    measured.notReadyAfterStop = await until("readiness reports the database gone", async () => {
      const [a, b] = [await ready(command), await ready(reader)];
      return a === 503 && b === 503;
    });
    await sleep(500);
    server = await startEmbeddedPostgres({ dataDir, port: server.port, fsync: false });
    measured.readyAfterRestart = await until("both processes are ready again", async () => {
      const [a, b] = [await ready(command), await ready(reader)];
      return a === 200 && b === 200;
    });
    const afterRestart = traffic.counts.ok;
    measured.commandsAfterRestart = await until(
      "commands succeed again",
      async () => traffic.counts.ok > afterRestart + 20,
    );

    // 2. kill -9 of the postmaster: no shutdown at all, connections cut.
    process.kill(server.pid, "SIGKILL");
    measured.notReadyAfterKill = await until("readiness reports the database gone", async () => {
      const [a, b] = [await ready(command), await ready(reader)];
      return a === 503 && b === 503;
    });
    const notReady = await new HttpClient(reader.url).get("/ready");
    expect(notReady.body.errors[0]).toMatchObject({ status: "503", code: "not_ready" });
    expect(notReady.body.meta.database.ok).toBe(false);
    const killedAt = performance.now();
    server = await startEmbeddedPostgres({ dataDir, port: server.port, fsync: false });
    measured.serverStartAfterKill = Math.round(performance.now() - killedAt);
    measured.readyAfterKill = await until("both processes are ready again", async () => {
      const [a, b] = [await ready(command), await ready(reader)];
      return a === 200 && b === 200;
    });
    const afterKill = traffic.counts.ok;
    measured.commandsAfterKill = await until(
      "commands succeed again",
      async () => traffic.counts.ok > afterKill + 20,
    );
    await sleep(500);
    await traffic.stop();
    // A database that is down is the server's trouble, answered as such: 503, never 500.
    expect([...traffic.counts.failedStatuses]).toEqual(traffic.counts.failed > 0 ? [503] : []);

    // The reader's projectors lead again; each process's wake-up listener is back, on one connection each.
    await until("every projector leads again", async () => reader.runners.every((r) => r.isLeader));
    // A listener reconnects on its own schedule, after the pool's: waited for, not sampled.
    const listeners = async () =>
      (
        await pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'skyward-wakeup'",
        )
      ).rows[0]?.n;
    await until("each process's wake-up listener is back", async () => (await listeners()) === 2);
    await sleep(300);
    expect(await listeners()).toBe(2);
    const readiness = (await new HttpClient(reader.url).get("/ready")).body;
    expect(readiness).toMatchObject({ status: "ready", database: { ok: true } });
    expect(readiness.projectors).toHaveLength(projections.length);
    expect(
      readiness.projectors.every((p: { leader: boolean; failing: unknown }) => p.leader && !p.failing),
    ).toBe(true);

    // Caught up with every event, and equal to what a full rebuild from the event store builds.
    const names = projections.map((p) => p.name);
    expect(await waitForReadModels(pool, names, await feedHead(), 10_000)).toBe(true);
    await reader.stop();
    const live = await readModels();
    const store = new EventStore(pool);
    for (const projection of projections) await rebuildProjection(pool, store, projection);
    expect(await readModels()).toEqual(live);

    expect(beforeFaults).toBeGreaterThan(0);
    expect(traffic.counts.ok).toBeGreaterThan(afterKill + 20);
    expect(traffic.counts.unreachable).toBe(0);
    console.log(`database restart test: ${JSON.stringify({ ...measured, ...traffic.counts })}`);
  }, 120_000);
});
