import type { PricedAncillary, SupplierAncillary } from "@skyward/contracts/ancillaries";
import { money } from "@skyward/contracts/money";
import type { Charge, MarkupRule, PricingPolicy } from "@skyward/contracts/pricing";
import { percentOf } from "../pricing/rounding.ts";

const ruleFor = (rules: readonly MarkupRule[], carrier: string): Charge | null =>
  (rules.find((r) => r.carrier === carrier) ?? rules.find((r) => r.carrier === null))?.charge ?? null;

/** A percentage markup applies to an ancillary; a fixed one is a charge per ticket or booking, already taken there. */
const percent = (charge: Charge | null, basis: number) =>
  charge?.kind === "percent" ? percentOf(basis, charge.bps) : 0;

/**
 * An ancillary at the agent's price: the airline's price, the agency's percentage markup on it, then the company's on
 * both (as tickets are priced, apply-pricing.ts). A free item stays free.
 */
export function priceAncillary(
  item: SupplierAncillary,
  validatingCarrier: string,
  policy: PricingPolicy,
): PricedAncillary {
  const currency = item.price.currency;
  const supplier = item.price.amount;
  const agency = percent(ruleFor(policy.agency_markups, validatingCarrier), supplier);
  const company = percent(ruleFor(policy.company_markups, validatingCarrier), supplier + agency);
  return {
    ...item,
    price: money(supplier + agency + company, currency),
    supplier_price: item.price,
    agency_markup: money(agency, currency),
    company_markup: money(company, currency),
  };
}
