import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { appendTo, asStored, assertAgencyScope, partnerOf } from "../administration.ts";
import { activeAgency, agencyStream, decideAgency, evolveAgency, noAgency } from "../agency.ts";

/** Runs a command on one partner stream the caller may manage; answers the partner after it. */
export async function onAgency(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  agencyId: string,
  build: (agency: ReturnType<typeof activeAgency>) => Parameters<typeof decideAgency>[0],
) {
  assertAgencyScope(p, agencyId);
  const { result, append } = await runCommand(deps.store, async (ctx) => {
    const loaded = await ctx.load(agencyStream(agencyId), evolveAgency, noAgency);
    const agency = activeAgency(loaded.state);
    const events = decideAgency(build(agency), agency);
    const state = events.reduce((s, e) => evolveAgency(s, asStored(e)), loaded.state);
    const metadata = metadataFor(context, { agency_id: agencyId, company_id: null });
    return { appends: [appendTo(agencyStream(agencyId), loaded.version, events, metadata)], result: state };
  });
  return { result: { partner: await partnerOf(deps.pool, activeAgency(result)) }, append };
}
