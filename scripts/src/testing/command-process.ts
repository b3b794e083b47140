// A command-service process of its own, for tests of several processes (run with `node --import tsx`). It prints
// {"url"} once listening, then runs the appends it is sent on stdin (one JSON line each) through its own event
// store, as a command of that process would, and answers each on stdout once committed.
import { createInterface } from "node:readline";
import type { StreamAppend } from "@skyward/infra/event-store/types";
import { startSkyward } from "../app.ts";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL is required");
// Tests of time-driven jobs run this process ahead of the real clock (ms) and its sweeps more often.
const clockOffsetMs = Number(process.env.TEST_CLOCK_OFFSET_MS ?? 0);
const scheduleEveryMs = process.env.TEST_SCHEDULE_EVERY_MS
  ? Number(process.env.TEST_SCHEDULE_EVERY_MS)
  : undefined;
const app = await startSkyward({
  databaseUrl,
  port: 0,
  // Silent unless a test reads the log (its lines come on stdout, beside the answers).
  logLevel: process.env.TEST_LOG_LEVEL ?? "silent",
  roles: ["command", "jobs"],
  seedDemo: false,
  now: () => new Date(Date.now() + clockOffsetMs),
  ...(scheduleEveryMs ? { scheduleEveryMs } : {}),
});
const answer = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
answer({ url: app.url });

for await (const line of createInterface({ input: process.stdin })) {
  const { id, appends } = JSON.parse(line) as { id: number; appends: StreamAppend[] };
  try {
    const { versions } = await app.store.append(appends);
    answer({ id, versions });
  } catch (error) {
    answer({ id, error: String(error) });
  }
}
await app.stop();
process.exit(0);
