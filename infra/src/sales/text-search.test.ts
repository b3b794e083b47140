import { describe, expect, it } from "@jest/globals";
import { sampleOf, selectivePart } from "./text-search.ts";

// What the trigram index is asked for; that the lines found are the same is checked on PostgreSQL in
// scripts/src/sales-text-search.test.ts.
const many = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i));

describe("selectivePart", () => {
  const sample = sampleOf(many(1000, (i) => `${String(i).padStart(13, "0")} PASSENGER${i}/NAME KBP-WAW`));

  it("asks the index for the run of uncommon trigrams, leaving the common name part to the check", () => {
    expect(selectivePart("PASSENGER1234/", sample)).toBe("R1234");
    expect(selectivePart("PASSENGER777", sample)).toBe("R777");
  });

  it("asks for the whole text when it is all uncommon, and when nothing in it is", () => {
    expect(selectivePart("KOVALCHUK", sample)).toBeNull();
    expect(selectivePart("PASSENGER", sample)).toBeNull();
    expect(selectivePart("KBP-WAW", sample)).toBeNull();
  });

  it("asks for the whole text when the sample is too small to judge", () => {
    expect(selectivePart("PASSENGER1234/", sampleOf(["PASSENGER1/NAME"]))).toBeNull();
  });
});
