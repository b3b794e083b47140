import type pg from "pg";

/**
 * Holds the balances projector back: an exclusive lock on its newest read-model table (reads still go through), so
 * a test can ask for something while a write it made has not reached the read model. `letGo` ends the hold (once;
 * later calls do nothing).
 */
export async function holdBalancesProjector(pool: pg.Pool): Promise<{ letGo(): Promise<void> }> {
  const { rows } = await pool.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'read' AND tablename LIKE 'company\\_balances\\_g%' ORDER BY tablename DESC LIMIT 1",
  );
  const held = await pool.connect();
  try {
    await held.query("BEGIN");
    await held.query(`LOCK TABLE read.${held.escapeIdentifier(rows[0]?.name ?? "")} IN EXCLUSIVE MODE`);
  } catch (error) {
    await held.query("ROLLBACK").catch(() => undefined);
    held.release();
    throw error;
  }
  let holding = true;
  return {
    async letGo() {
      if (!holding) return;
      holding = false;
      try {
        await held.query("COMMIT");
      } finally {
        held.release();
      }
    },
  };
}
