import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "@skyward/contracts/config";
import { findEmbeddedPostgres, type RunningServer } from "@skyward/infra/embedded-postgres";

/** Where `npm start` keeps the embedded PostgreSQL's data: DATA_DIR, or `.data/postgres` in the checkout. */
export function embeddedDataDir(config: Pick<Config, "DATA_DIR">): string {
  return resolve(config.DATA_DIR ?? fileURLToPath(new URL("../../.data/postgres", import.meta.url)));
}

/**
 * The embedded server a running `npm start` of the same DATA_DIR uses, found through the record it keeps in its
 * data folder; an error naming the folder when none runs there.
 */
export async function runningEmbeddedServer(config: Pick<Config, "DATA_DIR">): Promise<RunningServer> {
  const dataDir = embeddedDataDir(config);
  const running = await findEmbeddedPostgres(dataDir);
  if (!running)
    throw new Error(
      `no embedded PostgreSQL is running on ${dataDir}: start the app there first (npm start, with the same DATA_DIR), or set DATABASE_URL`,
    );
  return running;
}
