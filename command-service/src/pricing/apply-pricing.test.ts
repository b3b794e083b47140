import { describe, expect, it } from "@jest/globals";
import type { SupplierFare, SupplierPrice } from "@skyward/contracts/offers";
import { NO_MARKUPS, type PricingPolicy } from "@skyward/contracts/pricing";
import { IllegalState } from "@skyward/infra/http/errors";
import { applyPricing, priceFare } from "./apply-pricing.ts";

const uah = (amount: number) => ({ amount, currency: "UAH" });

/** Two adults, a child and an infant, as a supplier prices them. */
const family: SupplierPrice = {
  passengers: [
    { type: "adult", count: 2, base_fare: uah(10_000), taxes: uah(2_345), total: uah(12_345) },
    { type: "child", count: 1, base_fare: uah(7_500), taxes: uah(2_345), total: uah(9_845) },
    { type: "infant", count: 1, base_fare: uah(1_000), taxes: uah(700), total: uah(1_700) },
  ],
  base_fare: uah(28_500),
  taxes: uah(7_735),
  total: uah(36_235),
};

const policy: PricingPolicy = {
  agency_markups: [
    { carrier: null, charge: { kind: "percent", bps: 250 } },
    { carrier: "LO", charge: { kind: "fixed", amount: uah(5_000), per: "passenger" } },
  ],
  company_markups: [{ carrier: null, charge: { kind: "fixed", amount: uah(10_000), per: "booking" } }],
  transaction_fee: { kind: "percent", bps: 100 },
};

describe("pricing a supplier fare", () => {
  it("given no markups or fee, when priced, then the agent's total is the supplier's", () => {
    const detail = applyPricing(family, "PS", NO_MARKUPS);
    expect(detail.total).toEqual(family.total);
    expect(detail.agency_markup).toEqual(uah(0));
    expect(detail.passengers.map((p) => p.total.amount)).toEqual([12_345, 9_845, 1_700]);
  });

  it("given percentage markups, when priced, then each passenger's line rounds half up and the booking adds them", () => {
    const detail = applyPricing(family, "PS", policy);
    // adult: 2.5 % of 12,345 = 308.625 -> 309; fee 1 % of 12,654 = 126.54 -> 127
    // child: 2.5 % of 9,845 = 246.125 -> 246; fee 1 % of 10,091 = 100.91 -> 101
    // infant: 2.5 % of 1,700 = 42.5 -> 43; fee 1 % of 1,743 = 17.43 -> 17
    expect(
      detail.passengers.map((p) => [p.agency_markup.amount, p.transaction_fee.amount, p.total.amount]),
    ).toEqual([
      [309, 127, 12_781],
      [246, 101, 10_192],
      [43, 17, 1_760],
    ]);
    expect(detail.base_fare).toEqual(uah(28_500));
    expect(detail.taxes).toEqual(uah(7_735));
    expect(detail.agency_markup).toEqual(uah(2 * 309 + 246 + 43));
    expect(detail.company_markup).toEqual(uah(10_000));
    expect(detail.transaction_fee).toEqual(uah(2 * 127 + 101 + 17));
    expect(detail.total).toEqual(uah(47_514));
  });

  it("given a per-booking company markup, then it is in the booking lines and in no passenger line", () => {
    const detail = applyPricing(family, "PS", policy);
    expect(detail.passengers.every((p) => p.company_markup.amount === 0)).toBe(true);
    const perPassenger = detail.passengers.reduce((sum, p) => sum + p.total.amount * p.count, 0);
    expect(detail.total.amount).toBe(perPassenger + 10_000);
  });

  it("given a markup for the validating carrier, when priced, then it wins over the markup for any carrier", () => {
    const detail = applyPricing(family, "LO", policy);
    expect(detail.passengers.map((p) => p.agency_markup.amount)).toEqual([5_000, 5_000, 5_000]);
    // the fee is taken of supplier + agency: 1 % of 17,345 = 173.45 -> 173
    expect(detail.passengers[0]?.transaction_fee.amount).toBe(173);
  });

  it("given the company marks up by a percentage, then it is taken of the price the company buys at", () => {
    const detail = applyPricing(family, "PS", {
      agency_markups: [{ carrier: null, charge: { kind: "percent", bps: 1_000 } }],
      company_markups: [{ carrier: null, charge: { kind: "percent", bps: 1_000 } }],
      transaction_fee: null,
    });
    // adult: agency 10 % of 12,345 = 1,234.5 -> 1,235; company 10 % of 13,580 = 1,358
    expect(detail.passengers[0]?.agency_markup.amount).toBe(1_235);
    expect(detail.passengers[0]?.company_markup.amount).toBe(1_358);
  });

  it("given any prices and rates, when priced, then every line is an integer and the lines add up to the total", () => {
    let seed = 42;
    const next = (max: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % max;
    };
    for (let i = 0; i < 300; i++) {
      const base = next(5_000_000);
      const taxes = next(500_000);
      const price: SupplierPrice = {
        passengers: [
          {
            type: "adult",
            count: 1 + next(9),
            base_fare: uah(base),
            taxes: uah(taxes),
            total: uah(base + taxes),
          },
        ],
        base_fare: uah(0),
        taxes: uah(0),
        total: uah(0),
      };
      const detail = applyPricing(price, "PS", {
        agency_markups: [{ carrier: null, charge: { kind: "percent", bps: next(5_000) } }],
        company_markups: [{ carrier: null, charge: { kind: "percent", bps: next(5_000) } }],
        transaction_fee: { kind: "fixed", amount: uah(next(10_000)), per: "booking" },
      });
      const lines = [
        detail.base_fare,
        detail.taxes,
        detail.agency_markup,
        detail.company_markup,
        detail.transaction_fee,
      ].map((m) => m.amount);
      for (const amount of [...lines, detail.total.amount]) expect(Number.isSafeInteger(amount)).toBe(true);
      expect(lines.reduce((a, b) => a + b, 0)).toBe(detail.total.amount);
    }
  });

  it("given a fixed markup in another currency, when priced, then pricing refuses to mix currencies", () => {
    const euroMarkup: PricingPolicy = {
      ...NO_MARKUPS,
      agency_markups: [
        {
          carrier: null,
          charge: { kind: "fixed", amount: { amount: 500, currency: "EUR" }, per: "passenger" },
        },
      ],
    };
    expect(() => applyPricing(family, "PS", euroMarkup)).toThrow(IllegalState);
  });
});

describe("pricing a fare for the agent", () => {
  it("given a supplier fare, when priced, then price carries the total, its currency and one adult's price", () => {
    const fare: SupplierFare = {
      fare_id: "F1",
      validating_carrier: "PS",
      family: "standard",
      brand_name: "Economy Standard",
      cabin: "economy",
      fare_segments: [],
      penalty: {
        change_before_departure: { allowed: false },
        change_after_departure: { allowed: false },
        refund_before_departure: { allowed: false },
        refund_after_departure: { allowed: false },
      },
      seats_left: 9,
      instant_payment: false,
      price: family,
      original_price: { ...family, exchange_rate: "1.000000" },
    };
    const priced = priceFare(fare, policy);
    expect(priced.price).toEqual({ amount: 47_514, currency: "UAH", perPass: 12_781 });
    expect(priced.price_detail.total.amount).toBe(47_514);
    expect(priced.original_price_detail).toEqual(fare.original_price);
    expect(priced).not.toHaveProperty("original_price");
  });
});
