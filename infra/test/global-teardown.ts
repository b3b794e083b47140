import { rm } from "node:fs/promises";

/** Stops the run's embedded PostgreSQL and removes its data folder (a run leaves nothing in the temporary folder). */
export default async function globalTeardown(): Promise<void> {
  const run = globalThis as { __skywardPg?: { stop(): Promise<void> }; __skywardPgDataDir?: string };
  await run.__skywardPg?.stop();
  if (run.__skywardPgDataDir) await rm(run.__skywardPgDataDir, { recursive: true, force: true });
}
