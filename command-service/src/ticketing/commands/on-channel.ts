import type { EventMetadata } from "@skyward/contracts/metadata";
import { type CommandContext, type CommandOutcome, runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { StreamAppend } from "@skyward/infra/event-store/types";
import { isAdministrator } from "@skyward/infra/http/auth";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import {
  type ChannelState,
  channelStream,
  type decideChannel,
  evolveChannel,
  initialChannel,
} from "../channel.ts";

/** A live channel the caller may manage: a supervisor's own agency's, any for administrators; 404 otherwise. */
export const channelFor = (p: Principal, state: ChannelState) => {
  if (state.status !== "active" || (!isAdministrator(p) && state.agency_id !== p.agencyId))
    throw new NotFound("No such ticketing channel", "channel_not_found");
  return state;
};

export const channelAppend = (
  context: RequestContext,
  channel: { agency_id: string },
  channelId: string,
  version: number,
  events: readonly { type: string; data: unknown }[],
): StreamAppend => {
  const metadata: EventMetadata = metadataFor(context, { agency_id: channel.agency_id, company_id: null });
  return {
    streamId: channelStream(channelId),
    expected: version,
    events: events.map((e) => ({ ...e, metadata })),
  };
};

/** One command on one channel the caller may manage; `extra` adds other streams' appends to the same commit. */
export function onChannel<Result>(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  channelId: string,
  decide: (
    channel: Extract<ChannelState, { status: "active" | "deleted" }>,
    cmd: CommandContext,
  ) => Promise<{ events: ReturnType<typeof decideChannel>; extra?: StreamAppend[]; result: Result }>,
) {
  return runCommand<Result>(deps.store, async (cmd): Promise<CommandOutcome<Result>> => {
    const loaded = await cmd.load(channelStream(channelId), evolveChannel, initialChannel);
    const channel = channelFor(p, loaded.state);
    const { events, extra = [], result } = await decide(channel, cmd);
    return {
      appends: [channelAppend(context, channel, channelId, loaded.version, events), ...extra],
      result,
    };
  });
}
