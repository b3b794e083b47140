import { formatPosition } from "@skyward/contracts/position";
import type { AppendResult } from "@skyward/infra/event-store/types";
import type { Response } from "express";

/**
 * What a command module returns: the body it answers with, and the append that carried its events (as
 * `runCommand` returns them). The route turns it into HTTP with `answer`.
 */
export interface CommandResult<Body extends object> {
  result: Body;
  append: AppendResult;
}

/** The append's position as the wire carries it (X-Min-Position of the next read); null when nothing was written. */
export const positionOf = (append: AppendResult) =>
  append.position ? formatPosition(append.position) : null;

/**
 * A command's result on the wire: its body and the position its append reached, 200 or (for what it created) 201.
 * Refusals never come here: they are thrown and mapped to the `{errors: [...]}` envelope in one middleware.
 */
export function answer(
  res: Response,
  { result, append }: CommandResult<object>,
  status: 200 | 201 = 200,
): void {
  res.status(status).json({ ...result, position: positionOf(append) });
}
