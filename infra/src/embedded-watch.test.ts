// Issue 29, fault 1: an embedded PostgreSQL that dies (a crash, a full disk) is started again by the app that owns
// it, with backoff while it will not start, and its own log is kept in the data folder to read afterwards.
import { mkdtemp, readFile, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "@jest/globals";
import { createPool } from "./db.ts";
import { processIdentity, serverLogPath, startEmbeddedPostgres } from "./embedded-postgres.ts";
import { type WatchedServer, watchEmbeddedPostgres } from "./embedded-watch.ts";

let dataDir: string;
let watched: WatchedServer | undefined;

afterAll(async () => {
  await watched?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | null | false>, withinMs = 20_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe("the embedded server's watcher", () => {
  it("when the postmaster is killed, and then will not start for a while, then it is started again on the same port with backoff, the log says so, and the server's log is in the data folder", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "skyward-watch-"));
    const first = await startEmbeddedPostgres({ dataDir, fsync: false });
    const lines: string[] = [];
    watched = watchEmbeddedPostgres(first, {
      restart: () => startEmbeddedPostgres({ dataDir, port: first.port, fsync: false }),
      log: (level, message) => lines.push(`${level} ${message}`),
      checkEveryMs: 50,
      minBackoffMs: 100,
      maxBackoffMs: 400,
    });
    const pool = createPool(first.url, { max: 1 });
    pool.on("error", () => {});
    try {
      await pool.query("CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)");

      // A crash the server cannot come back from by itself: its postmaster is gone. While its configuration is
      // missing it cannot start either (as a full disk keeps crash recovery from writing its checkpoint).
      const conf = join(dataDir, "postgresql.conf");
      await rename(conf, `${conf}.away`);
      process.kill(first.pid, "SIGKILL");
      await until(
        "failed restarts",
        async () => lines.filter((l) => l.includes("did not start")).length >= 2,
      );
      expect(processIdentity(first.pid)).toBeNull();
      await expect(pool.query("SELECT 1")).rejects.toThrow();

      await rename(`${conf}.away`, conf);
      const answer = await until("the restarted server", async () => {
        const { rows } = await pool.query<{ n: number }>("SELECT n FROM kept");
        return rows;
      });
      expect(answer).toEqual([{ n: 7 }]);
      expect(watched.restarts()).toBe(1);
      expect(watched.current().port).toBe(first.port);
      expect(watched.current().pid).not.toBe(first.pid);
      expect(lines[0]).toMatch(new RegExp(`^error PostgreSQL \\(pid ${first.pid}\\) stopped unexpectedly`));
      const waits = lines
        .filter((l) => l.includes("did not start"))
        .map((l) => Number(/again in (\d+) ms/.exec(l)?.[1]));
      expect(waits.slice(0, 3)).toEqual([100, 200, 400].slice(0, Math.min(3, waits.length)));
      expect(lines.at(-1)).toMatch(/^info PostgreSQL started again \(pid \d+, port \d+\) after \d+ attempts/);

      // The server's own words survive it: both starts wrote to the log in the data folder.
      const log = await readFile(serverLogPath(dataDir), "utf8");
      expect(log.match(/database system is ready to accept connections/g)?.length).toBe(2);
    } finally {
      await pool.end();
    }
  }, 60_000);
});
