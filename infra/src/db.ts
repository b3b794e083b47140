import pg from "pg";

// int8 (global positions, versions, money sums) fit in a JS number for this product's ranges.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, "query">;

export interface PoolOptions {
  max?: number;
  applicationName?: string;
}

/** A pool whose sessions cannot idle inside a transaction (it would stall every subscriber of the feed). */
export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? "skyward",
    idle_in_transaction_session_timeout: 10_000,
  });
  // Without a listener an idle client's error (e.g. server shutdown) would crash the process.
  pool.on("error", () => {});
  return pool;
}

export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Replaces the database name in a connection URL. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
