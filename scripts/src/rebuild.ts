import { existsSync } from "node:fs";
import { join } from "node:path";
import { readConfig } from "@skyward/infra/config";
import { createPool, withDatabase } from "@skyward/infra/db";
import {
  type EmbeddedServer,
  findEmbeddedPostgres,
  startEmbeddedPostgres,
} from "@skyward/infra/embedded-postgres";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { Wakeup } from "@skyward/infra/event-store/wakeup";
import { migrate } from "@skyward/infra/migrate";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { projections } from "@skyward/projectors/index";
import { embeddedDataDir } from "./embedded.ts";

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

/** DATABASE_URL; else the embedded server a running `npm start` of DATA_DIR recorded, or one started here. */
async function database(): Promise<{ url: string; embedded: EmbeddedServer | null }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: null };
  const dataDir = embeddedDataDir(config);
  const running = await findEmbeddedPostgres(dataDir);
  if (running?.owner != null) {
    console.log(`using the running PostgreSQL of ${dataDir} (port ${running.port})`);
    return { url: withDatabase(running.url, "skyward"), embedded: null };
  }
  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    console.error(
      `no embedded PostgreSQL data in ${dataDir}: run npm start first, or set DATA_DIR or DATABASE_URL`,
    );
    process.exit(2);
  }
  const embedded = await startEmbeddedPostgres({
    dataDir,
    port: config.PGPORT,
    notice: (m) => console.log(m),
  });
  console.log(`no app runs on ${dataDir}: started its PostgreSQL for this rebuild (port ${embedded.port})`);
  return { url: withDatabase(embedded.url, "skyward"), embedded };
}

const { url, embedded } = await database();
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
