import type { BalanceCharged, BalanceCredited, BalanceToppedUp } from "@skyward/contracts/balances";
import type { EventMetadata } from "@skyward/contracts/metadata";
import type { Money } from "@skyward/contracts/money";
import type { NewEvent, StoredEvent } from "@skyward/infra/event-store/types";
import { IllegalState } from "@skyward/infra/http/errors";

export const balanceStream = (companyId: string) => `balance-${companyId}`;

export interface BalanceState {
  /** null until the first top-up fixes the currency. */
  amount: Money | null;
}

export const initialBalance: BalanceState = { amount: null };

export function evolveBalance(state: BalanceState, event: StoredEvent): BalanceState {
  switch (event.type) {
    case "BalanceToppedUp":
    case "BalanceCredited": {
      const { amount } = event.data as BalanceToppedUp | BalanceCredited;
      return { amount: { amount: (state.amount?.amount ?? 0) + amount.amount, currency: amount.currency } };
    }
    case "BalanceCharged": {
      const { amount } = event.data as BalanceCharged;
      return { amount: { amount: (state.amount?.amount ?? 0) - amount.amount, currency: amount.currency } };
    }
    default:
      return state;
  }
}

/** Charges a ticket to the company balance; never lets it go below zero. */
export function decideCharge(
  state: BalanceState,
  charge: { company_id: string; amount: Money; locator: string; reason: string },
  metadata: EventMetadata,
): NewEvent<"BalanceCharged", BalanceCharged> {
  const available = state.amount ?? { amount: 0, currency: charge.amount.currency };
  if (available.currency !== charge.amount.currency) {
    throw new IllegalState(
      `The company balance is kept in ${available.currency}, the booking is priced in ${charge.amount.currency}`,
      "currency_mismatch",
    );
  }
  if (available.amount < charge.amount.amount) {
    throw new IllegalState("The company balance is too low to issue this booking", "insufficient_balance");
  }
  return { type: "BalanceCharged", data: charge, metadata };
}
