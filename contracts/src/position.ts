import { z } from "zod";

/**
 * A place in the global feed: the appending transaction id and the global position, compared as a pair
 * (the feed is ordered by both). Sent as "tx-gp" in command responses and the `X-Min-Position` header.
 */
export const Position = z.string().regex(/^\d{1,20}-\d{1,20}$/, "must look like <transaction>-<position>");
export type Position = z.infer<typeof Position>;

export interface FeedPosition {
  tx: bigint;
  gp: bigint;
}

export const START_POSITION: FeedPosition = { tx: 0n, gp: 0n };

export function parsePosition(position: Position): FeedPosition {
  const [tx, gp] = position.split("-");
  return { tx: BigInt(tx ?? "0"), gp: BigInt(gp ?? "0") };
}

export function formatPosition(position: {
  tx: bigint | string | number;
  gp: bigint | string | number;
}): Position {
  return `${position.tx}-${position.gp}`;
}

export function comparePositions(a: FeedPosition, b: FeedPosition): number {
  if (a.tx !== b.tx) return a.tx < b.tx ? -1 : 1;
  if (a.gp !== b.gp) return a.gp < b.gp ? -1 : 1;
  return 0;
}
