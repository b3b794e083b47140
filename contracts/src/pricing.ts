import { z } from "zod";
import { Money } from "./money.ts";
import { CarrierCode } from "./offers.ts";

/** 1 basis point = 0.01 %; 250 = 2.5 %. */
export const BasisPoints = z.number().int().min(0).max(100_000);

/** A fixed amount per passenger (ticket) or per booking, or a percentage of the price it is added to. */
export const Charge = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("fixed"), amount: Money, per: z.enum(["passenger", "booking"]) }),
  z.object({ kind: z.literal("percent"), bps: BasisPoints }),
]);
export type Charge = z.infer<typeof Charge>;

/** A markup for any carrier (carrier null) or for one validating carrier; the carrier's own rule wins. */
export const MarkupRule = z.object({
  carrier: CarrierCode.nullable(),
  charge: Charge,
});
export type MarkupRule = z.infer<typeof MarkupRule>;

/** Everything pricing needs to turn a supplier price into the agent's price. */
export const PricingPolicy = z.object({
  agency_markups: z.array(MarkupRule),
  company_markups: z.array(MarkupRule),
  transaction_fee: Charge.nullable(),
});
export type PricingPolicy = z.infer<typeof PricingPolicy>;

export const NO_MARKUPS: PricingPolicy = { agency_markups: [], company_markups: [], transaction_fee: null };
