import { describe, expect, it } from "@jest/globals";
import { utf8Json } from "./utf8-json.ts";

/** What utf8Json must equal, byte for byte. */
const reference = (value: unknown) => Buffer.from(JSON.stringify(value) as string);

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

/** A seeded generator of values JSON has opinions about (the same values each run). */
function randomValue(next: () => number, depth: number): unknown {
  const strings = ["", "Kyiv", "Henri Coandă", "Łódź", "é", "\u0000", "\ud800", "🛫", 'a"b\\c', "\u2028"];
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const kind = depth <= 0 ? Math.floor(next() * 6) : Math.floor(next() * 9);
  switch (kind) {
    case 0:
      return pick(strings);
    case 1:
      return pick([0, -0, 1.5, -42, Number.NaN, Number.POSITIVE_INFINITY, 1e21]);
    case 2:
      return pick([true, false, null]);
    case 3:
      return pick([undefined, () => 1, Symbol("s")]);
    case 4:
      return new Date(Math.floor(next() * 2e12));
    case 5:
      return pick([new Number(3), new String("Ó"), new Boolean(false)]);
    case 6:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth - 1));
    case 7:
      return new Point(next(), next());
    default: {
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 5); i > 0; i--) out[pick(strings)] = randomValue(next, depth - 1);
      return out;
    }
  }
}

describe("utf8Json", () => {
  it("is byte for byte the UTF-8 of JSON.stringify for a search answer with one character outside Latin-1", () => {
    const od = (name: string) => ({ id: name, flights: [{ to: { name } }], fares: [{ price: 100 }] });
    const answer = {
      result: {
        id: "r1",
        currency: "UAH",
        origin_destinations: [od("Warsaw Chopin"), od("Henri Coandă International"), od("Kraków")],
      },
    };
    expect(utf8Json(answer).equals(reference(answer))).toBe(true);
    expect(JSON.parse(utf8Json(answer).toString("utf8"))).toEqual(answer);
  });

  it("leaves out and nulls what JSON does, keeps toJSON and boxed values, and escapes lone surrogates", () => {
    const cases: unknown[] = [
      { a: undefined, b: () => 1, c: Symbol("c"), d: 1 },
      { a: undefined },
      [undefined, () => 1, Symbol("x"), 2],
      { when: new Date(0), list: [new Date(1)], boxed: [new Number(1), new String("ă"), new Boolean(true)] },
      { nested: { toJSON: () => ({ replaced: "ă" }) }, arr: Object.assign([1, 2], { toJSON: () => "arr" }) },
      { lone: "\ud800", pair: "🛫", nul: "\u0000", sep: "\u2028", quote: '"\\' },
      Object.assign(Object.create(null) as object, { z: 1, a: "ă" }),
      { point: new Point(1, 2), empty: {}, none: [] },
      { 2: "b", 1: "a", x: "c" },
      [[[[[["deep", "ă"]]]]]],
      "just a string ă",
      42,
      null,
    ];
    for (const value of cases)
      for (const depth of [0, 1, 3, 10])
        expect(utf8Json(value, depth).toString()).toBe(reference(value).toString());
  });

  it("agrees with JSON.stringify on 2,000 generated values", () => {
    let seed = 26;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let compared = 0;
    for (let i = 0; i < 2000; i++) {
      const value = { v: randomValue(next, 4) };
      expect(utf8Json(value, 1 + (i % 5)).equals(reference(value))).toBe(true);
      compared++;
    }
    expect(compared).toBe(2000);
  });

  it("refuses a value that has no JSON, as the answer would otherwise be empty", () => {
    expect(() => utf8Json(undefined)).toThrow(TypeError);
    expect(() => utf8Json(() => 1)).toThrow(TypeError);
  });
});
