import type { UpdateSupervisorRequest } from "@skyward/contracts/administration";
import { type CommandContext, runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type { z } from "zod";
import type { CommandDeps } from "../../deps.ts";
import { emailStream, evolveEmailClaim, evolveUser, noUser, userStream } from "../../identity/user.ts";
import { appendTo, endSessionsOf, personOf } from "../administration.ts";

/** A supervisor of the partner in the path, or a 404 (another partner's, an agent, a removed one). */
async function loadSupervisor(ctx: CommandContext, agencyId: string, id: string) {
  const user = await ctx.load(userStream(id), evolveUser, noUser);
  if (
    user.state.status !== "active" ||
    user.state.user_type !== "Supervisor" ||
    user.state.agency_id !== agencyId
  )
    throw new NotFound("No such supervisor", "supervisor_not_found");
  return { state: user.state, version: user.version };
}

/** PATCH /agencies/{id}/supervisors/{supervisorId}: their details, or switched off (their sessions end). */
export async function updateSupervisor(
  deps: CommandDeps,
  context: RequestContext,
  agencyId: string,
  supervisorId: string,
  body: z.infer<typeof UpdateSupervisorRequest>,
) {
  const { result, append } = await runCommand(deps.store, async (ctx) => {
    const user = await loadSupervisor(ctx, agencyId, supervisorId);
    const { active, ...details } = body;
    const events: { type: string; data: unknown }[] = [];
    const changed = Object.fromEntries(
      Object.entries(details).filter(
        ([key, value]) => value !== undefined && value !== user.state[key as keyof typeof user.state],
      ),
    );
    if (Object.keys(changed).length > 0) events.push({ type: "AccountDetailsUpdated", data: changed });
    if (active !== undefined && active !== user.state.active)
      events.push({ type: "UserActivationSet", data: { user_id: supervisorId, active } });
    const metadata = metadataFor(context, { agency_id: agencyId, company_id: null });
    const after = events.reduce(evolveUser, user.state);
    return { appends: [appendTo(userStream(supervisorId), user.version, events, metadata)], result: after };
  });
  if (result.status !== "active") throw new NotFound("No such supervisor", "supervisor_not_found");
  if (!result.active) await endSessionsOf(deps.pool, supervisorId);
  return { result: { supervisor: personOf({ ...result, id: supervisorId }) }, append };
}

/** DELETE /agencies/{id}/supervisors/{supervisorId}: removed, their address free again, their sessions ended. */
export async function removeSupervisor(
  deps: CommandDeps,
  context: RequestContext,
  agencyId: string,
  supervisorId: string,
) {
  const { append } = await runCommand(deps.store, async (ctx) => {
    const user = await loadSupervisor(ctx, agencyId, supervisorId);
    const claim = await ctx.load(emailStream(user.state.email), evolveEmailClaim, { user_id: null });
    const metadata = metadataFor(context, { agency_id: agencyId, company_id: null });
    return {
      appends: [
        appendTo(
          userStream(supervisorId),
          user.version,
          [{ type: "UserRemoved", data: { user_id: supervisorId } }],
          metadata,
        ),
        // The address is free again: it can be invited anew.
        appendTo(
          emailStream(user.state.email),
          claim.version,
          claim.state.user_id === supervisorId
            ? [{ type: "EmailReleased", data: { user_id: supervisorId } }]
            : [],
          metadata,
        ),
      ],
      result: null,
    };
  });
  await endSessionsOf(deps.pool, supervisorId);
  return { result: { data: null }, append };
}
