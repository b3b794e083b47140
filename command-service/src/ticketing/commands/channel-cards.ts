import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { cardStream, decideCard, evolveCard, initialCard } from "../card.ts";
import { decideChannel } from "../channel.ts";
import { cardAppend, cardFor } from "./on-card.ts";
import { onChannel } from "./on-channel.ts";

/** POST /ticketing/agency_channels/{id}/credit_cards: a card the channel may pay by, attached on both streams. */
export async function attachCard(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  channelId: string,
  credit_card_id: string,
) {
  const { append } = await onChannel(deps, context, p, channelId, async (channel, cmd) => {
    const loaded = await cmd.load(cardStream(credit_card_id), evolveCard, initialCard);
    const card = cardFor(p, loaded.state, channel.agency_id);
    return {
      events: decideChannel({ type: "AttachCard", credit_card_id }, channel),
      extra: [
        cardAppend(
          context,
          card,
          loaded.version,
          decideCard({ type: "AttachToChannel", channel_id: channelId }, card),
        ),
      ],
      result: null,
    };
  });
  return { result: { data: { id: channelId, credit_card_id } }, append };
}

/** DELETE /ticketing/agency_channels/{id}/credit_cards/{card_id}: detached (a card deleted meanwhile stays so). */
export async function detachCard(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  channelId: string,
  cardId: string,
) {
  const { append } = await onChannel(deps, context, p, channelId, async (channel, cmd) => {
    const events = decideChannel({ type: "DetachCard", credit_card_id: cardId }, channel);
    const loaded = await cmd.load(cardStream(cardId), evolveCard, initialCard);
    const extra =
      loaded.state.status === "active"
        ? [
            cardAppend(
              context,
              loaded.state,
              loaded.version,
              decideCard({ type: "DetachFromChannel", channel_id: channelId }, loaded.state),
            ),
          ]
        : [];
    return { events, extra, result: null };
  });
  return { result: { data: { id: channelId, credit_card_id: cardId, detached: true } }, append };
}
