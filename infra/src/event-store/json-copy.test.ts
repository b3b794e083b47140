// jsonCopy gives what a trip through JSON gives (issue 26), checked on generated values with every edge JSON has.
import { describe, expect, it } from "@jest/globals";
import { jsonCopy } from "./json-copy.ts";

/** A small seeded generator (mulberry32), so a failure names the seed that shows it. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class WithProto {
  own = 1;
}
Object.defineProperty(WithProto.prototype, "inherited", { value: 2, enumerable: true });

const LEAVES: (() => unknown)[] = [
  () => "text",
  () => "Łódź \ud800 lone",
  () => "",
  () => 0,
  () => -0,
  () => 1.5,
  () => -42,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => true,
  () => false,
  () => null,
  () => undefined,
  () => () => 1,
  () => Symbol("s"),
  () => new Date(Date.UTC(2026, 10, 30, 1, 2, 3)),
  () => new Date(Number.NaN),
  () => ({ toJSON: (key: string) => `key:${key}` }),
  () => ({ toJSON: () => undefined }),
  () => new Number(3),
  () => new String("boxed"),
  () => new Boolean(false),
  () => new WithProto(),
  () => new Map([[1, 2]]),
  () => Object.assign(Object.create(null), { bare: 1 }),
];
const KEYS = ["a", "b", "10", "2", "fare", "__proto__x", "", "ключ"];

function value(next: () => number, depth: number): unknown {
  const roll = next();
  if (depth > 3 || roll < 0.5) return (LEAVES[Math.floor(next() * LEAVES.length)] as () => unknown)();
  if (roll < 0.75) return Array.from({ length: Math.floor(next() * 5) }, () => value(next, depth + 1));
  const out: Record<string | symbol, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--)
    out[KEYS[Math.floor(next() * KEYS.length)] as string] = value(next, depth + 1);
  if (next() < 0.1) out[Symbol("hidden")] = 1;
  return out;
}

/** Same structure, the same keys in the same order, and primitives equal by Object.is (so -0 and 0 differ). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b))
    return false;
  const [ka, kb] = [Object.keys(a), Object.keys(b)];
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i]) &&
    ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

describe("jsonCopy", () => {
  it("gives what JSON.parse(JSON.stringify(value)) gives, for 2,000 generated values", () => {
    for (let seed = 1; seed <= 2_000; seed++) {
      const input = value(random(seed), 0);
      const text = JSON.stringify(input);
      const expected = text === undefined ? undefined : JSON.parse(text);
      const copied = jsonCopy(input);
      if (!same(copied, expected)) throw new Error(`seed ${seed}: ${JSON.stringify(copied)} != ${text}`);
    }
  });

  it("copies: changing the copy leaves the value as it was", () => {
    const input = { fare: { rules: [{ change: { allowed: true } }] }, passengers: [{ name: "A" }] };
    const copied = jsonCopy(input);
    for (const rule of copied.fare.rules) rule.change.allowed = false;
    copied.passengers.push({ name: "B" });
    expect(input).toEqual({ fare: { rules: [{ change: { allowed: true } }] }, passengers: [{ name: "A" }] });
  });

  it("refuses a BigInt, as JSON does", () => {
    expect(() => JSON.stringify({ n: 1n })).toThrow(TypeError);
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
  });
});
