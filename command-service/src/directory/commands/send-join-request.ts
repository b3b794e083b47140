import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { appendTo, joinAgencyOf } from "../administration.ts";
import { activeAgency, agencyStream, evolveAgency, noAgency } from "../agency.ts";
import { companyStream, evolveCompany, noCompany } from "../company.ts";
import {
  decideJoinRequest,
  evolve as evolveJoin,
  evolveJoinRequest,
  type JoinRequestState,
  joinRequestId,
  joinRequestStream,
  noJoinRequest,
} from "../join-request.ts";

/** POST /join_agency_requests: an agent asks to join a partner (and one of its companies). */
export async function sendJoinRequest(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  body: { agency_id: string; company_id?: string | undefined },
) {
  const requestId = joinRequestId(p.userId, body.agency_id);
  const { result, append } = await runCommand(deps.store, async (ctx) => {
    activeAgency((await ctx.load(agencyStream(body.agency_id), evolveAgency, noAgency)).state);
    if (body.company_id) {
      const company = (await ctx.load(companyStream(body.company_id), evolveCompany, noCompany)).state;
      if (company.status !== "active" || company.agency_id !== body.agency_id)
        throw new NotFound("No such company", "company_not_found");
    }
    const request = await ctx.load(joinRequestStream(requestId), evolveJoinRequest, noJoinRequest);
    const events = decideJoinRequest(
      {
        type: "SendJoinRequest",
        request_id: requestId,
        user_id: p.userId,
        agency_id: body.agency_id,
        company_id: body.company_id ?? null,
      },
      request.state,
    );
    const metadata = metadataFor(context, {
      agency_id: body.agency_id,
      company_id: body.company_id ?? null,
    });
    return {
      appends: [appendTo(joinRequestStream(requestId), request.version, events, metadata)],
      result: events.reduce<JoinRequestState>(evolveJoin, request.state),
    };
  });
  return { result: { join_agency: joinAgencyOf(result) }, append };
}
