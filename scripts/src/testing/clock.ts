import { setTimeout as sleep } from "node:timers/promises";

const DAY_MS = 86_400_000;

/**
 * Waits out the end of the UTC day when less than `marginMs` of it is left. Tickets can be voided until the end of
 * their UTC issue day (`voidUntil`), so a test that issues and then voids must not straddle midnight: one that did
 * was refused its void (422) in a CI run started at 23:56.
 */
export async function clearOfUtcMidnight(marginMs: number): Promise<void> {
  const left = DAY_MS - (Date.now() % DAY_MS);
  if (left < marginMs) await sleep(left + 1_000);
}
