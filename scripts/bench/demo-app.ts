import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { createPool, withDatabase } from "@skyward/infra/db";
import { startEmbeddedPostgres } from "@skyward/infra/embedded-postgres";
import { type Skyward, startSkyward } from "../src/app.ts";

/**
 * The whole app with the demo world on a database of its own, for the browser benches (first load, interaction): on
 * `DATABASE_URL`'s server when set, else on an embedded server in a temporary folder. `stop` drops it all.
 */
export async function startDemoApp(name: string): Promise<{ app: Skyward; stop(): Promise<void> }> {
  const dataDir = process.env.DATABASE_URL
    ? null
    : await mkdtemp(join(os.tmpdir(), `skyward-bench-${name}-`));
  const server = dataDir ? await startEmbeddedPostgres({ dataDir }) : null;
  const serverUrl = process.env.DATABASE_URL ?? server?.url ?? "";
  const admin = createPool(serverUrl, { max: 1 });
  const database = `bench_${name}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const app = await startSkyward({
    databaseUrl: withDatabase(serverUrl, database),
    port: 0,
    host: "127.0.0.1",
    seedDemo: true,
    logLevel: "warn",
  });
  return {
    app,
    async stop() {
      await app.stop();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
      await server?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
