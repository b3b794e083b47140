import { describe, expect, it } from "@jest/globals";
import { allocate, divideHalfUp, percentOf, prorate } from "./rounding.ts";

describe("money rounding", () => {
  it("given an exact half, when divided, then it rounds away from zero both ways", () => {
    expect(divideHalfUp(5n, 2n)).toBe(3n);
    expect(divideHalfUp(-5n, 2n)).toBe(-3n);
    expect(divideHalfUp(7n, 3n)).toBe(2n);
    expect(divideHalfUp(8n, 3n)).toBe(3n);
  });

  it("given basis points, when a percentage is taken, then it rounds half up to a whole minor unit", () => {
    expect(percentOf(10_000, 250)).toBe(250);
    expect(percentOf(10_001, 250)).toBe(250); // 250.025
    expect(percentOf(10_020, 250)).toBe(251); // 250.5
    expect(percentOf(199, 50)).toBe(1); // 0.995
    expect(percentOf(99, 50)).toBe(0); // 0.495
  });

  it("given amounts beyond 2^53 / 10,000, when a percentage is taken, then BigInt keeps it exact", () => {
    expect(percentOf(900_719_925_474_099, 9_999)).toBe(900_629_853_481_552);
  });

  it("given a float, when it reaches money arithmetic, then it is refused", () => {
    expect(() => percentOf(10.5, 100)).toThrow(RangeError);
    expect(() => percentOf(100, 12.5)).toThrow(RangeError);
  });

  it("given a share, when prorated, then it rounds half up", () => {
    expect(prorate(1000, 1, 3)).toBe(333);
    expect(prorate(1000, 2, 3)).toBe(667);
  });

  it("given weights, when an amount is allocated, then the parts follow the weights and sum to it exactly", () => {
    expect(allocate(1000, [1, 1, 1])).toEqual([334, 333, 333]);
    expect(allocate(1001, [2, 1, 1])).toEqual([501, 250, 250]);
    expect(allocate(10, [3, 3, 4])).toEqual([3, 3, 4]);
    expect(allocate(0, [5, 7])).toEqual([0, 0]);
    const parts = allocate(123_457, [15_871, 23_903, 9_127]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(123_457);
    expect(() => allocate(100, [0, 0])).toThrow(RangeError);
  });
});
