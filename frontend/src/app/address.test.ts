import { describe, expect, it } from "@jest/globals";
import * as z from "zod/mini";
import { address, count, isoDate, oneOf, orElse, record, text } from "./address.ts";
import { parseSearch } from "./search-params.ts";

/** What the route tree's zod/mini schemas answered for a parameter (the readers replace them). */
const zodReads = (schema: z.ZodMiniType, value: unknown) => {
  const result = z.safeParse(schema, value);
  return result.success ? result.data : "refused";
};

const SAMPLES: unknown[] = [
  undefined,
  null,
  "",
  " ",
  "0",
  "1",
  "7",
  "9",
  "10",
  "1.5",
  "-1",
  "1e2",
  " 3 ",
  "0x10",
  "100000",
  "100001",
  "abc",
  "ABC",
  " abc ",
  "Kyiv",
  "2026-02-28",
  "2028-02-29",
  "2026-02-29",
  "2026-13-01",
  "2026-1-01",
  "2026-12-31T00:00",
  "price",
  "open",
  "x".repeat(101),
  4,
  true,
  [1],
  ["a"],
  { a: 1 },
];

describe("a route's address readers", () => {
  it("given the samples, when read, then each reader answers as the zod/mini schema it replaces", () => {
    const pairs: [string, (value: unknown) => unknown, z.ZodMiniType][] = [
      ["text(3)", text(3), z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(3))), undefined)],
      [
        "text(100, min 0)",
        text(100, { min: 0 }),
        z.catch(z.optional(z.string().check(z.maxLength(100))), undefined),
      ],
      [
        "trimmed text(100)",
        text(100, { prepare: (value) => value.trim() }),
        z.catch(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))), undefined),
      ],
      [
        "count(1, 9)",
        count(1, 9),
        z.catch(z.optional(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(9)))), undefined),
      ],
      [
        "count(0, 8)",
        count(0, 8),
        z.catch(z.optional(z.pipe(z.coerce.number(), z.int().check(z.minimum(0), z.maximum(8)))), undefined),
      ],
      [
        "page",
        orElse(count(1, 100_000), 1),
        z._default(z.catch(z.pipe(z.coerce.number(), z.int().check(z.minimum(1), z.maximum(100_000))), 1), 1),
      ],
      ["isoDate", isoDate, z.catch(z.optional(z.iso.date()), undefined)],
      [
        "sort",
        oneOf(["price", "duration", "departure"]),
        z.catch(z.optional(z.enum(["price", "duration", "departure"])), undefined),
      ],
      ["calendar", oneOf(["open"]), z.catch(z.optional(z.literal("open")), undefined)],
      ["filters", record, z.catch(z.optional(z.record(z.string(), z.unknown())), undefined)],
    ];
    for (const [name, reader, schema] of pairs)
      for (const sample of SAMPLES)
        expect([name, sample, reader(sample)]).toEqual([name, sample, zodReads(schema, sample)]);
  });

  it("given an address, when a route reads it, then it keeps what its readers accept and drops the rest", () => {
    const read = address({
      from: text(3),
      adults: count(1, 9),
      page: orElse(count(1), 1),
      sort: oneOf(["price"]),
    });
    expect(read(parseSearch("?from=KBP&adults=012&sort=cheapest&extra=1&to=WAW") as never)).toEqual({
      from: "KBP",
      page: 1,
    });
    expect(read(parseSearch("?from=KBPX&adults=2&page=3&sort=price") as never)).toEqual({
      adults: 2,
      page: 3,
      sort: "price",
    });
  });
});
