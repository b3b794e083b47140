import { Position } from "@skyward/contracts/position";
import type { RequestHandler } from "express";
import type { ReadModelWaiter } from "../projections/read-your-writes.ts";
import { minPositionOf } from "./last-write.ts";
import { parseInput } from "./validate.ts";

/**
 * Read-your-writes for a read route: when the client sends `X-Min-Position` (the position of its last command),
 * wait until the read models the route uses have passed it, or answer flagged `x-stale: true` after the bound;
 * without it, the browser's last write (last-write.ts) is waited for the same way, never flagged.
 */
export function freshReadModels(
  waiter: ReadModelWaiter,
  names: readonly string[],
  timeoutMs = 2000,
): RequestHandler {
  return async (req, res, next) => {
    const wanted = minPositionOf(req, (header) => parseInput(Position, header, "header"));
    if (wanted) {
      const fresh = await waiter.wait(names, wanted.min, timeoutMs);
      if (!fresh && wanted.flagStale) res.setHeader("x-stale", "true");
    }
    next();
  };
}
