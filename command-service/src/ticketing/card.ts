import {
  CardEvent,
  type CardRegistered,
  type ClaimCard,
  type PaidBy,
  type PaymentChoice,
} from "@skyward/contracts/cards";
import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import type { CardCommand } from "@skyward/contracts/ticketing-commands";
import { refuse } from "@skyward/infra/refusal";

export const cardStream = (cardId: string) => `card-${cardId}`;

export type CardState =
  | { status: "none" }
  | ({ status: "active" | "deleted" } & Omit<CardRegistered, "card_id"> & {
        id: string;
        channel_ids: string[];
      });

export const initialCard: CardState = { status: "none" };

export function evolveCard(state: CardState, stored: { type: string; data: unknown }): CardState {
  const event = parseEvent(CardEvent, stored);
  if (event.type === "CardRegistered") {
    const { card_id, ...facts } = event.data;
    return { status: "active", id: card_id, ...facts, channel_ids: [] };
  }
  if (state.status === "none") return state;
  switch (event.type) {
    case "CardUpdated":
      return { ...state, ...event.data };
    case "CardAttachedToChannel":
      return { ...state, channel_ids: [...state.channel_ids, event.data.channel_id] };
    case "CardDetachedFromChannel":
      return { ...state, channel_ids: state.channel_ids.filter((id) => id !== event.data.channel_id) };
    case "CardDeleted":
      return { ...state, status: "deleted" };
    default:
      return unhandledEvent(event);
  }
}

/** A card expires at the end of its expiry month (UTC). */
export function expired(expMonth: number, expYear: number, now: Date): boolean {
  return Date.UTC(expYear, expMonth, 1) <= now.getTime();
}

/** The card a claim reads for the channel that pays by it: what the paying decision checks. */
export function claimCard(state: CardState): ClaimCard | null {
  if (state.status === "none") return null;
  const { id, status, brand, last4, exp_month, exp_year } = state;
  return { card_id: id, status, brand, last4, exp_month, exp_year };
}

/**
 * How a claim that charges is paid, decided at the moment of the claim: the balance, or the channel's card if it is
 * there, not deleted and not expired.
 */
export function decidePayment(choice: PaymentChoice, now: Date): PaidBy {
  if (choice.method === "balance") return { method: "balance" };
  const { card } = choice;
  if (card?.status !== "active")
    throw refuse.notAllowed("Ticketing is switched off: the channel has no card to pay with", "card_missing");
  if (expired(card.exp_month, card.exp_year, now))
    throw refuse.notAllowed(
      `The channel's card (${card.brand} ending ${card.last4}) expired at the end of ${String(card.exp_month).padStart(2, "0")}/${card.exp_year}: renew it or choose another form of payment`,
      "card_expired",
    );
  return { method: "card", card_id: card.card_id, brand: card.brand, last4: card.last4 };
}

const notFound = () => refuse.missing("No such card", "card_not_found");

/** The card decider: an expired card is refused, and a card a channel still uses cannot be deleted. */
export function decideCard(command: CardCommand, state: CardState): CardEvent[] {
  if (command.type === "RegisterCard") {
    if (state.status !== "none") throw refuse.notAllowed("The card exists already", "card_exists");
    if (expired(command.facts.exp_month, command.facts.exp_year, command.now))
      throw refuse.invalid([{ pointer: "/exp_year", detail: "the card has expired" }]);
    return [
      {
        type: "CardRegistered",
        data: {
          card_id: command.card_id,
          agency_id: command.agency_id,
          ...command.facts,
          token: command.token,
        },
      },
    ];
  }
  if (state.status !== "active") throw notFound();
  switch (command.type) {
    case "UpdateCard": {
      const next = {
        exp_month: command.exp_month ?? state.exp_month,
        exp_year: command.exp_year ?? state.exp_year,
        holder: command.holder ?? state.holder,
      };
      if (expired(next.exp_month, next.exp_year, command.now))
        throw refuse.invalid([{ pointer: "/exp_year", detail: "the card has expired" }]);
      if (
        next.exp_month === state.exp_month &&
        next.exp_year === state.exp_year &&
        next.holder === state.holder
      )
        return [];
      return [{ type: "CardUpdated", data: next }];
    }
    case "AttachToChannel":
      if (state.channel_ids.includes(command.channel_id)) return [];
      return [{ type: "CardAttachedToChannel", data: { channel_id: command.channel_id } }];
    case "DetachFromChannel":
      if (!state.channel_ids.includes(command.channel_id)) return [];
      return [{ type: "CardDetachedFromChannel", data: { channel_id: command.channel_id } }];
    case "DeleteCard":
      if (state.channel_ids.length > 0)
        throw refuse.notAllowed(
          `The card is attached to ${state.channel_ids.length} ticketing channel(s): detach it first`,
          "card_in_use",
        );
      return [{ type: "CardDeleted", data: {} }];
    default:
      return unhandledEvent(command);
  }
}
