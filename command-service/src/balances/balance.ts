import { BalanceEvent } from "@skyward/contracts/balances";
import type { BalanceCommand } from "@skyward/contracts/booking-commands";
import type { Money } from "@skyward/contracts/money";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { IllegalState, InvalidInput } from "@skyward/infra/http/errors";
import { assertNever } from "../bookings/booking.ts";

export type { BalanceCommand } from "@skyward/contracts/booking-commands";

export const balanceStream = (companyId: string) => `balance-${companyId}`;

export interface BalanceState {
  /** null until the first top-up fixes the currency. */
  amount: Money | null;
}

export const initialBalance: BalanceState = { amount: null };

export function evolveBalance(state: BalanceState, event: StoredEvent): BalanceState {
  return evolve(state, BalanceEvent.parse({ type: event.type, data: event.data }));
}

export function evolve(state: BalanceState, event: BalanceEvent): BalanceState {
  const sign = event.type === "BalanceCharged" ? -1 : 1;
  const { amount } = event.data;
  return {
    amount: { amount: (state.amount?.amount ?? 0) + sign * amount.amount, currency: amount.currency },
  };
}

/** The balance decider: never lets a balance go below zero, never mixes currencies. */
export function decide(command: BalanceCommand, state: BalanceState): BalanceEvent[] {
  if (!Number.isSafeInteger(command.amount.amount) || command.amount.amount <= 0) {
    throw new InvalidInput([
      { pointer: "/amount", detail: "must be a positive whole number of minor units" },
    ]);
  }
  const available = state.amount ?? { amount: 0, currency: command.amount.currency };
  if (available.currency !== command.amount.currency) {
    throw new IllegalState(
      `The company balance is kept in ${available.currency}, not ${command.amount.currency}`,
      "currency_mismatch",
    );
  }
  switch (command.type) {
    case "TopUpBalance":
      return [
        {
          type: "BalanceToppedUp",
          data: { company_id: command.company_id, amount: command.amount, comment: command.comment },
        },
      ];
    case "ChargeBalance":
      if (available.amount < command.amount.amount) {
        throw new IllegalState(
          "The company balance is too low to issue this booking",
          "insufficient_balance",
        );
      }
      return [{ type: "BalanceCharged", data: chargeData(command) }];
    case "CreditBalance":
      return [{ type: "BalanceCredited", data: chargeData(command) }];
    default:
      return assertNever(command);
  }
}

const chargeData = (c: { company_id: string; amount: Money; locator: string; reason: string }) => ({
  company_id: c.company_id,
  amount: c.amount,
  locator: c.locator,
  reason: c.reason,
});
