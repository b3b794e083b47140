import type { UpdateChannelRequest } from "@skyward/contracts/ticketing-commands";
import type { StreamAppend } from "@skyward/infra/event-store/types";
import { isAdministrator } from "@skyward/infra/http/auth";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { Forbidden } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { cardStream, decideCard, evolveCard, initialCard } from "../card.ts";
import { type ChannelState, decideChannel, evolveChannel } from "../channel.ts";
import { cardAppend, cardFor } from "./on-card.ts";
import { onChannel } from "./on-channel.ts";

/**
 * PATCH /ticketing/agency_channels/{id}: switched on or off (by the platform or the supervisor), its form of
 * payment and ticketing card, its fare codes; answers the channel after it.
 */
export async function updateChannel(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  channelId: string,
  patch: UpdateChannelRequest,
) {
  if (patch.on_by_admin !== undefined && !isAdministrator(p))
    throw new Forbidden("Only administrators switch a channel on or off for the platform", "admin_only");
  const { result, append } = await onChannel(deps, context, p, channelId, async (channel, cmd) => {
    const events: ReturnType<typeof decideChannel> = [];
    let state: ChannelState = channel;
    const apply = (decided: ReturnType<typeof decideChannel>) => {
      events.push(...decided);
      state = decided.reduce(evolveChannel, state);
    };
    if (patch.on_by_admin !== undefined)
      apply(decideChannel({ type: "ToggleChannel", by: "admin", active: patch.on_by_admin }, state));
    if (patch.on_by_supervisor !== undefined)
      apply(
        decideChannel({ type: "ToggleChannel", by: "supervisor", active: patch.on_by_supervisor }, state),
      );
    const extra: StreamAppend[] = [];
    let ticketingCard: { id: string; token: string } | null | undefined;
    if (patch.ticketing_credit_card_id === null) ticketingCard = null;
    else if (patch.ticketing_credit_card_id !== undefined) {
      const loaded = await cmd.load(cardStream(patch.ticketing_credit_card_id), evolveCard, initialCard);
      const card = cardFor(p, loaded.state, channel.agency_id);
      ticketingCard = { id: card.id, token: card.token };
      const attach = decideCard({ type: "AttachToChannel", channel_id: channelId }, card);
      extra.push(cardAppend(context, card, loaded.version, attach));
    }
    apply(
      decideChannel(
        {
          type: "UpdateChannel",
          form_of_payment: patch.form_of_payment,
          ticketing_card: ticketingCard,
          nego_code: patch.nego_code,
          resident_fares_code: patch.resident_fares_code,
        },
        state,
      ),
    );
    return { events, extra, result: state };
  });
  return { result: { data: channelView(result) }, append };
}

/** A channel as a command answers it: its settings, never a token or a credential. */
function channelView(state: ChannelState) {
  if (state.status === "none") return null;
  return {
    id: state.channel_id,
    agency_id: state.agency_id,
    title: state.title,
    active_by_admin: state.active_by_admin,
    active_by_supervisor: state.active_by_supervisor,
    active_credential: state.credential_active,
    form_of_payment: state.form_of_payment,
    ticketing_credit_card_id: state.ticketing_card?.id ?? null,
    credit_card_ids: state.card_ids,
    nego_code: state.nego_code,
    resident_fares_code: state.resident_fares_code,
    ...state.sources,
  };
}
