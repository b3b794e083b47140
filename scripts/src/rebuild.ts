import { fileURLToPath } from "node:url";
import { readConfig } from "@skyward/infra/config";
import { createPool, withDatabase } from "@skyward/infra/db";
import { startEmbeddedPostgres } from "@skyward/infra/embedded-postgres";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { Wakeup } from "@skyward/infra/event-store/wakeup";
import { migrate } from "@skyward/infra/migrate";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { projections } from "@skyward/projectors/index";

/** `npm run rebuild -- <projection>`: builds a new generation side by side and switches to it when caught up. */
const name = process.argv[2];
const projection = projections.find((p) => p.name === name);
if (!projection) {
  console.error(
    `usage: npm run rebuild -- <projection>\nprojections: ${projections.map((p) => p.name).join(", ")}`,
  );
  process.exit(2);
}

const config = readConfig();
const embedded = config.DATABASE_URL
  ? null
  : await startEmbeddedPostgres({
      dataDir: config.DATA_DIR ?? fileURLToPath(new URL("../../.data/postgres", import.meta.url)),
      port: 5433,
    }).catch(() => null); // already running under `npm start`: use it
const url =
  config.DATABASE_URL ??
  withDatabase(embedded?.url ?? "postgres://postgres:postgres@127.0.0.1:5433/postgres", "skyward");
const pool = createPool(url);
try {
  await migrate(pool);
  const started = performance.now();
  const { generation, events } = await rebuildProjection(pool, new EventStore(pool), projection);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${projection.name}: generation ${generation} built from ${events} events in ${seconds.toFixed(2)} s and put in service`,
  );
  // Tell a running app's projectors to pick up the new generation now rather than at their next poll.
  await new Wakeup(pool).ping();
} finally {
  await pool.end();
  await embedded?.stop();
}
