import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { StreamAppend } from "@skyward/infra/event-store/types";

const entry = fileURLToPath(new URL("./command-process.ts", import.meta.url));
const shiftedClock = fileURLToPath(new URL("./shifted-clock.ts", import.meta.url));

/** A command-service in a process of its own (command-process.ts): its own memory, caches and event store. */
export interface ChildCommandProcess {
  url: string;
  pid: number;
  /** The child's log lines so far (with TEST_LOG_LEVEL set). */
  log(): readonly string[];
  /** Appends through the child's own event store; resolves once committed there. */
  append(appends: StreamAppend | readonly StreamAppend[]): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export async function startChildCommandProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ChildCommandProcess> {
  // TEST_SHIFT_CLOCK_MS shifts the child's whole clock (shifted-clock.ts), before anything reads it.
  const preload = env.TEST_SHIFT_CLOCK_MS ? ["--import", shiftedClock] : [];
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", ...preload, entry], {
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl, NODE_OPTIONS: "" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const pending = new Map<number, (answer: { versions?: Record<string, number>; error?: string }) => void>();
  let nextId = 1;
  const log: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`command process exited with ${code} before listening`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      if (!line.startsWith("{")) return;
      const message = JSON.parse(line) as {
        url?: string;
        id?: number;
        versions?: Record<string, number>;
        error?: string;
      };
      if (message.url) resolve(message.url);
      else if (message.id !== undefined) pending.get(message.id)?.(message);
      else log.push(line);
    });
  });
  return {
    url,
    pid: child.pid as number,
    log: () => log,
    append(appends) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, (answer) => {
          pending.delete(id);
          if (answer.versions) resolve(answer.versions);
          else reject(new Error(answer.error ?? "append failed"));
        });
        child.stdin?.write(
          `${JSON.stringify({ id, appends: Array.isArray(appends) ? appends : [appends] })}\n`,
        );
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
