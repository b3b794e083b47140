import type { CreateAgencyRequest } from "@skyward/contracts/administration";
import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { RequestContext } from "@skyward/infra/http/context";
import { newId } from "@skyward/infra/ids";
import type { CommandDeps } from "../../deps.ts";
import { appendTo, asStored, assertPartnerNameFree, partnerOf } from "../administration.ts";
import { activeAgency, agencyStream, decideAgency, evolveAgency, noAgency } from "../agency.ts";

/** POST /agencies: a new partner under a name no live partner has. */
export async function registerAgency(deps: CommandDeps, context: RequestContext, body: CreateAgencyRequest) {
  await assertPartnerNameFree(deps.pool, body.name);
  const agencyId = newId();
  const { result, append } = await runCommand(deps.store, async (ctx) => {
    const fresh = ctx.fresh(agencyStream(agencyId), evolveAgency, noAgency);
    const events = decideAgency(
      {
        type: "RegisterAgency",
        agency_id: agencyId,
        name: body.name,
        markups: body.markups ?? [],
        transaction_fee: body.transaction_fee ?? null,
        flags: {
          production_api_on: body.production_api_on,
          corporate_number_on: body.corporate_number_on,
          ghost_segments_remarks_on: body.ghost_segments_remarks_on,
        },
        time_zone: body.time_zone,
      },
      fresh.state,
    );
    const metadata = metadataFor(context, { agency_id: agencyId, company_id: null });
    return {
      appends: [appendTo(agencyStream(agencyId), "no_stream", events, metadata)],
      result: events.reduce((s, e) => evolveAgency(s, asStored(e)), fresh.state),
    };
  });
  return { result: { partner: await partnerOf(deps.pool, activeAgency(result)) }, append };
}
