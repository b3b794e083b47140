import type { UpdateCardRequest } from "@skyward/contracts/cards";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { decideCard } from "../card.ts";
import { onCard } from "./on-card.ts";

/** PATCH /credit_cards/{id}: its holder or expiry; answers the card without its token. */
export async function updateCard(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  cardId: string,
  patch: UpdateCardRequest,
) {
  const { result, append } = await onCard(deps, context, p, cardId, (card) =>
    decideCard({ type: "UpdateCard", ...patch, now: deps.now() }, card),
  );
  if (result.status === "none") throw new NotFound("No such card", "card_not_found");
  const { token: _token, channel_ids, status: _status, ...view } = result;
  return { result: { data: { ...view, channel_ids } }, append };
}

/** DELETE /credit_cards/{id}: refused while a channel pays by it. */
export async function deleteCard(deps: CommandDeps, context: RequestContext, p: Principal, cardId: string) {
  const { append } = await onCard(deps, context, p, cardId, (card) =>
    decideCard({ type: "DeleteCard" }, card),
  );
  return { result: { data: { id: cardId, deleted: true } }, append };
}
