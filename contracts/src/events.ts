import type { z } from "zod";

/** What every stored event carries: a type naming its schema in its stream's union, and its data. */
interface Typed {
  type: string;
  data: unknown;
}

/**
 * A stored event checked against its stream's discriminated union (zod), the rest of it (position, metadata) kept:
 * folding code then narrows on `type` with no cast. Throws the zod error on an event its union does not know.
 */
export function parseEvent<U extends z.ZodType<Typed>, S extends Typed>(
  union: U,
  stored: S,
): Omit<S, "type" | "data"> & z.output<U> {
  const parsed = union.parse({ type: stored.type, data: stored.data });
  return { ...stored, ...parsed };
}

/** Ends a `switch` over every event type: a type added to a union and not handled fails to compile. */
export function unhandledEvent(event: never): never {
  throw new Error(`unhandled event ${JSON.stringify(event)}`);
}
