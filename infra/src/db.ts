import pg from "pg";

// int8 (global positions, versions, money sums) fit in a JS number for this product's ranges.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, "query">;

export interface PoolOptions {
  max?: number;
  applicationName?: string;
  /** Told of connections lost (a server restart or kill); without it they are dropped quietly. */
  onConnectionError?: (error: Error) => void;
}

/** A pool whose sessions cannot idle inside a transaction (it would stall every subscriber of the feed). */
export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? "skyward",
    idle_in_transaction_session_timeout: 10_000,
  });
  // Without a listener a lost connection (server restart, kill -9) would crash the process: the pool's own
  // listener covers idle clients, this one clients in use, whose statement fails and whose release drops them.
  const lost = options.onConnectionError ?? (() => {});
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", lost));
  // pg-pool's own query() destroys the connection after any failed statement, so every wrong expected version
  // or unique violation cost a new backend (a fork and a SCRAM handshake, about 10 ms of CPU). A statement the
  // server answered with an error leaves the session usable (the server ended the statement's implicit
  // transaction); a broken connection, or a text that opened a transaction block of its own, is dropped.
  // Statements with parameters run as named prepared statements: parsed and planned once per connection instead
  // of on every call, which was a large share of the server's CPU on the booking path.
  const run = async (args: unknown[], retried: boolean): Promise<unknown> => {
    const client = await pool.connect();
    const query = prepared(args);
    let dropped: Error | undefined;
    try {
      return await (client.query as (...a: unknown[]) => Promise<unknown>)(...query);
    } catch (error) {
      const answered = error instanceof pg.DatabaseError && !isConnectionFailure(error.code);
      const ownTransaction = typeof args[0] === "string" && /\bBEGIN\b/i.test(args[0]);
      if (!answered || ownTransaction) dropped = error as Error;
      // A view switched to a new generation can change a prepared statement's result type: start afresh once.
      const stalePlan = answered && (error as pg.DatabaseError).code === "0A000" && query !== args;
      if (!stalePlan || retried) throw error;
      dropped = error as Error;
    } finally {
      client.release(dropped);
    }
    return run(args, true);
  };
  pool.query = ((...args: unknown[]) => run(args, false)) as typeof pool.query;
  return pool;
}

const statementNames = new Map<string, string>();

/** `(text, values)` as a named statement config; anything else (no values, a config object) as it came. */
function prepared(args: unknown[]): unknown[] {
  const [text, values, ...rest] = args;
  if (typeof text !== "string" || !Array.isArray(values) || values.length === 0 || rest.length > 0)
    return args;
  let name = statementNames.get(text);
  if (!name) {
    name = `s${statementNames.size}`;
    statementNames.set(text, name);
  }
  return [{ name, text, values }];
}

