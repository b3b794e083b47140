import { describe, expect, it } from "@jest/globals";
import { parseTypedDate } from "./date-field.tsx";

describe("typed dates", () => {
  it("reads the day first, or an ISO date", () => {
    expect(parseTypedDate("12.04.1985")).toBe("1985-04-12");
    expect(parseTypedDate(" 1/2/2030 ")).toBe("2030-02-01");
    expect(parseTypedDate("1985-04-12")).toBe("1985-04-12");
  });

  it("refuses dates that do not exist", () => {
    expect(parseTypedDate("31.02.2026")).toBeNull();
    expect(parseTypedDate("12.13.2026")).toBeNull();
    expect(parseTypedDate("tomorrow")).toBeNull();
  });
});
