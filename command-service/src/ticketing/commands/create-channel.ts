import type { CreateChannelRequest } from "@skyward/contracts/ticketing-commands";
import { runCommand } from "@skyward/infra/event-store/command";
import type { RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { newId } from "@skyward/infra/ids";
import type pg from "pg";
import type { CommandDeps } from "../../deps.ts";
import { channelStream, decideChannel, evolveChannel, initialChannel } from "../channel.ts";
import { initialPartnerGate } from "../gates.ts";
import { channelAppend } from "./on-channel.ts";
import { foldAgencyGate } from "./toggle-gate.ts";

/** POST /ticketing/agency_channels: a channel of a live agency, switched off until it is enabled. */
export async function createChannel(
  deps: CommandDeps,
  context: RequestContext,
  request: CreateChannelRequest,
) {
  const currency = await agencyCurrency(deps.pool, request.agency_id);
  const channelId = newId();
  const { append } = await runCommand(deps.store, async (cmd) => {
    const agency = await cmd.load(`agency-${request.agency_id}`, foldAgencyGate, initialPartnerGate);
    if (!agency.state.exists) throw new NotFound("No such agency", "agency_not_found");
    const channel = cmd.fresh(channelStream(channelId), evolveChannel, initialChannel);
    const events = decideChannel(
      {
        type: "CreateChannel",
        channel_id: channelId,
        agency_id: request.agency_id,
        title: request.name,
        currency,
      },
      channel.state,
    );
    return {
      appends: [
        { ...channelAppend(context, request, channelId, 0, events), expected: "no_stream" },
        // The agency must still exist when the channel is created: its stream is checked at the version read.
        { streamId: `agency-${request.agency_id}`, expected: agency.version, events: [] },
      ],
      result: null,
    };
  });
  return {
    result: {
      data: {
        id: channelId,
        agency_id: request.agency_id,
        title: request.name,
        currency,
        active: false,
        active_by_admin: false,
        active_credential: false,
      },
    },
    append,
  };
}

/** The currency an agency's companies sell in: a channel sells in it too. */
async function agencyCurrency(pool: pg.Pool, agencyId: string): Promise<string> {
  const { rows } = await pool.query<{ currency: string }>(
    "SELECT currency FROM read.companies WHERE agency_id = $1 ORDER BY name LIMIT 1",
    [agencyId],
  );
  return rows[0]?.currency ?? "EUR";
}
