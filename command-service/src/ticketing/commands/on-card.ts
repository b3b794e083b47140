import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { StreamAppend } from "@skyward/infra/event-store/types";
import { isAdministrator } from "@skyward/infra/http/auth";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { type CardState, cardStream, type decideCard, evolveCard, initialCard } from "../card.ts";

/** A card the caller may use on a channel of `agencyId`: that agency's, or an administrators' card for them. */
export const cardFor = (p: Principal, state: CardState, agencyId?: string) => {
  const visible =
    state.status === "active" &&
    (isAdministrator(p) ? true : state.agency_id !== null && state.agency_id === p.agencyId);
  const fits =
    state.status === "active" &&
    (agencyId === undefined || state.agency_id === null || state.agency_id === agencyId);
  if (state.status !== "active" || !visible || !fits) throw new NotFound("No such card", "card_not_found");
  return state;
};

export const cardAppend = (
  context: RequestContext,
  card: { id: string; agency_id: string | null },
  version: number,
  events: readonly { type: string; data: unknown }[],
): StreamAppend => {
  const metadata = metadataFor(context, { agency_id: card.agency_id, company_id: null });
  return {
    streamId: cardStream(card.id),
    expected: version,
    events: events.map((e) => ({ ...e, metadata })),
  };
};

/** One command on a card the caller may manage. */
export function onCard(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  cardId: string,
  decide: (card: Extract<CardState, { status: "active" | "deleted" }>) => ReturnType<typeof decideCard>,
) {
  return runCommand(deps.store, async (cmd) => {
    const loaded = await cmd.load(cardStream(cardId), evolveCard, initialCard);
    const card = cardFor(p, loaded.state);
    const events = decide(card);
    return {
      appends: [cardAppend(context, card, loaded.version, events)],
      result: events.reduce(evolveCard, card as CardState),
    };
  });
}
