import { z } from "zod";
import { Money } from "./money.ts";

/** A company's prepaid balance; tickets are paid from it. Stream `balance-{company_id}`. */
export const BalanceToppedUp = z.object({
  company_id: z.string(),
  amount: Money,
  comment: z.string().max(500),
});
export const BalanceCharged = z.object({
  company_id: z.string(),
  amount: Money,
  locator: z.string(),
  reason: z.string(),
});
export const BalanceCredited = z.object({
  company_id: z.string(),
  amount: Money,
  locator: z.string(),
  reason: z.string(),
});
export type BalanceToppedUp = z.infer<typeof BalanceToppedUp>;
export type BalanceCharged = z.infer<typeof BalanceCharged>;
export type BalanceCredited = z.infer<typeof BalanceCredited>;

export const BalanceRow = z.object({
  company_id: z.string(),
  company_name: z.string(),
  balance_amount: Money,
});
export type BalanceRow = z.infer<typeof BalanceRow>;
