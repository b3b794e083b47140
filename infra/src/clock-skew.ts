import type { Queryable } from "./db.ts";

/** How far this process's clock may be from the database's before it is warned about (start, `/ready`). */
export const CLOCK_SKEW_WARN_MS = 5_000;

/**
 * How far the database's clock is ahead of this process's (negative: behind), in milliseconds, measured against
 * the middle of the round trip. Jobs are scheduled and compared on the database's clock; what a process decides
 * with its own (a time limit, a void window) is off by this much.
 */
export async function clockSkewMs(pool: Queryable, now: () => Date = () => new Date()): Promise<number> {
  const sent = now().getTime();
  const { rows } = await pool.query<{ ms: number }>(
    "SELECT extract(epoch FROM clock_timestamp())::float8 * 1000 AS ms",
  );
  const received = now().getTime();
  return Math.round(Number(rows[0]?.ms) - (sent + received) / 2);
}

/** The warning a skew calls for; null when the clocks agree closely enough. */
export function clockSkewWarning(skewMs: number): string | null {
  if (Math.abs(skewMs) <= CLOCK_SKEW_WARN_MS) return null;
  const seconds = Math.round(Math.abs(skewMs) / 100) / 10;
  return `this process's clock is ${seconds} s ${skewMs > 0 ? "behind" : "ahead of"} the database's: jobs run on the database's clock, but what this process decides by its own (time limits, void windows) is off by as much; synchronise the clocks (NTP)`;
}
