import type { InviteUserRequest } from "@skyward/contracts/administration";
import type { UserRegistered } from "@skyward/contracts/directory";
import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { newId } from "@skyward/infra/ids";
import type { CommandDeps } from "../../deps.ts";
import { registerUserAppends } from "../../identity/user.ts";
import { appendTo, personOf } from "../administration.ts";
import { activeAgency, agencyStream, evolveAgency, noAgency } from "../agency.ts";
import { companiesOfAgency } from "../companies-of-agency.ts";
import { sendInvitation } from "../invitation.ts";

/** POST /agencies/{id}/supervisors: a supervisor of the partner, selling for the companies named (all by default). */
export async function inviteSupervisor(
  deps: CommandDeps,
  context: RequestContext,
  agencyId: string,
  body: InviteUserRequest,
) {
  const own = await companiesOfAgency(deps.pool, agencyId);
  const foreign = (body.company_ids ?? []).filter((id) => !own.includes(id));
  if (foreign.length > 0) throw new NotFound("No such company", "company_not_found");
  const { person, append } = await invite(
    deps,
    context,
    {
      email: body.email,
      first_name: body.first_name,
      last_name: body.last_name,
      phone: body.phone,
      language: body.language,
      user_type: "Supervisor",
      agency_id: agencyId,
      company_ids: body.company_ids ?? own,
    },
    { id: agencyId },
  );
  return { result: { supervisor: person }, append };
}

/** POST /supports: a support user. */
export async function inviteSupport(deps: CommandDeps, context: RequestContext, body: InviteUserRequest) {
  const { person, append } = await invite(
    deps,
    context,
    {
      email: body.email,
      first_name: body.first_name,
      last_name: body.last_name,
      phone: body.phone,
      language: body.language,
      user_type: "Support",
      agency_id: null,
      company_ids: [],
    },
    null,
  );
  return { result: { support: person }, append };
}

/** Registers an invited supervisor or support user, then sends the invitation. */
async function invite(
  deps: CommandDeps,
  context: RequestContext,
  user: Omit<UserRegistered, "user_id" | "demo_user" | "auth_method" | "phone"> & {
    phone?: string | undefined;
  },
  partner: { id: string } | null,
) {
  const userId = newId();
  const registered: UserRegistered = {
    ...user,
    phone: user.phone || null,
    user_id: userId,
    demo_user: false,
    auth_method: "otp",
  };
  let partnerName: string | null = null;
  const { append } = await runCommand(deps.store, async (ctx) => {
    const metadata = metadataFor(context, { agency_id: registered.agency_id, company_id: null });
    const appends = await registerUserAppends(ctx, registered, metadata);
    if (partner) {
      const agency = await ctx.load(agencyStream(partner.id), evolveAgency, noAgency);
      partnerName = activeAgency(agency.state).name;
      appends.push(appendTo(agencyStream(partner.id), agency.version, [], metadata));
    }
    return { appends, result: null };
  });
  await sendInvitation(
    deps,
    {
      email: registered.email,
      first_name: registered.first_name,
      language: registered.language,
      role: registered.user_type === "Support" ? "Support" : "Supervisor",
      partner: partnerName,
    },
    context.traceId,
  );
  return { person: personOf({ ...registered, id: userId, active: true }), append };
}
