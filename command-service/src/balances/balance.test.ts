import { describe, expect, it } from "@jest/globals";
import { type BalanceCommand, type BalanceState, decide } from "./balance.ts";

const uah = (amount: number) => ({ amount, currency: "UAH" });
const charge = (amount: number, currency = "UAH"): BalanceCommand => ({
  type: "ChargeBalance",
  company_id: "c1",
  amount: { amount, currency },
  locator: "ABC234",
  reason: "issue",
});
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return null;
};

describe("the company balance decider", () => {
  const state: BalanceState = { amount: uah(100_00) };

  it("given enough balance, when charged, then BalanceCharged with the whole charge", () => {
    expect(decide(charge(100_00), state)).toEqual([
      {
        type: "BalanceCharged",
        data: { company_id: "c1", amount: uah(100_00), locator: "ABC234", reason: "issue" },
      },
    ]);
  });

  it("given too little balance, when charged, then it is refused and the balance cannot go negative", () => {
    expect(refusal(() => decide(charge(100_01), state))).toMatchObject({
      code: "insufficient_balance",
      status: 422,
    });
    expect(refusal(() => decide(charge(1), { amount: null }))).toMatchObject({
      code: "insufficient_balance",
    });
  });

  it("given a balance in another currency, when charged or credited, then it is refused", () => {
    expect(refusal(() => decide(charge(1, "PLN"), state))).toMatchObject({ code: "currency_mismatch" });
  });

  it("given any balance, when credited or topped up, then the event carries the amount", () => {
    const credit: BalanceCommand = {
      type: "CreditBalance",
      company_id: "c1",
      amount: uah(5_00),
      locator: "ABC234",
      reason: "void",
    };
    expect(decide(credit, state)).toEqual([
      {
        type: "BalanceCredited",
        data: { company_id: "c1", amount: uah(5_00), locator: "ABC234", reason: "void" },
      },
    ]);
    expect(
      decide(
        { type: "TopUpBalance", company_id: "c1", amount: uah(7_00), comment: "wire" },
        { amount: null },
      ),
    ).toEqual([{ type: "BalanceToppedUp", data: { company_id: "c1", amount: uah(7_00), comment: "wire" } }]);
  });

  it("given a zero, negative or fractional amount, then it is refused as invalid input", () => {
    for (const amount of [0, -500, 1.5]) {
      expect(refusal(() => decide(charge(amount), state))).toMatchObject({ code: "invalid_input" });
    }
  });
});
