import { describe, expect, it } from "@jest/globals";
import type { BalanceEvent } from "@skyward/contracts/balances";
import type { BalanceAdminCommand } from "@skyward/contracts/directory-commands";
import { refusal } from "../testing/decider-kit.ts";
import { type BalanceCommand, type BalanceState, decide, evolve, initialBalance } from "./balance.ts";

const uah = (amount: number) => ({ amount, currency: "UAH" });
const charge = (amount: number, currency = "UAH"): BalanceCommand => ({
  type: "ChargeBalance",
  company_id: "c1",
  amount: { amount, currency },
  locator: "ABC234",
  reason: "issue",
});

describe("the company balance decider", () => {
  const state: BalanceState = { ...initialBalance, amount: uah(100_00) };

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
    expect(refusal(() => decide(charge(1), initialBalance))).toMatchObject({
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
      decide({ type: "TopUpBalance", company_id: "c1", amount: uah(7_00), comment: "wire" }, initialBalance),
    ).toEqual([{ type: "BalanceToppedUp", data: { company_id: "c1", amount: uah(7_00), comment: "wire" } }]);
  });

  it("given a zero, negative or fractional amount, then it is refused as invalid input", () => {
    for (const amount of [0, -500, 1.5]) {
      expect(refusal(() => decide(charge(amount), state))).toMatchObject({ code: "invalid_input" });
    }
  });

  const given = (...events: BalanceEvent[]) => events.reduce(evolve, initialBalance);
  const toppedUp = (amount: number): BalanceEvent => ({
    type: "BalanceToppedUp",
    data: { company_id: "c1", amount: uah(amount), comment: "wire" },
  });
  const limit = (amount: number): BalanceEvent => ({
    type: "BalanceCreditLimitSet",
    data: { company_id: "c1", credit_limit: uah(amount) },
  });

  it("given a credit limit, when charged, then the balance may go below zero down to the limit and no further", () => {
    const onCredit = given(toppedUp(10_00), limit(50_00));
    expect(decide(charge(60_00), onCredit)).toHaveLength(1);
    expect(refusal(() => decide(charge(60_01), onCredit))).toMatchObject({ code: "insufficient_balance" });
    expect(
      given(toppedUp(10_00), limit(50_00), {
        type: "BalanceCharged",
        data: { company_id: "c1", amount: uah(60_00), locator: "ABC234", reason: "issue" },
      }).amount,
    ).toEqual(uah(-50_00));
  });

  it("given a balance, when an administrator corrects it, then a signed correction with its reason, never below the limit", () => {
    const correct = (amount: number): BalanceAdminCommand => ({
      type: "CorrectBalance",
      company_id: "c1",
      amount: uah(amount),
      reason: "duplicate wire",
    });
    expect(decide(correct(-10_00), given(toppedUp(10_00)))).toEqual([
      { type: "BalanceCorrected", data: { company_id: "c1", amount: uah(-10_00), reason: "duplicate wire" } },
    ]);
    expect(refusal(() => decide(correct(-10_01), given(toppedUp(10_00))))).toMatchObject({
      code: "below_credit_limit",
    });
    expect(refusal(() => decide(correct(0), given(toppedUp(10_00))))).toMatchObject({
      code: "invalid_input",
    });
    expect(given(toppedUp(10_00), ...decide(correct(-4_00), given(toppedUp(10_00)))).amount).toEqual(
      uah(6_00),
    );
  });

  it("given a company that owes money, when its credit limit is lowered below the debt, then it is refused", () => {
    const owing = given(limit(50_00), {
      type: "BalanceCharged",
      data: { company_id: "c1", amount: uah(30_00), locator: "ABC234", reason: "issue" },
    });
    expect(
      refusal(() => decide({ type: "SetCreditLimit", company_id: "c1", credit_limit: uah(29_99) }, owing)),
    ).toMatchObject({ code: "below_credit_limit" });
    expect(decide({ type: "SetCreditLimit", company_id: "c1", credit_limit: uah(30_00) }, owing)).toEqual([
      limit(30_00),
    ]);
  });

  it("given a closed balance, when anything would move it, then it is refused; a balance with money cannot close", () => {
    const closed = given({ type: "BalanceClosed", data: { company_id: "c1" } });
    expect(
      refusal(() => decide({ type: "TopUpBalance", company_id: "c1", amount: uah(1), comment: "x" }, closed)),
    ).toMatchObject({ code: "company_deleted" });
    expect(refusal(() => decide(charge(1), closed))).toMatchObject({ code: "company_deleted" });
    expect(
      refusal(() => decide({ type: "CloseBalance", company_id: "c1" }, given(toppedUp(1)))),
    ).toMatchObject({ code: "company_has_money" });
    expect(decide({ type: "CloseBalance", company_id: "c1" }, initialBalance)).toEqual([
      { type: "BalanceClosed", data: { company_id: "c1" } },
    ]);
  });
});
