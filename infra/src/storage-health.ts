import type { Queryable } from "./db.ts";

/** PostgreSQL's SQLSTATE for "could not extend file ... No space left on device" and its kin. */
export const DISK_FULL = "53100";

/** A write the database refused for lack of space: nothing the client did, and nothing was written. */
export function isDiskFull(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === DISK_FULL || (typeof message === "string" && /No space left on device/.test(message));
}

export type StorageStatus = { ok: true } | { ok: false; error: string; since: string };

/**
 * Whether the database can write, as this process last saw it: a disk-full refusal marks it unable, and from then
 * on each readiness probe tries a write of its own until one succeeds (so a load balancer stops sending commands
 * while the disk is full, and sends them again once it is freed). Reads are unaffected.
 */
export class StorageHealth {
  #failure: { error: string; since: string } | null = null;
  #probing: Promise<StorageStatus> | null = null;

  constructor(private readonly pool: Queryable) {}

  /** Notes an error seen anywhere (a command, a job); only a disk-full refusal counts. */
  note(error: unknown): void {
    if (!isDiskFull(error)) return;
    this.#failure = {
      error: error instanceof Error ? error.message : String(error),
      since: this.#failure?.since ?? new Date().toISOString(),
    };
  }

  /** The storage as of now: probed with a write while a failure stands, cleared by a write that succeeds. */
  async status(): Promise<StorageStatus> {
    if (!this.#failure) return { ok: true };
    this.#probing ??= this.#probe().finally(() => {
      this.#probing = null;
    });
    return this.#probing;
  }

  async #probe(): Promise<StorageStatus> {
    try {
      // One implicit transaction: the table is emptied (a fresh file) and written, so the write needs a new block.
      await this.pool.query(
        "TRUNCATE app.storage_probe; INSERT INTO app.storage_probe (probe) SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 200)",
      );
      this.#failure = null;
      return { ok: true };
    } catch (error) {
      this.note(error);
      // Another failure (the database unreachable) leaves the disk-full one standing until a write succeeds.
      return this.#failure ? { ok: false, ...this.#failure } : { ok: true };
    }
  }
}
