import { replayAndCompare } from "@skyward/infra/audit/replay";
import { readConfig } from "@skyward/infra/config";
import { createPool } from "@skyward/infra/db";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { Wakeup } from "@skyward/infra/event-store/wakeup";
import { migrate } from "@skyward/infra/migrate";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { projections } from "@skyward/projectors/index";
import { cliDatabase } from "./cli-database.ts";

/**
 * `npm run rebuild -- <projection>`: builds a new generation side by side and switches to it when caught up.
 * `npm run rebuild -- <projection> --compare [--switch]`: replays it side by side, compares the replay with the live
 * generation (row count and checksum per table) and, with --switch, puts a fresh generation in service only when
 * they agree. Exit status 1 when they do not.
 */
const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith("--"));
const projection = projections.find((p) => p.name === name);
const unknown = args.filter((a) => a.startsWith("--") && a !== "--compare" && a !== "--switch");
if (!projection || unknown.length > 0) {
  console.error(
    `usage: npm run rebuild -- <projection> [--compare [--switch]]\nprojections: ${projections.map((p) => p.name).join(", ")}`,
  );
  process.exit(2);
}

const config = readConfig();
const { url, embedded } = await cliDatabase(config, "rebuild");
const pool = createPool(url);
let exitCode = 0;
try {
  await migrate(pool);
  const store = new EventStore(pool);
  if (args.includes("--compare")) {
    const report = await replayAndCompare(pool, store, projection, {
      switchWhenEqual: args.includes("--switch"),
      onProgress(done, of) {
        if (!process.stdout.isTTY) return;
        const width = 30;
        const filled = of > 0 ? Math.min(width, Math.round((done / of) * width)) : width;
        process.stdout.write(
          `\r  replaying [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${of}`,
        );
      },
    });
    if (process.stdout.isTTY) process.stdout.write("\n");
    console.log(`${projection.name}: replayed ${report.events} events in ${report.seconds.toFixed(2)} s`);
    for (const t of report.tables)
      console.log(
        `  ${t.equal ? "=" : "≠"} ${t.table}: live ${t.liveRows} rows ${t.liveChecksum}, replay ${t.replayRows} rows ${t.replayChecksum}`,
      );
    console.log(
      report.agree
        ? report.switchedTo !== null
          ? `replay equals live: generation ${report.switchedTo} put in service`
          : "replay equals live (run with --switch to put a fresh generation in service)"
        : "replay DIFFERS from live: nothing switched",
    );
    if (!report.agree) exitCode = 1;
  } else {
    const started = performance.now();
    const { generation, events } = await rebuildProjection(pool, store, projection);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${projection.name}: generation ${generation} built from ${events} events in ${seconds.toFixed(2)} s and put in service`,
    );
  }
  // Tell a running app's projectors to pick up the new generation now rather than at their next poll.
  await new Wakeup(pool).ping();
} finally {
  await pool.end();
  await embedded?.stop();
}
process.exit(exitCode);
