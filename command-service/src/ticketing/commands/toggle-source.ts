import type { ChannelSource } from "@skyward/contracts/ticketing";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { decideChannel } from "../channel.ts";
import { onChannel } from "./on-channel.ts";

/** PATCH /ticketing/source_channels/{channel}?type=: whether a channel sells to one source (web, API, ...). */
export async function toggleSource(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  channelId: string,
  type: ChannelSource,
  active: boolean,
) {
  const { append } = await onChannel(deps, context, p, channelId, async (channel) => ({
    events: decideChannel({ type: "ToggleSource", source: type, active }, channel),
    result: null,
  }));
  return { result: { data: { id: channelId, type, active } }, append };
}
