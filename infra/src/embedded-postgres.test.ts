import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "@jest/globals";
import { EmbeddedServerRecord } from "@skyward/contracts/config";
import { createPool } from "./db.ts";
import {
  type EmbeddedServer,
  findEmbeddedPostgres,
  processIdentity,
  RECORD_FILE,
  startEmbeddedPostgres,
} from "./embedded-postgres.ts";

const folders: string[] = [];
const servers: EmbeddedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
});

/** A data folder of its own (the folder itself: its parent must stay traversable by user postgres). */
async function dataFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "skyward-embedded-"));
  folders.push(dir);
  return dir;
}

async function start(dataDir: string, notice?: (m: string) => void): Promise<EmbeddedServer> {
  const server = await startEmbeddedPostgres({ dataDir, fsync: false, ...(notice ? { notice } : {}) });
  servers.push(server);
  return server;
}

async function answers(url: string): Promise<boolean> {
  const pool = createPool(url, { max: 1 });
  try {
    await pool.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await pool.end();
  }
}

/** Starts a server on `dataDir` from another Node process, as `npm start` does; resolves once it runs. */
async function startInChild(dataDir: string) {
  const launcher = fileURLToPath(new URL("./embedded-postgres.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const { startEmbeddedPostgres } = await import(${JSON.stringify(launcher)});
       const s = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, fsync: false });
       console.log(JSON.stringify({ port: s.port, pid: s.pid }));
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const started = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line));
    });
    child.once("exit", (code) => reject(new Error(`the launcher exited with ${code}`)));
  });
  return { child, ...started };
}

describe("the embedded PostgreSQL launcher", () => {
  it("when started on a data folder, stopped and started again, then the data is still there and the folder private", async () => {
    const dataDir = await dataFolder();
    const first = await startEmbeddedPostgres({ dataDir, fsync: false });
    let pool = createPool(first.url, { max: 1 });
    await pool.query("CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)");
    await pool.end();
    await first.stop();
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);

    const second = await start(dataDir);
    pool = createPool(second.url, { max: 1 });
    const { rows } = await pool.query("SELECT n FROM kept");
    await pool.end();
    expect(rows).toEqual([{ n: 42 }]);
  });

  it("when started, then it runs on a free port recorded in its data folder, where it is found; once stopped, it is not", async () => {
    const [one, two] = [await dataFolder(), await dataFolder()];
    const first = await start(one);
    const second = await start(two);
    expect(first.port).not.toBe(second.port);
    const record = EmbeddedServerRecord.parse(JSON.parse(await readFile(join(one, RECORD_FILE), "utf8")));
    expect(record).toMatchObject({ port: first.port, pid: first.pid, owner: { pid: process.pid } });
    expect(await findEmbeddedPostgres(one)).toEqual({
      url: first.url,
      port: first.port,
      pid: first.pid,
      owner: process.pid,
    });
    expect(await answers(first.url)).toBe(true);

    await first.stop();
    expect(await findEmbeddedPostgres(one)).toBeNull();
    expect(await findEmbeddedPostgres(two)).toMatchObject({ port: second.port, owner: process.pid });
  });

  it("when a folder's server is in use by a live process, then another start on that folder is refused and it keeps running", async () => {
    const dataDir = await dataFolder();
    const running = await start(dataDir);
    await expect(startEmbeddedPostgres({ dataDir, fsync: false })).rejects.toThrow(
      `already runs on port ${running.port} for process ${process.pid}`,
    );
    expect(await answers(running.url)).toBe(true);
  });

  it("when the process that started a server was killed, then the next start stops that orphan and runs its own, leaving other folders' servers alone", async () => {
    const [orphaned, other] = [await dataFolder(), await dataFolder()];
    const bystander = await start(other);
    const launcher = await startInChild(orphaned);
    const exited = new Promise((resolve) => launcher.child.once("exit", resolve));
    launcher.child.kill("SIGKILL");
    await exited;
    expect(processIdentity(launcher.pid)).not.toBeNull();
    expect(await findEmbeddedPostgres(orphaned)).toMatchObject({ pid: launcher.pid, owner: null });

    const notices: string[] = [];
    const restarted = await start(orphaned, (m) => notices.push(m));
    expect(notices).toEqual([
      `stopped an orphaned PostgreSQL (pid ${launcher.pid}) left running on ${orphaned}`,
    ]);
    expect(processIdentity(launcher.pid)).toBeNull();
    expect(await findEmbeddedPostgres(orphaned)).toMatchObject({ pid: restarted.pid, owner: process.pid });
    expect(await answers(restarted.url)).toBe(true);
    expect(await answers(bystander.url)).toBe(true);
    expect(await findEmbeddedPostgres(other)).toMatchObject({ pid: bystander.pid, owner: process.pid });
  });

  it("when the starter of a server was killed but another program still works on it, then a start refuses to stop it; once that program is done, the start proceeds", async () => {
    const dataDir = await dataFolder();
    const launcher = await startInChild(dataDir);
    const orphan = await findEmbeddedPostgres(dataDir);
    if (!orphan) throw new Error("no server");
    // An app given the server's URL (DATABASE_URL), holding a connection.
    const app = createPool(orphan.url, { max: 1 });
    await app.query("SELECT 1");
    const exited = new Promise((resolve) => launcher.child.once("exit", resolve));
    launcher.child.kill("SIGKILL");
    await exited;

    await expect(startEmbeddedPostgres({ dataDir, fsync: false })).rejects.toThrow(
      `outlived the process that started it, but 1 connection(s) still use it`,
    );
    expect(processIdentity(launcher.pid)).not.toBeNull();
    expect((await app.query<{ n: number }>("SELECT 1 AS n")).rows[0]?.n).toBe(1);

    await app.end();
    const restarted = await start(dataDir);
    expect(processIdentity(launcher.pid)).toBeNull();
    expect(await answers(restarted.url)).toBe(true);
  });
});
