import { z } from "zod";

/** ISO 4217 code. */
export const Currency = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 currency code");
export type Currency = z.infer<typeof Currency>;

/** The currencies the product sells in (the supplier's rate table covers these and no other). */
export const SELLING_CURRENCIES = [
  "EUR",
  "USD",
  "GBP",
  "CHF",
  "PLN",
  "UAH",
  "CZK",
  "HUF",
  "RON",
  "SEK",
  "NOK",
  "DKK",
  "TRY",
  "AED",
  "CAD",
] as const;
/** A currency a company can be kept in: one the product sells in. */
export const SellingCurrency = z.enum(SELLING_CURRENCIES, {
  error: () => `must be one of the currencies the product sells in: ${SELLING_CURRENCIES.join(", ")}`,
});
export type SellingCurrency = z.infer<typeof SellingCurrency>;

/** Money is integer minor units with a currency, never a float. */
export const Money = z.object({ amount: z.number().int(), currency: Currency });
export type Money = z.infer<typeof Money>;

export const money = (amount: number, currency: string): Money => ({ amount, currency });

// Without zod, in a module of its own: the front end's money formatting reads it on first pages that carry no zod.
export { minorDigits } from "./minor-digits.ts";

export function addMoney(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new Error(`currency mismatch: ${a.currency} vs ${b.currency}`);
  return { amount: a.amount + b.amount, currency: a.currency };
}
