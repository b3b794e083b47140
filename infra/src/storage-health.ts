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
 * Whether the database can write, as this process last saw it: a disk-full refusal (a command's, or this class's own
 * probe write, made at most every `probeEveryMs` while all is well) marks it unable, and from then on each readiness
 * check probes again until a write succeeds. So a load balancer stops sending commands while the disk is full (even
 * before a command meets it), and sends them again once it is freed. Reads are unaffected.
 */
export class StorageHealth {
  #failure: { error: string; since: string } | null = null;
  #probing: Promise<StorageStatus> | null = null;
  #probedAt = 0;

  constructor(
    private readonly pool: Queryable,
    private readonly options: { probeEveryMs: number },
  ) {}

  /** Notes an error seen anywhere (a command, a job); only a disk-full refusal counts. */
  note(error: unknown): void {
    if (!isDiskFull(error)) return;
    this.#failure = {
      error: error instanceof Error ? error.message : String(error),
      since: this.#failure?.since ?? new Date().toISOString(),
    };
  }

  /** The storage as of now: probed while a failure stands (and now and then while none does). */
  async status(): Promise<StorageStatus> {
    const due = performance.now() - this.#probedAt >= this.options.probeEveryMs;
    if (!this.#failure && !due) return { ok: true };
    this.#probing ??= this.#probe().finally(() => {
      this.#probedAt = performance.now();
      this.#probing = null;
    });
    return this.#probing;
  }

  async #probe(): Promise<StorageStatus> {
    try {
      // One implicit transaction: the table is emptied (a fresh, empty file), so its one row needs a new block.
      await this.pool.query(
        "TRUNCATE app.storage_probe; INSERT INTO app.storage_probe (probe) VALUES ('write')",
      );
      this.#failure = null;
      return { ok: true };
    } catch (error) {
      this.note(error);
      // Another failure (the database unreachable) is the database check's to report; a disk-full one stands.
      return this.#failure ? { ok: false, ...this.#failure } : { ok: true };
    }
  }
}
