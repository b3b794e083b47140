import { jsonCopy } from "@skyward/infra/event-store/json-copy";
import type pg from "pg";
import type { OperationResult } from "../supplier.ts";

/** What the sandbox airline remembers of an operation id: its outcome (any kind), or that it was given up on (fenced). */
export type OperationEntry =
  | { status: "done"; result: OperationResult }
  | { status: "failed"; code: string; message: string }
  | { status: "fenced" };

/**
 * The sandbox airline's durable memory of operations, as a real airline keeps its own: it outlives our process, so
 * a crash between its answer and our record can be reconciled. `record` keeps the first entry of an id and answers
 * the entry that stands.
 */
export interface OperationLog {
  get(operationId: string): Promise<OperationEntry | null>;
  record(operationId: string, entry: OperationEntry): Promise<{ entry: OperationEntry; recorded: boolean }>;
}

export class MemoryOperationLog implements OperationLog {
  readonly #entries = new Map<string, OperationEntry>();

  async get(operationId: string) {
    return this.#entries.get(operationId) ?? null;
  }

  async record(operationId: string, entry: OperationEntry) {
    const standing = this.#entries.get(operationId);
    if (standing) return { entry: standing, recorded: false };
    this.#entries.set(operationId, entry);
    return { entry, recorded: true };
  }
}

/** The log in PostgreSQL (schema `sandbox`), shared by every process of the app like a real airline would be. */
export class PgOperationLog implements OperationLog {
  constructor(private readonly pool: pg.Pool) {}

  async get(operationId: string) {
    const { rows } = await this.pool.query<{ entry: OperationEntry }>(
      "SELECT entry FROM sandbox.operations WHERE operation_id = $1",
      [operationId],
    );
    return rows[0]?.entry ?? null;
  }

  async record(operationId: string, entry: OperationEntry) {
    // The insert is invisible to the same statement's read of the table: one branch answers, never both. A recorded
    // entry is a copy of the one given, as it would read back, not read back: a held booking's is 4 KB (issue 26).
    const { rows } = await this.pool.query<{ entry: OperationEntry | null; recorded: boolean }>(
      `WITH inserted AS (
         INSERT INTO sandbox.operations (operation_id, entry) VALUES ($1, $2) ON CONFLICT (operation_id) DO NOTHING
         RETURNING 1)
       SELECT NULL::jsonb AS entry, true AS recorded FROM inserted
       UNION ALL SELECT entry, false FROM sandbox.operations WHERE operation_id = $1`,
      [operationId, JSON.stringify(entry)],
    );
    const row = rows[0];
    if (!row) throw new Error(`operation ${operationId} was neither recorded nor found`);
    return row.recorded
      ? { entry: jsonCopy(entry), recorded: true }
      : { entry: row.entry as OperationEntry, recorded: false };
  }
}
