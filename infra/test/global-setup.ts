import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPool, withDatabase } from "../src/db.ts";
import { startEmbeddedPostgres } from "../src/embedded-postgres.ts";
import { migrate } from "../src/migrate.ts";
import { TEMPLATE_DATABASE } from "../src/testing.ts";

/** One PostgreSQL per test run (embedded unless DATABASE_URL names a server), with a migrated template. */
export default async function globalSetup(): Promise<void> {
  let url = process.env.DATABASE_URL;
  if (!url) {
    const dataDir = await mkdtemp(join(tmpdir(), "skyward-test-pg-"));
    // fsync off: test data is thrown away, and the suite runs on 2 cores.
    const server = await startEmbeddedPostgres({ dataDir, fsync: false });
    Object.assign(globalThis, { __skywardPg: server, __skywardPgDataDir: dataDir });
    url = server.url;
  }
  const admin = createPool(url, { max: 1 });
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const template = createPool(withDatabase(url, TEMPLATE_DATABASE), { max: 1 });
  await migrate(template);
  await template.end();
  process.env.SKYWARD_TEST_SERVER_URL = url;
}
