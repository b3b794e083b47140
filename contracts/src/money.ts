import { z } from "zod";

/** ISO 4217 code. */
export const Currency = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 currency code");
export type Currency = z.infer<typeof Currency>;

/** Money is integer minor units with a currency, never a float. */
export const Money = z.object({ amount: z.number().int(), currency: Currency });
export type Money = z.infer<typeof Money>;

export const money = (amount: number, currency: string): Money => ({ amount, currency });

export function addMoney(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new Error(`currency mismatch: ${a.currency} vs ${b.currency}`);
  return { amount: a.amount + b.amount, currency: a.currency };
}
