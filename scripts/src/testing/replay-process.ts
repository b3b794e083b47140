// A process that runs one queued replay (as the replay-projection job would) and is then killed by the test: the
// projection replayed is the real one, slowed so that the replay is still running when the process dies.
// Run with `node --import tsx`; env DATABASE_URL, RUN_ID, PROJECTION; prints {"running": true} once it starts.
import { setTimeout as sleep } from "node:timers/promises";
import { runReplay } from "@skyward/infra/audit/replay-runs";
import { createPool } from "@skyward/infra/db";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { Wakeup } from "@skyward/infra/event-store/wakeup";
import { projections } from "@skyward/projectors/index";

const { DATABASE_URL: databaseUrl, RUN_ID: runId, PROJECTION: name } = process.env;
if (!databaseUrl || !runId || !name) throw new Error("DATABASE_URL, RUN_ID and PROJECTION are required");
const pool = createPool(databaseUrl, { max: 4, applicationName: "replay-process" });
const live = projections.find((p) => p.name === name);
if (!live) throw new Error(`no projection ${name}`);
// Each batch takes a minute: the test kills this process long before the replay could end.
const slow = {
  ...live,
  apply: async (...args: Parameters<typeof live.apply>) => {
    process.stdout.write(`${JSON.stringify({ running: true })}\n`);
    await sleep(60_000);
    return live.apply(...args);
  },
};
await runReplay(pool, new EventStore(pool, new Wakeup()), [slow], runId);
await pool.end();
