import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { decideChannel } from "../channel.ts";
import { onChannel } from "./on-channel.ts";

/** DELETE /ticketing/agency_channels/{id}. */
export async function deleteChannel(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  channelId: string,
) {
  const { append } = await onChannel(deps, context, p, channelId, async (channel) => ({
    events: decideChannel({ type: "DeleteChannel" }, channel),
    result: null,
  }));
  return { result: { data: { id: channelId, deleted: true } }, append };
}
