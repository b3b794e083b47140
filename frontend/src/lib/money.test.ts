import { describe, expect, it, jest } from "@jest/globals";
import { formatMoney, formatNumber, majorUnit, minorDigits, minorToDecimal } from "./money.ts";

describe("money", () => {
  it("knows each currency's minor units", () => {
    expect(minorDigits("UAH")).toBe(2);
    expect(minorDigits("JPY")).toBe(0);
    expect(majorUnit("EUR")).toBe(100);
  });

  it("asks Intl for a currency's minor units once, however many amounts it formats", () => {
    const made = jest.spyOn(Intl, "NumberFormat");
    try {
      for (let i = 0; i < 50; i++) minorToDecimal(i, "CZK");
      expect(made).toHaveBeenCalledTimes(1);
    } finally {
      made.mockRestore();
    }
    // A code Intl does not know is refused each time, never remembered as valid.
    expect(() => minorDigits("??")).toThrow(RangeError);
    expect(() => minorDigits("??")).toThrow(RangeError);
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
    expect(plain(formatNumber(1234.5, "ua"))).toBe("1 234,5");
    expect(plain(formatNumber(1234.5, "en"))).toBe("1,234.5");
  });
});
