import { describe, expect, it } from "@jest/globals";
import { formatMoney, majorUnit, minorDigits, minorToDecimal } from "./money.ts";

describe("money", () => {
  it("knows each currency's minor units", () => {
    expect(minorDigits("UAH")).toBe(2);
    expect(minorDigits("JPY")).toBe(0);
    expect(majorUnit("EUR")).toBe(100);
  });

  it("turns minor units into an exact decimal", () => {
    expect(minorToDecimal(1129252, "UAH")).toBe("11292.52");
    expect(minorToDecimal(5, "EUR")).toBe("0.05");
    expect(minorToDecimal(-120, "PLN")).toBe("-1.20");
    expect(minorToDecimal(1500, "JPY")).toBe("1500");
    // Past 2^53 / 100 a float would already round: the string keeps every digit.
    expect(minorToDecimal(900719925474099, "USD")).toBe("9007199254740.99");
  });

  it("formats for the interface language", () => {
    // Intl separates with no-break spaces: compared with plain ones.
    const plain = (text: string) => text.replace(/\s/g, " ");
    expect(plain(formatMoney({ amount: 1129252, currency: "UAH" }, "en"))).toBe("UAH 11,292.52");
    expect(plain(formatMoney({ amount: 1129252, currency: "EUR" }, "fr"))).toBe("11 292,52 €");
    expect(plain(formatMoney({ amount: 1129252, currency: "UAH" }, "en", { whole: true }))).toBe(
      "UAH 11,293",
    );
  });
});
