import { type EmbeddedServer, findEmbeddedPostgres, processIdentity } from "./embedded-postgres.ts";

export interface WatchOptions {
  /** Starts the server again on the same data folder and port (the app's connections name that port). */
  restart: () => Promise<EmbeddedServer>;
  /** Told what happened: a death, each failed attempt, the restart. */
  log: (level: "warn" | "error" | "info", message: string) => void;
  /** How often the postmaster is looked for (default 1 s). */
  checkEveryMs?: number;
  /**
   * The wait after the first failed restart, doubled after each further one up to `maxBackoffMs` (0.5 s, 5 s): a
   * failed start costs a fraction of a second, and the server should be back soon after the disk is freed.
   */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface WatchedServer {
  /** The server running now (a new one after each restart). */
  current(): EmbeddedServer;
  /** Restarts so far. */
  restarts(): number;
  /** Stops watching, then stops the server. */
  stop(): Promise<void>;
}

/**
 * Keeps the embedded PostgreSQL of the process that owns it running: when its postmaster dies (a crash, a full disk
 * whose crash recovery could not write its checkpoint, a kill), it is started again on the same folder and port,
 * with backoff while it will not start, and each step is logged. Connections are the pool's business: they fail
 * with 503 meanwhile and are replaced once it answers.
 */
export function watchEmbeddedPostgres(server: EmbeddedServer, options: WatchOptions): WatchedServer {
  const checkEveryMs = options.checkEveryMs ?? 1000;
  const minBackoffMs = options.minBackoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 5000;
  let current = server;
  let restarts = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let recovering: Promise<void> | null = null;
  // Ends a backoff wait at once when the watch stops.
  let wake = () => {};

  const recover = async () => {
    const died = current.pid;
    options.log(
      "error",
      `PostgreSQL (pid ${died}) stopped unexpectedly; starting it again on port ${current.port}`,
    );
    // Lets go of what the dead one held (its log file, its record), so the new one starts clean.
    await current
      .stop()
      .catch((error: Error) =>
        options.log("warn", `Letting go of the dead PostgreSQL failed: ${error.message}`),
      );
    for (let attempt = 1; !stopped; attempt++) {
      try {
        current = await options.restart();
        restarts++;
        options.log(
          "info",
          `PostgreSQL started again (pid ${current.pid}, port ${current.port}) after ${attempt} attempt${attempt > 1 ? "s" : ""}`,
        );
        return;
      } catch (error) {
        const waitMs = Math.min(maxBackoffMs, minBackoffMs * 2 ** (attempt - 1));
        options.log(
          "error",
          `PostgreSQL did not start again (attempt ${attempt}); trying again in ${waitMs} ms: ${(error as Error).message}`,
        );
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, waitMs);
        });
      }
    }
  };

  /**
   * A postmaster of ours gone may have been restarted by someone else (pg_ctl restart, an operator): after a moment
   * for its successor to take the folder's lock, a server running there for this process is watched, not replaced.
   */
  const adoptedRestart = async (): Promise<boolean> => {
    await new Promise((resolve) => setTimeout(resolve, checkEveryMs));
    const running = await findEmbeddedPostgres(current.dataDir);
    if (!running || running.owner !== process.pid || running.port !== current.port) return false;
    options.log(
      "info",
      `PostgreSQL was restarted by someone else (pid ${current.pid}, now ${running.pid}); watching the new one`,
    );
    current = { ...current, pid: running.pid };
    return true;
  };

  const check = () => {
    timer = undefined;
    if (stopped) return;
    if (processIdentity(current.pid) === null) {
      recovering = (async () => {
        if (!(await adoptedRestart()) && !stopped) await recover();
      })().finally(() => {
        recovering = null;
        schedule();
      });
      return;
    }
    schedule();
  };
  const schedule = () => {
    if (!stopped) timer = setTimeout(check, checkEveryMs).unref();
  };
  schedule();

  return {
    current: () => current,
    restarts: () => restarts,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake();
      await recovering;
      await current.stop();
    },
  };
}
