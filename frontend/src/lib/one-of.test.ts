import { describe, expect, it } from "@jest/globals";
import { isOneOf } from "./one-of.ts";

describe("isOneOf", () => {
  const isCabin = isOneOf(["economy", "business"] as const);

  it("given a list, when a value from outside is one of it, then it is accepted, and anything else is not", () => {
    expect(["economy", "business"].map(isCabin)).toEqual([true, true]);
    expect(["first", "Economy", "", null, undefined, 1, ["economy"], { economy: true }].map(isCabin)).toEqual(
      Array(8).fill(false),
    );
  });
});
