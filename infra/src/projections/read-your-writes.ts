import { setTimeout as sleep } from "node:timers/promises";
import { comparePositions, type FeedPosition } from "@skyward/contracts/position";
import type pg from "pg";
import { readModelsPosition } from "./runtime.ts";

/**
 * Waits (bounded) until the named read models have passed `min`, so a read right after a command sees it.
 * Returns false when the wait ran out: the caller answers with the data flagged stale.
 */
export async function waitForReadModels(
  pool: pg.Pool,
  names: readonly string[],
  min: FeedPosition,
  timeoutMs = 2000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 20)) {
    const reached = await readModelsPosition(pool, names);
    if (reached && comparePositions(reached, min) >= 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(delay);
  }
}
