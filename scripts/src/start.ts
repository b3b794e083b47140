import { DEMO_PASSWORD, demoUsers } from "@skyward/command-service/world/demo-world";
import { readConfig } from "@skyward/infra/config";
import { startEmbeddedPostgres } from "@skyward/infra/embedded-postgres";
import { watchEmbeddedPostgres } from "@skyward/infra/embedded-watch";
import { ROLES, startSkyward } from "./app.ts";
import { embeddedDataDir } from "./embedded.ts";
import { startJobsProcess } from "./jobs-process.ts";

// The developer's all-in-one process reads sign-in codes from the dev mailbox; production never has one.
if (process.env.NODE_ENV !== "production") process.env.DEV_MAILBOX ??= "true";
const config = readConfig();
const dataDir = embeddedDataDir(config);

// A free port unless PGPORT names one; the port is recorded in the data folder for the rebuild CLI and benchmarks.
let database = config.DATABASE_URL
  ? null
  : await startEmbeddedPostgres({ dataDir, port: config.PGPORT, notice: (m) => console.log(m) }).catch(
      (error: Error) => {
        console.error(error.message);
        process.exit(1);
      },
    );
if (database) console.log(`PostgreSQL (embedded) on port ${database.port}, data in ${dataDir}`);
const databaseUrl = config.DATABASE_URL ?? (database ? database.url : "");
if (database) {
  // Keep the product's data in a database of its own on the embedded server.
  const { createPool, withDatabase } = await import("@skyward/infra/db");
  const admin = createPool(databaseUrl, { max: 1 });
  const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'skyward'");
  if (exists.rowCount === 0) await admin.query("CREATE DATABASE skyward");
  await admin.end();
  database = { ...database, url: withDatabase(databaseUrl, "skyward") };
}

// Started again when it dies (a crash, a full disk), with backoff; the app's pool reconnects by itself.
const watched = database
  ? watchEmbeddedPostgres(database, {
      restart: () => startEmbeddedPostgres({ dataDir, port: database?.port, notice: (m) => console.log(m) }),
      log: (level, message) => console[level](`${new Date().toISOString()} ${message}`),
    })
  : null;

// The web process (this one) runs no background jobs: they run in a jobs process beside it (issue 26), so a mail's
// PDF never stands in a request's way. JOBS_IN_PROCESS=true runs them here instead, as one process.
const jobsInProcess = process.env.JOBS_IN_PROCESS === "true";
const app = await startSkyward({
  databaseUrl: database?.url ?? databaseUrl,
  roles: jobsInProcess ? ROLES : ROLES.filter((role) => role !== "jobs"),
}).catch(async (error: Error) => {
  // Leave no server behind for the next start to find orphaned.
  await watched?.stop();
  console.error(error.message);
  process.exit(1);
});
// Started once the web process has migrated the database.
const jobs = jobsInProcess ? null : startJobsProcess(database?.url ?? databaseUrl);
console.log(`\nSkyward is running at ${app.url}\n`);
if (app.config.SEED_DEMO && app.config.NODE_ENV !== "production") {
  console.log("Demo world — sign in with any of these e-mails (code from the dev mailbox or the console),");
  console.log(`or with the password ${DEMO_PASSWORD}:`);
  for (const u of demoUsers)
    console.log(`  ${u.user_type.padEnd(10)} ${u.email}${u.demo_user ? "  (demo: fake bookings)" : ""}`);
  console.log("");
}

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`\n${signal}: stopping...`);
  // The database server stops last, however the jobs and the app stopped: one that threw left it running, an orphan
  // for the next start to find (a whole run once saw a start's server still recorded after its SIGTERM).
  let clean = true;
  for (const [name, part] of [
    ["jobs process", jobs],
    ["app", app],
  ] as const) {
    try {
      await part?.stop();
    } catch (error) {
      clean = false;
      console.error(`${signal}: the ${name} did not stop cleanly: ${(error as Error).message}`);
    }
  }
  await watched?.stop();
  process.exit(clean ? 0 : 1);
}
// embedded-postgres answers these signals itself (through async-exit-hook, when it is loaded): it stops its servers at
// once, then exits with 128 + the signal, or after 10 s whether they stopped or not. The server went while the app
// and the jobs still used it (their errors in the log, a job worker's record left behind), and a slow stop left it
// running after this process. This process's shutdown stops them in order, so it alone answers them.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.removeAllListeners(signal);
  process.on(signal, () => void shutdown(signal));
}
