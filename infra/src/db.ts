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

/** A value as an SQL literal, for statements sent together in one round trip (simple query protocol). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (Array.isArray(value)) {
    // A PostgreSQL array literal of text elements; the column's type casts it.
    return pg.escapeLiteral(
      `{${value.map((v) => `"${String(v).replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`,
    );
  }
  if (typeof value === "object") return pg.escapeLiteral(JSON.stringify(value));
  return pg.escapeLiteral(String(value));
}

/** `text` with its `$n` parameters replaced by literals. */
export function inlineParams(text: string, values: readonly unknown[] = []): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]));
}

/**
 * Statements collected and sent as one string: one round trip instead of one per statement, which is what a
 * projector's batch costs when the event loop is busy. Only for statements whose results are not needed.
 */
export class StatementBatch {
  private readonly statements: string[] = [];

  add(text: string, values: readonly unknown[] = []): void {
    this.statements.push(inlineParams(text, values));
  }

  async run(client: Pick<pg.PoolClient, "query">): Promise<void> {
    if (this.statements.length > 0) await client.query(this.statements.join(";\n"));
  }
}
