import type { SellingCurrency } from "@skyward/contracts/money";
import { divideHalfUp } from "../../pricing/rounding.ts";
import { SupplierRejected } from "../errors.ts";

/**
 * The sandbox's fixed exchange rates: units of each currency per 1 EUR, in millionths, so conversion is integer
 * arithmetic. Illustrative mid-2025 values, not a market feed.
 */
const PER_EUR_MICROS: Readonly<Record<SellingCurrency, bigint>> = {
  EUR: 1_000_000n,
  USD: 1_080_000n,
  GBP: 850_000n,
  CHF: 950_000n,
  PLN: 4_300_000n,
  UAH: 45_000_000n,
  CZK: 25_000_000n,
  HUF: 400_000_000n,
  RON: 4_970_000n,
  SEK: 11_300_000n,
  NOK: 11_600_000n,
  DKK: 7_460_000n,
  TRY: 38_000_000n,
  AED: 3_970_000n,
  CAD: 1_480_000n,
};

/** ISO 4217 minor-unit digits; every sandbox currency has two. */
const MINOR_DIGITS = 2;

const SANDBOX_CURRENCIES: readonly string[] = Object.keys(PER_EUR_MICROS);

function perEur(currency: string): bigint {
  const rate = (PER_EUR_MICROS as Readonly<Record<string, bigint>>)[currency];
  if (rate === undefined) {
    throw new SupplierRejected(
      "unsupported_currency",
      `The sandbox sells in ${SANDBOX_CURRENCIES.join(", ")}; ${currency} is not one of them`,
    );
  }
  return rate;
}

export function assertSupportedCurrency(currency: string): void {
  perEur(currency);
}

const PER_EUR_MICROS_NUMBERS: ReadonlyMap<string, number> = new Map(
  Object.entries(PER_EUR_MICROS).map(([currency, micros]) => [currency, Number(micros)]),
);

/**
 * Converts integer minor units between currencies, rounding half up to the target's minor unit. Sale amounts fit
 * doubles exactly, so the division is done there (as divideHalfUp does it in BigInt) without allocating BigInts;
 * anything larger takes the BigInt way.
 */
export function convertMinor(amount: number, from: string, to: string): number {
  if (from === to) return amount;
  const toMicros = PER_EUR_MICROS_NUMBERS.get(to);
  const fromMicros = PER_EUR_MICROS_NUMBERS.get(from);
  if (toMicros !== undefined && fromMicros !== undefined && Number.isSafeInteger(amount)) {
    // (2n + d) / 2d rounded down is n / d rounded half up; exact while every term stays below 2^53.
    const dividend = 2 * Math.abs(amount) * toMicros + fromMicros;
    const divisor = 2 * fromMicros;
    if (dividend + divisor <= Number.MAX_SAFE_INTEGER) {
      let quotient = Math.floor(dividend / divisor);
      const remainder = dividend - quotient * divisor;
      if (remainder < 0) quotient--;
      else if (remainder >= divisor) quotient++;
      return amount < 0 && quotient !== 0 ? -quotient : quotient;
    }
  }
  return Number(divideHalfUp(BigInt(amount) * perEur(to), perEur(from)));
}

const rateTexts = new Map<string, string>();

/** Sale units per filed unit, to six decimals, e.g. "10.465116" for PLN into UAH. */
export function exchangeRate(from: string, to: string): string {
  const key = `${from}${to}`;
  const cached = rateTexts.get(key);
  if (cached) return cached;
  const micros = divideHalfUp(perEur(to) * 1_000_000n, perEur(from));
  const whole = micros / 1_000_000n;
  const fraction = String(micros % 1_000_000n).padStart(6, "0");
  const text = `${whole}.${fraction}`;
  rateTexts.set(key, text);
  return text;
}

/** A model amount in euros (a float from the price model) as whole minor units of the filing currency. */
export function eurosToMinor(euros: number, currency: string, roundToWholeUnits = false): number {
  const rate = PER_EUR_MICROS_NUMBERS.get(currency) ?? Number(perEur(currency));
  const minor = (euros * rate * 10 ** MINOR_DIGITS) / 1_000_000;
  const unit = roundToWholeUnits ? 10 ** MINOR_DIGITS : 1;
  return Math.round(minor / unit) * unit;
}
