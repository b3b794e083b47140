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

/** Every event of a balance stream, told apart by `type`. */
export const BalanceEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("BalanceToppedUp"), data: BalanceToppedUp }),
  z.object({ type: z.literal("BalanceCharged"), data: BalanceCharged }),
  z.object({ type: z.literal("BalanceCredited"), data: BalanceCredited }),
]);
export type BalanceEvent = z.infer<typeof BalanceEvent>;
export type BalanceEventType = BalanceEvent["type"];
export const BALANCE_EVENT_TYPES = BalanceEvent.options.map((o) => o.shape.type.value);

export const BalanceRow = z.object({
  company_id: z.string(),
  company_name: z.string(),
  balance_amount: Money,
});
export type BalanceRow = z.infer<typeof BalanceRow>;
