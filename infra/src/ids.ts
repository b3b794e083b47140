import { createHash, randomUUID } from "node:crypto";

/** A stable UUID-shaped id derived from a name: the same seed run twice writes the same event ids. */
export function deterministicId(name: string): string {
  const h = createHash("sha256").update(name).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const newId = (): string => randomUUID();
