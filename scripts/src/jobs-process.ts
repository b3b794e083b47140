import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const serve = fileURLToPath(new URL("./serve.ts", import.meta.url));

/** The background jobs' process beside `npm start`'s web process (issue 26): started again whenever it dies. */
export interface JobsProcess {
  /** Its current process id (a new one after each restart). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

/**
 * Starts `serve.ts` with `ROLES=jobs` on the same database: mails and their PDFs, invoices, notifications, expiry
 * and reconciliation run there, so their CPU never stands in a request's way. It ends with its parent (its stdin
 * closes even when the parent is killed with -9), and is started again, waiting 0.5 s doubling up to 5 s, whenever
 * it exits by itself; a job it held when it died runs again in the new one (infra/src/jobs/dead-workers.ts).
 */
export function startJobsProcess(
  databaseUrl: string,
  options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {},
): JobsProcess {
  const log = options.log ?? ((line: string) => console.log(line));
  let child: ChildProcess | null = null;
  let stopping = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  const launch = () => {
    const started = Date.now();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...options.env,
      NODE_ENV: options.env?.NODE_ENV ?? process.env.NODE_ENV ?? "development",
      DATABASE_URL: databaseUrl,
      ROLES: "jobs",
      PORT: "0",
      SKYWARD_EXIT_WITH_PARENT: "true",
    };
    // Jest's and a parent's loader flags are not the app's.
    delete env.NODE_OPTIONS;
    const current = spawn(process.execPath, ["--import", "tsx", serve], {
      env,
      stdio: ["pipe", "inherit", "inherit"],
    });
    child = current;
    log(`jobs process started (pid ${current.pid})`);
    current.once("exit", (code, signal) => {
      if (child === current) child = null;
      if (stopping) return;
      // A process that ran a while starts again at once; one that keeps dying waits longer each time.
      failures = Date.now() - started > 30_000 ? 0 : failures + 1;
      const waitMs = Math.min(5000, 250 * 2 ** failures);
      log(
        `jobs process (pid ${current.pid}) stopped (${signal ?? `exit ${code}`}); starting it again in ${waitMs} ms`,
      );
      timer = setTimeout(launch, waitMs);
    });
  };
  launch();
  return {
    pid: () => child?.pid,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise((resolve) => current.once("exit", resolve));
      current.kill("SIGTERM");
      const force = setTimeout(() => current.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(force);
    },
  };
}
