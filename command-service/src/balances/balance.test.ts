import { describe, expect, it } from "@jest/globals";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { type BalanceState, decideCharge } from "./balance.ts";

const metadata = systemMetadata("test");
const charge = (amount: number, currency = "UAH") => ({
  company_id: "c1",
  amount: { amount, currency },
  locator: "ABC234",
  reason: "issue",
});

describe("charging a company balance", () => {
  const state: BalanceState = { amount: { amount: 100_00, currency: "UAH" } };

  it("given enough balance, when charged, then BalanceCharged", () => {
    expect(decideCharge(state, charge(100_00), metadata).type).toBe("BalanceCharged");
  });
  it("given too little balance, when charged, then it is refused and the balance cannot go negative", () => {
    expect(() => decideCharge(state, charge(100_01), metadata)).toThrow("too low");
    expect(() => decideCharge({ amount: null }, charge(1), metadata)).toThrow("too low");
  });
  it("given a balance in another currency, when charged, then it is refused", () => {
    expect(() => decideCharge(state, charge(1, "PLN"), metadata)).toThrow("UAH");
  });
});
