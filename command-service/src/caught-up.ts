import { DomainError } from "@skyward/infra/http/errors";
import { waitForReadModels } from "@skyward/infra/projections/read-your-writes";
import type pg from "pg";

/**
 * Waits until a read model has passed the last event committed so far on the streams it is built from (of
 * `streamType`: "booking" for the bookings), for a command that guards money or access on what it holds and has no
 * stream to fold it from (README, "what a command may read"). Only its own streams count: the feed stops at the
 * oldest open write, so a projector held up elsewhere delays this wait only when one of them was written since.
 * When it does not catch up within the bound, the command is refused (503: nothing written, the client tries
 * again) rather than decided on rows that may miss a write already answered.
 */
export async function readModelCaughtUp(
  pool: pg.Pool,
  readModel: { name: string; streamType: string },
  timeoutMs = 2000,
): Promise<void> {
  const { rows } = await pool.query<{ tx: string; gp: string }>(
    `SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events WHERE stream_id LIKE $1
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    [`${readModel.streamType}-%`],
  );
  await caughtUpTo(pool, readModel.name, rows[0], timeoutMs);
}

/**
 * As readModelCaughtUp, for a read model of streams seldom written (the channels): it waits for the last event
 * committed on any stream. Finding the last of a rare type would walk the log back to it (no index leads by stream
 * type); the read model passes events of other types in its stride (runtime.ts, at most STORE_SKIPPED_MS behind).
 */
export async function readModelCaughtUpWithLog(pool: pg.Pool, name: string, timeoutMs = 2000): Promise<void> {
  const { rows } = await pool.query<{ tx: string; gp: string }>(
    `SELECT transaction_id::text AS tx, global_position::text AS gp FROM es.events
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  await caughtUpTo(pool, name, rows[0], timeoutMs);
}

async function caughtUpTo(
  pool: pg.Pool,
  name: string,
  last: { tx: string; gp: string } | undefined,
  timeoutMs: number,
): Promise<void> {
  if (!last) return;
  const min = { tx: BigInt(last.tx), gp: BigInt(last.gp) };
  if (await waitForReadModels(pool, [name], min, timeoutMs)) return;
  throw new DomainError(
    503,
    "read_model_behind",
    "Service unavailable",
    "The records this decision needs are still being brought up to date; try again in a moment",
  );
}
