import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { IllegalState, NotFound } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { evolveUser, noUser, userStream } from "../../identity/user.ts";
import { appendTo, assertAgencyScope, joinAgencyOf } from "../administration.ts";
import { companyStream, evolveCompany, noCompany } from "../company.ts";
import {
  decideJoinRequest,
  evolve as evolveJoin,
  evolveJoinRequest,
  type JoinRequestState,
  joinRequestStream,
  noJoinRequest,
} from "../join-request.ts";

/** PATCH /join_agency_requests/{id}: a manager rejects a connection request, or accepts it into a company. */
export async function answerJoinRequest(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  requestId: string,
  body: { status: "accepted" | "rejected"; company_id?: string | undefined },
) {
  const { result, append } = await runCommand(deps.store, async (ctx) => {
    const request = await ctx.load(joinRequestStream(requestId), evolveJoinRequest, noJoinRequest);
    const sent = request.state;
    if (sent.status === "none") throw new NotFound("No such connection request", "join_request_not_found");
    assertAgencyScope(p, sent.agency_id, "join_request");
    const metadata = metadataFor(context, { agency_id: sent.agency_id, company_id: null });
    if (body.status === "rejected") {
      const events = decideJoinRequest({ type: "RejectJoinRequest" }, sent);
      return {
        appends: [appendTo(joinRequestStream(requestId), request.version, events, metadata)],
        result: events.reduce<JoinRequestState>(evolveJoin, sent),
      };
    }
    const events = decideJoinRequest(
      { type: "AcceptJoinRequest", company_id: body.company_id ?? null },
      sent,
    );
    const accepted = events.reduce<JoinRequestState>(evolveJoin, sent);
    if (accepted.status !== "accepted" || !accepted.company_id)
      throw new Error("accepting decided no company");
    const companyId = accepted.company_id;
    const company = await ctx.load(companyStream(companyId), evolveCompany, noCompany);
    if (company.state.status !== "active" || company.state.agency_id !== sent.agency_id)
      throw new NotFound("No such company", "company_not_found");
    const user = await ctx.load(userStream(sent.user_id), evolveUser, noUser);
    if (user.state.status !== "active") throw new NotFound("No such agent", "user_not_found");
    if (user.state.agency_id && user.state.agency_id !== sent.agency_id && user.state.company_ids.length > 0)
      throw new IllegalState(
        "The agent works for another partner; it must be disconnected there first",
        "agent_in_other_agency",
      );
    return {
      appends: [
        appendTo(joinRequestStream(requestId), request.version, events, metadata),
        appendTo(
          userStream(sent.user_id),
          user.version,
          [
            {
              type: "UserConnectedToCompany",
              data: { user_id: sent.user_id, agency_id: sent.agency_id, company_id: companyId },
            },
          ],
          { ...metadata, scope: { agency_id: sent.agency_id, company_id: companyId } },
        ),
        appendTo(companyStream(companyId), company.version, [], metadata),
      ],
      result: accepted,
    };
  });
  return { result: { join_agency: joinAgencyOf(result) }, append };
}
