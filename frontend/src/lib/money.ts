import { minorDigits } from "@skyward/contracts/minor-digits";
import type { Money } from "@skyward/contracts/money";
import { type Language, LOCALE_TAGS } from "./i18n.ts";

export { minorDigits };

/** Integer minor units as an exact decimal string ("-1234.05"): Intl formats it without a float in between. */
export function minorToDecimal(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = amount < 0 ? "-" : "";
  const text = String(Math.abs(Math.trunc(amount))).padStart(digits + 1, "0");
  if (digits === 0) return `${sign}${text}`;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(language: Language, currency: string, whole: boolean): Intl.NumberFormat {
  const key = `${language}|${currency}|${whole}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE_TAGS[language], {
      style: "currency",
      currency,
      ...(whole ? { maximumFractionDigits: 0, minimumFractionDigits: 0 } : {}),
    });
    formatters.set(key, format);
  }
  return format;
}

/** Money for people: "11 292,52 ₴" in Ukrainian, "UAH 11,292.52" in English. `whole` drops the minor units (axis labels). */
export function formatMoney(money: Money, language: Language, options: { whole?: boolean } = {}): string {
  const decimal = minorToDecimal(money.amount, money.currency);
  // Intl accepts decimal strings exactly; the type definitions still say number.
  return formatter(language, money.currency, options.whole ?? false).format(decimal as unknown as number);
}

const numberFormats = new Map<Language, Intl.NumberFormat>();

/** A count or a share for people: "1 234,5" in Ukrainian, "1,234.5" in English. */
export function formatNumber(value: number, language: Language): string {
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE_TAGS[language]);
    numberFormats.set(language, format);
  }
  return format.format(value);
}

/** Whole major units in minor units, for inputs that speak in major units (a price slider's step). */
export function majorUnit(currency: string): number {
  return 10 ** minorDigits(currency);
}
