import { assertNever } from "@skyward/contracts/assert-never";
import { BalanceEvent } from "@skyward/contracts/balances";
import type { BalanceCommand } from "@skyward/contracts/booking-commands";
import type { BalanceAdminCommand } from "@skyward/contracts/directory-commands";
import type { Money } from "@skyward/contracts/money";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { refuse } from "@skyward/infra/refusal";

export type { BalanceCommand } from "@skyward/contracts/booking-commands";

export const balanceStream = (companyId: string) => `balance-${companyId}`;

export interface BalanceState {
  /** null until the first top-up fixes the currency. */
  amount: Money | null;
  /** How far below zero charges may take it (minor units of the balance's currency); 0 for prepaid. */
  credit_limit: number;
  /** The company was deleted: nothing moves any more. */
  closed: boolean;
}

export const initialBalance: BalanceState = { amount: null, credit_limit: 0, closed: false };

export function evolveBalance(state: BalanceState, event: StoredEvent): BalanceState {
  return evolve(state, BalanceEvent.parse({ type: event.type, data: event.data }));
}

export function evolve(state: BalanceState, event: BalanceEvent): BalanceState {
  switch (event.type) {
    case "BalanceCreditLimitSet":
      return {
        ...state,
        amount: state.amount ?? { amount: 0, currency: event.data.credit_limit.currency },
        credit_limit: event.data.credit_limit.amount,
      };
    case "BalanceClosed":
      return { ...state, closed: true };
    case "BalanceToppedUp":
    case "BalanceCredited":
    case "BalanceCorrected":
    case "BalanceCharged": {
      const sign = event.type === "BalanceCharged" ? -1 : 1;
      const { amount } = event.data;
      return {
        ...state,
        amount: { amount: (state.amount?.amount ?? 0) + sign * amount.amount, currency: amount.currency },
      };
    }
    default:
      return assertNever(event);
  }
}

/**
 * The balance decider: never lets a balance go below its credit limit (zero for a prepaid company), never mixes
 * currencies, moves nothing on a closed balance.
 */
export function decide(command: BalanceCommand | BalanceAdminCommand, state: BalanceState): BalanceEvent[] {
  if (state.closed) throw refuse.notAllowed("The company was deleted", "company_deleted");
  switch (command.type) {
    case "CloseBalance":
      if (state.amount && state.amount.amount !== 0)
        throw refuse.notAllowed("The company still has money on its balance", "company_has_money");
      return [{ type: "BalanceClosed", data: { company_id: command.company_id } }];
    case "SetCreditLimit": {
      const limit = command.credit_limit;
      if (!Number.isSafeInteger(limit.amount) || limit.amount < 0)
        throw refuse.invalid([{ pointer: "/credit_limit", detail: "must be zero or more minor units" }]);
      sameCurrency(state, limit);
      if (state.amount && state.amount.amount < -limit.amount)
        throw refuse.notAllowed(
          "The company owes more than this credit limit; top it up first",
          "below_credit_limit",
        );
      return [
        { type: "BalanceCreditLimitSet", data: { company_id: command.company_id, credit_limit: limit } },
      ];
    }
    case "CorrectBalance": {
      const { amount } = command;
      if (!Number.isSafeInteger(amount.amount) || amount.amount === 0)
        throw refuse.invalid([
          { pointer: "/amount", detail: "must be a whole, non-zero number of minor units" },
        ]);
      const available = sameCurrency(state, amount);
      if (amount.amount < 0 && available.amount + amount.amount < -state.credit_limit)
        throw refuse.notAllowed(
          "This correction would take the balance below its credit limit",
          "below_credit_limit",
        );
      return [
        {
          type: "BalanceCorrected",
          data: { company_id: command.company_id, amount, reason: command.reason },
        },
      ];
    }
    default:
      return decideMovement(command, state);
  }
}

function sameCurrency(state: BalanceState, money: Money): Money {
  const available = state.amount ?? { amount: 0, currency: money.currency };
  if (available.currency !== money.currency) {
    throw refuse.notAllowed(
      `The company balance is kept in ${available.currency}, not ${money.currency}`,
      "currency_mismatch",
    );
  }
  return available;
}

function decideMovement(command: BalanceCommand, state: BalanceState): BalanceEvent[] {
  if (!Number.isSafeInteger(command.amount.amount) || command.amount.amount <= 0) {
    throw refuse.invalid([{ pointer: "/amount", detail: "must be a positive whole number of minor units" }]);
  }
  const available = sameCurrency(state, command.amount);
  switch (command.type) {
    case "TopUpBalance":
      return [
        {
          type: "BalanceToppedUp",
          data: { company_id: command.company_id, amount: command.amount, comment: command.comment },
        },
      ];
    case "ChargeBalance":
      if (available.amount - command.amount.amount < -state.credit_limit) {
        throw refuse.notAllowed(
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

const chargeData = (c: {
  company_id: string;
  amount: Money;
  locator: string;
  reason: string;
  operation_id?: string;
}) => ({
  company_id: c.company_id,
  amount: c.amount,
  locator: c.locator,
  reason: c.reason,
  ...(c.operation_id ? { operation_id: c.operation_id } : {}),
});
