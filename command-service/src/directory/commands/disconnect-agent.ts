import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { evolveUser, noUser, userStream } from "../../identity/user.ts";
import { appendTo, assertAgencyScope } from "../administration.ts";
import {
  decideJoinRequest,
  evolveJoinRequest,
  joinRequestId,
  joinRequestStream,
  noJoinRequest,
} from "../join-request.ts";

/** DELETE /agent_company_relationships/{id}: an agent leaves a company; the connection request is reset. */
export async function disconnectAgent(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  relationshipId: string,
) {
  const { rows } = await deps.pool.query<{ user_id: string; company_id: string; agency_id: string }>(
    `SELECT r.user_id, r.company_id, c.agency_id FROM read.agent_company_relationships r
       JOIN read.companies c ON c.id = r.company_id WHERE r.id = $1`,
    [relationshipId],
  );
  const relationship = rows[0];
  if (!relationship) throw new NotFound("No such relationship", "relationship_not_found");
  assertAgencyScope(p, relationship.agency_id, "relationship");
  const { user_id, company_id, agency_id } = relationship;
  const { append } = await runCommand(deps.store, async (ctx) => {
    const user = await ctx.load(userStream(user_id), evolveUser, noUser);
    if (user.state.status !== "active" || !user.state.company_ids.includes(company_id))
      throw new NotFound("No such relationship", "relationship_not_found");
    const metadata = metadataFor(context, { agency_id, company_id });
    const requestId = joinRequestId(user_id, agency_id);
    const request = await ctx.load(joinRequestStream(requestId), evolveJoinRequest, noJoinRequest);
    return {
      appends: [
        appendTo(
          userStream(user_id),
          user.version,
          [{ type: "UserDisconnectedFromCompany", data: { user_id, company_id } }],
          metadata,
        ),
        // Disconnecting resets the connection request, so the agent may ask again.
        appendTo(
          joinRequestStream(requestId),
          request.version,
          decideJoinRequest({ type: "ResetJoinRequest" }, request.state),
          metadata,
        ),
      ],
      result: null,
    };
  });
  return { result: { data: null }, append };
}
