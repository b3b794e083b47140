import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import { isAdministrator } from "@skyward/infra/http/auth";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { chosenFirst, evolveUser, noUser, userStream } from "../../identity/user.ts";
import { appendTo } from "../administration.ts";
import { companyStream, evolveCompany, noCompany } from "../company.ts";

/**
 * PUT /account/selling_company: the company the caller sells for when a search names none: agents among their own
 * companies, supervisors among their partner's, administrators any (DESIGN.md section 5); another one is answered
 * as missing.
 */
export async function chooseSellingCompany(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  company_id: string,
) {
  const { result, append } = await runCommand(deps.store, async (ctx) => {
    const company = await ctx.load(companyStream(company_id), evolveCompany, noCompany);
    const c = company.state;
    const mine =
      c.status === "active" &&
      (isAdministrator(p) ||
        (p.userType === "Supervisor" && c.agency_id === p.agencyId) ||
        (p.userType === "Agent" && p.companyIds.includes(company_id)));
    if (!mine) throw new NotFound("No such company", "company_not_found");
    const user = await ctx.load(userStream(p.userId), evolveUser, noUser);
    if (user.state.status !== "active") throw new NotFound("The account does not exist", "account_not_found");
    const events = [{ type: "SellingCompanyChosen", data: { user_id: p.userId, company_id } }];
    const metadata = metadataFor(context, {
      agency_id: c.status === "active" ? c.agency_id : null,
      company_id,
    });
    return {
      appends: [
        appendTo(userStream(p.userId), user.version, events, metadata),
        appendTo(companyStream(company_id), company.version, [], metadata),
      ],
      result: chosenFirst(user.state, company_id),
    };
  });
  return { result: { data: { company_ids: result } }, append };
}
