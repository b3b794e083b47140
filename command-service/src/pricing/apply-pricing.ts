import { type Money, money } from "@skyward/contracts/money";
import type {
  Fare,
  OfferDetails,
  PassengerPriceDetail,
  PriceDetail,
  SearchResult,
  SupplierFare,
  SupplierOfferDetails,
  SupplierPrice,
  SupplierSearchResult,
} from "@skyward/contracts/offers";
import type { Charge, MarkupRule, PricingPolicy } from "@skyward/contracts/pricing";
import { IllegalState } from "@skyward/infra/http/errors";
import { assertMinorUnits, percentOf } from "./rounding.ts";

/**
 * Supplier fare -> the agent's price. For each passenger:
 *   supplier  = base fare + taxes
 *   agency    = agency markup on the supplier amount
 *   company   = company markup on supplier + agency (what the company buys at)
 *   fee       = transaction fee on supplier + agency + company
 * A percentage is in basis points, taken of that passenger's amount and rounded half up to a whole minor unit; booking
 * lines are the rounded passenger lines times their counts, plus per-booking fixed charges. So a ticket's price times
 * the passengers adds up to the total exactly, and no float ever touches money.
 */
export function applyPricing(
  price: SupplierPrice,
  validatingCarrier: string,
  policy: PricingPolicy,
): PriceDetail {
  const currency = price.total.currency;
  const agency = ruleFor(policy.agency_markups, validatingCarrier);
  const company = ruleFor(policy.company_markups, validatingCarrier);
  const fee = policy.transaction_fee;
  for (const charge of [agency, company, fee]) assertChargeCurrency(charge, currency);

  const passengers: PassengerPriceDetail[] = price.passengers.map((p) => {
    assertMinorUnits(p.base_fare.amount, "base fare");
    assertMinorUnits(p.taxes.amount, "taxes");
    const supplier = p.base_fare.amount + p.taxes.amount;
    const agencyMarkup = perPassenger(agency, supplier);
    const companyMarkup = perPassenger(company, supplier + agencyMarkup);
    const transactionFee = perPassenger(fee, supplier + agencyMarkup + companyMarkup);
    return {
      type: p.type,
      count: p.count,
      base_fare: p.base_fare,
      taxes: p.taxes,
      agency_markup: money(agencyMarkup, currency),
      company_markup: money(companyMarkup, currency),
      transaction_fee: money(transactionFee, currency),
      total: money(supplier + agencyMarkup + companyMarkup + transactionFee, currency),
    };
  });

  const sum = (line: (p: PassengerPriceDetail) => Money) =>
    passengers.reduce((total, p) => total + line(p).amount * p.count, 0);
  const baseFare = sum((p) => p.base_fare);
  const taxes = sum((p) => p.taxes);
  const agencyMarkup = sum((p) => p.agency_markup) + perBooking(agency);
  const companyMarkup = sum((p) => p.company_markup) + perBooking(company);
  const transactionFee = sum((p) => p.transaction_fee) + perBooking(fee);
  return {
    passengers,
    base_fare: money(baseFare, currency),
    taxes: money(taxes, currency),
    agency_markup: money(agencyMarkup, currency),
    company_markup: money(companyMarkup, currency),
    transaction_fee: money(transactionFee, currency),
    total: money(baseFare + taxes + agencyMarkup + companyMarkup + transactionFee, currency),
  };
}

/** The validating carrier's own rule wins over the rule for any carrier. */
function ruleFor(rules: readonly MarkupRule[], carrier: string): Charge | null {
  return (rules.find((r) => r.carrier === carrier) ?? rules.find((r) => r.carrier === null))?.charge ?? null;
}

export function priceFare(fare: SupplierFare, policy: PricingPolicy): Fare {
  const { price, original_price, ...rest } = fare;
  const detail = applyPricing(price, fare.validating_carrier, policy);
  const adult = detail.passengers.find((p) => p.type === "adult") ?? detail.passengers[0];
  return {
    ...rest,
    price: {
      amount: detail.total.amount,
      currency: detail.total.currency,
      perPass: adult?.total.amount ?? 0,
    },
    price_detail: detail,
    original_price_detail: original_price,
  };
}

export function priceSearchResult(result: SupplierSearchResult, policy: PricingPolicy): SearchResult {
  return {
    ...result,
    origin_destinations: result.origin_destinations.map((od) => ({
      ...od,
      fares: od.fares.map((fare) => priceFare(fare, policy)),
    })),
  };
}

export function priceOfferDetails(details: SupplierOfferDetails, policy: PricingPolicy): OfferDetails {
  return { ...details, fare: priceFare(details.fare, policy) };
}

function perPassenger(charge: Charge | null, basis: number): number {
  if (!charge) return 0;
  if (charge.kind === "percent") return percentOf(basis, charge.bps);
  return charge.per === "passenger" ? charge.amount.amount : 0;
}

function perBooking(charge: Charge | null): number {
  return charge?.kind === "fixed" && charge.per === "booking" ? charge.amount.amount : 0;
}

function assertChargeCurrency(charge: Charge | null, currency: string): void {
  if (charge?.kind === "fixed" && charge.amount.currency !== currency) {
    throw new IllegalState(
      `A markup or fee of ${charge.amount.currency} cannot be added to a price in ${currency}`,
      "markup_currency_mismatch",
    );
  }
}
