import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "@skyward/contracts/config";
import { withDatabase } from "@skyward/infra/db";
import {
  type EmbeddedServer,
  findEmbeddedPostgres,
  startEmbeddedPostgres,
} from "@skyward/infra/embedded-postgres";
import { embeddedDataDir } from "./embedded.ts";

/**
 * The database a command-line tool works on: DATABASE_URL; else the embedded server a running `npm start` of
 * DATA_DIR recorded, or one started here for the tool (stop it after).
 */
export async function cliDatabase(
  config: Config,
  purpose: string,
): Promise<{ url: string; embedded: EmbeddedServer | null }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: null };
  const dataDir = embeddedDataDir(config);
  const running = await findEmbeddedPostgres(dataDir);
  if (running?.owner != null) {
    console.error(`using the running PostgreSQL of ${dataDir} (port ${running.port})`);
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
    notice: (m) => console.error(m),
  });
  console.error(
    `no app runs on ${dataDir}: started its PostgreSQL for this ${purpose} (port ${embedded.port})`,
  );
  return { url: withDatabase(embedded.url, "skyward"), embedded };
}
