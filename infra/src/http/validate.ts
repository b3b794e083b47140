import type { z } from "zod";
import { InvalidInput } from "./errors.ts";

/** Parses outside input with a contracts schema; every issue becomes a named field in a 422. */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  location: "body" | "query" | "params" | "header" = "body",
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new InvalidInput(
    result.error.issues.map((issue) => ({
      pointer: `/${issue.path.map(String).join("/")}`,
      detail: issue.message,
      location,
    })),
  );
}
