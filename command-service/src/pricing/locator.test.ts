import { describe, expect, it } from "@jest/globals";
import { generateLocator, isLocator, LOCATOR_ALPHABET } from "./locator.ts";

describe("booking locators", () => {
  it("given the alphabet, then it has no 0, O, 1, I or L and no repeats", () => {
    for (const misread of ["0", "O", "1", "I", "L"]) expect(LOCATOR_ALPHABET).not.toContain(misread);
    expect(new Set(LOCATOR_ALPHABET).size).toBe(LOCATOR_ALPHABET.length);
    expect(LOCATOR_ALPHABET).toHaveLength(31);
  });

  it("given an injected random source, when a locator is generated, then it is its 6 characters from the alphabet", () => {
    const picks = [0, 30, 5, 8, 9, 12];
    const locator = generateLocator(() => picks.shift() ?? 0);
    expect(locator).toBe("2Z7ABE");
    expect(isLocator(locator)).toBe(true);
  });

  it("given many random locators, then every one is valid", () => {
    for (let i = 0; i < 500; i++) {
      expect(isLocator(generateLocator((max) => Math.floor(Math.random() * max)))).toBe(true);
    }
  });

  it("given a random source out of range, when a locator is generated, then it fails instead of printing undefined", () => {
    expect(() => generateLocator(() => 31)).toThrow(RangeError);
    expect(() => generateLocator(() => 1.5)).toThrow(RangeError);
  });

  it("given text with a misreadable letter or the wrong length, then it is not a locator", () => {
    expect(isLocator("ABC0EF")).toBe(false);
    expect(isLocator("ABCDE")).toBe(false);
    expect(isLocator("abcdef")).toBe(false);
  });
});