/** SQLSTATE classes after which the session cannot be trusted: connection exceptions, operator intervention. */
function isConnectionFailure(code: string | undefined): boolean {
  return code === undefined || code.startsWith("08") || code.startsWith("57P") || code.startsWith("XX");
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

/**
 * The WHERE of a read built from the filters a request gave: each condition a fixed fragment of SQL naming its own
 * parameters (`$n`), never a value. A filter not given leaves nothing in the text. Not `($n IS NULL OR col = $n)`:
 * the pool prepares every statement with parameters (above), and once PostgreSQL keeps the generic plan, planned
 * without the values, such a predicate can use no index and is guessed to keep one row, so a lookup by key became a
 * sequential scan of the table with nested loops over it (list-plans.test.ts). Each combination of filters is a text
 * of its own, planned for what it asks.
 */
export class Where {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  /** A placeholder for `value`, numbered after those already taken (for LIMIT and the like after the conditions). */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** A condition always applied; `condition` is given a placeholder for each of `values`, in order. */
  and(condition: (...placeholders: string[]) => string, ...values: unknown[]): this {
    this.conditions.push(condition(...values.map((v) => this.param(v))));
    return this;
  }

  /** A condition on a filter the request may leave out: added only when `value` is given (not null or undefined). */
  when<T>(value: T | null | undefined, condition: (placeholder: string) => string): this {
    if (value !== null && value !== undefined) this.and(condition, value);
    return this;
  }

  /** A scope whose fragment numbers its own parameters from an offset (query-service/src/scope.ts). */
  scope(make: (offset: number) => { sql: string; params: readonly unknown[] }): this {
    const { sql, params } = make(this.params.length);
    this.params.push(...params);
    this.conditions.push(sql);
    return this;
  }

  get sql(): string {
    return this.conditions.length > 0 ? this.conditions.join(" AND ") : "true";
  }
}

/** One parameterised statement: its text never carries a value. */
export interface Statement {
  text: string;
  values: readonly unknown[];
}

/**
 * Statements collected to be sent together, each with its own parameters (never pasted into its text): one round
 * trip instead of one per statement, which is what a projector's batch costs when the event loop is busy. Only for
 * statements whose results are not needed; it is the writer a projection's apply() is given (query() collects, the
 * runtime sends them with the checkpoint).
 */
export class StatementBatch {
  private readonly collected: Statement[] = [];

  add(text: string, values: readonly unknown[] = []): void {
    this.collected.push({ text, values });
  }

  /** add(), shaped as a client's query() for code that writes through either. */
  async query(text: string, values: readonly unknown[] = []): Promise<void> {
    this.add(text, values);
  }

  get statements(): readonly Statement[] {
    return this.collected;
  }

  /** Hands the statements on, in order, to another writer (a projection's own batch to the runtime's). */
  async run(writer: ProjectionWriter): Promise<void> {
    for (const { text, values } of this.collected) await writer.query(text, values);
  }

  /**
   * Sends every statement on `client` without waiting for each answer (pg's pipeline mode, turned on for this
   * batch only, on a client with nothing else in flight), then waits for all of them. Each statement still fails
   * on its own: the first failure, in order, is thrown (in a transaction block the ones after it fail with 25P02
   * and a COMMIT among them rolls back).
   */
  async send(client: pg.ClientBase): Promise<void> {
    if (this.collected.length === 0) return;
    Object.assign(client, { pipeline: true });
    // Every statement's messages leave in one write: pg writes each query on its own (a system call each, measured
    // at a seventh of the app's CPU in booking-flow), and a corked socket gathers them until the batch is queued.
    const socket = (client as { connection?: { stream?: { cork(): void; uncork(): void } } }).connection
      ?.stream;
    let answers: PromiseSettledResult<unknown>[];
    try {
      socket?.cork();
      let queued: Promise<unknown>[];
      try {
        queued = this.collected.map(({ text, values }) =>
          values.length > 0
            ? client.query({ name: batchStatementName(text), text, values: [...values] })
            : client.query(text),
        );
      } finally {
        socket?.uncork();
      }
      answers = await Promise.allSettled(queued);
    } finally {
      Object.assign(client, { pipeline: false });
    }
    const failed = answers.find((a) => a.status === "rejected");
    if (failed) throw failed.reason;
  }
}

const batchStatementNames = new Map<string, string>();

/**
 * A batch's statement runs prepared under a name of its text, parsed and planned once per connection: a projector
 * sends the same few texts with every batch (measured: twice the statements per second of unnamed ones).
 */
function batchStatementName(text: string): string | undefined {
  let name = batchStatementNames.get(text);
  if (!name) {
    // Texts are a projection's fixed statements; past this many, something builds them per value: do not keep them.
    if (batchStatementNames.size >= 10_000) return undefined;
    name = `b${batchStatementNames.size}`;
    batchStatementNames.set(text, name);
  }
  return name;
}

/** Where a projection writes its statements: a StatementBatch in the runtime, or a client. */
export interface ProjectionWriter {
  query(text: string, values?: readonly unknown[]): Promise<unknown>;
}
