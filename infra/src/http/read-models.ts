import { Position, parsePosition } from "@skyward/contracts/position";
import type { RequestHandler } from "express";
import type { ReadModelWaiter } from "../projections/read-your-writes.ts";
import { parseInput } from "./validate.ts";

/**
 * Read-your-writes for a read route: when the client sends `X-Min-Position` (the position of its last command),
 * wait until the read models the route uses have passed it, or answer flagged `x-stale: true` after the bound.
 */
export function freshReadModels(
  waiter: ReadModelWaiter,
  names: readonly string[],
  timeoutMs = 2000,
): RequestHandler {
  return async (req, res, next) => {
    const header = req.get("x-min-position");
    if (header) {
      const min = parsePosition(parseInput(Position, header, "header"));
      const fresh = await waiter.wait(names, min, timeoutMs);
      if (!fresh) res.setHeader("x-stale", "true");
    }
    next();
  };
}
