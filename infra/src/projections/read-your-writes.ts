import { EventEmitter } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { comparePositions, type FeedPosition } from "@skyward/contracts/position";
import type pg from "pg";
import { type ProjectionRunner, readModelsPosition } from "./runtime.ts";

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

/** Waits for read models to pass a position; `waitForReadModels` polling the database is the default. */
export interface ReadModelWaiter {
  wait(names: readonly string[], min: FeedPosition, timeoutMs: number): Promise<boolean>;
}

export const pollingWaiter = (pool: pg.Pool): ReadModelWaiter => ({
  wait: (names, min, timeoutMs) => waitForReadModels(pool, names, min, timeoutMs),
});

/**
 * For a process that runs the projectors itself: compares with the checkpoints its leading runners committed and
 * wakes on their progress, with no query per waiting request; anything not led here falls back to polling.
 */
export function localWaiter(pool: pg.Pool, runners: readonly ProjectionRunner[]): ReadModelWaiter {
  const byName = new Map(runners.map((r) => [r.projection.name, r]));
  const progress = new EventEmitter();
  progress.setMaxListeners(0);
  for (const runner of runners) runner.on("advanced", () => progress.emit("advanced"));
  const reached = (names: readonly string[], min: FeedPosition) =>
    names.every((name) => {
      const committed = byName.get(name)?.committed;
      return committed && comparePositions(committed, min) >= 0;
    });
  return {
    async wait(names, min, timeoutMs) {
      const led = names.every((name) => byName.get(name)?.isLeader && byName.get(name)?.committed);
      if (!led) return waitForReadModels(pool, names, min, timeoutMs);
      const deadline = Date.now() + timeoutMs;
      while (!reached(names, min)) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            progress.off("advanced", done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(left, 100));
          progress.on("advanced", done);
        });
      }
      return true;
    },
  };
}
