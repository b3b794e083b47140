import type { UpdateAgencyRequest } from "@skyward/contracts/administration";
import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { StreamAppend } from "@skyward/infra/event-store/types";
import type { RequestContext } from "@skyward/infra/http/context";
import { newId } from "@skyward/infra/ids";
import { readModelCaughtUpWithLog } from "../../caught-up.ts";
import type { CommandDeps } from "../../deps.ts";
import { channelStream, copyChannel, evolveChannel, initialChannel } from "../../ticketing/channel.ts";
import { appendTo, asStored, assertPartnerNameFree, partnerOf } from "../administration.ts";
import { activeAgency, agencyStream, decideAgency, evolveAgency, noAgency, noFlags } from "../agency.ts";

/** POST /agencies/{id}/duplicate: a new partner with the source's configuration and channels, no people or money. */
export async function duplicateAgency(
  deps: CommandDeps,
  context: RequestContext,
  sourceId: string,
  body: UpdateAgencyRequest,
) {
  const { pool } = deps;
  const sourceName = (
    await pool.query<{ name: string }>("SELECT name FROM read.agencies WHERE id = $1", [sourceId])
  ).rows[0]?.name;
  const name = body.name ?? (sourceName === undefined ? undefined : `${sourceName} (copy)`.slice(0, 200));
  if (name !== undefined) await assertPartnerNameFree(pool, name);
  const agencyId = newId();
  const { result, append } = await runCommand(deps.store, async (ctx) => {
    // The source is only read: a copy takes its configuration (name, pricing, switches), never people or money.
    const source = activeAgency((await ctx.load(agencyStream(sourceId), evolveAgency, noAgency)).state);
    const fresh = ctx.fresh(agencyStream(agencyId), evolveAgency, noAgency);
    const events = decideAgency(
      {
        type: "RegisterAgency",
        agency_id: agencyId,
        duplicated_from: sourceId,
        name: body.name ?? `${source.name} (copy)`.slice(0, 200),
        markups: body.markups ?? source.markups,
        transaction_fee: source.transaction_fee,
        flags: { ...noFlags, ...source.flags },
        time_zone: body.time_zone ?? source.time_zone,
      },
      fresh.state,
    );
    const metadata = metadataFor(context, { agency_id: agencyId, company_id: null });
    // Its channels' settings too, each a new channel of the copy (see copyChannel for what stays behind). The list
    // comes from the read model once it has every channel written so far: a channel opened a moment before the
    // copy is copied too (each one's settings are then folded from its own stream).
    await readModelCaughtUpWithLog(pool, "channels");
    const { rows: channels } = await pool.query<{ id: string }>(
      "SELECT id FROM read.channels WHERE agency_id = $1 AND NOT deleted ORDER BY created_at",
      [sourceId],
    );
    const copies: StreamAppend[] = [];
    for (const { id } of channels) {
      const channel = await ctx.load(channelStream(id), evolveChannel, initialChannel);
      if (channel.state.status !== "active") continue;
      const channelId = newId();
      const copy = copyChannel(channel.state, { channel_id: channelId, agency_id: agencyId });
      copies.push(appendTo(channelStream(channelId), "no_stream", copy, metadata));
    }
    return {
      appends: [appendTo(agencyStream(agencyId), "no_stream", events, metadata), ...copies],
      result: events.reduce((s, e) => evolveAgency(s, asStored(e)), fresh.state),
    };
  });
  return { result: { partner: await partnerOf(pool, activeAgency(result)) }, append };
}
