import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { appendTo, asStored, assertAgencyScope, companyOf, loadBalance } from "../administration.ts";
import { activeCompany, companyStream, decideCompany, evolveCompany, noCompany } from "../company.ts";

/** Runs a command on one company the caller may manage; answers the company after it. */
export async function onCompany(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  companyId: string,
  build: (company: ReturnType<typeof activeCompany>) => Parameters<typeof decideCompany>[0],
) {
  const { result, append } = await runCommand(deps.store, async (ctx) => {
    const loaded = await ctx.load(companyStream(companyId), evolveCompany, noCompany);
    const company = activeCompany(loaded.state);
    assertAgencyScope(p, company.agency_id, "company");
    const events = decideCompany(build(company), company);
    const state = events.reduce((s, e) => evolveCompany(s, asStored(e)), loaded.state);
    const metadata = metadataFor(context, { agency_id: company.agency_id, company_id: companyId });
    const balance = await loadBalance(ctx, companyId);
    return {
      appends: [appendTo(companyStream(companyId), loaded.version, events, metadata)],
      result: { company: activeCompany(state), balance: balance.state },
    };
  });
  return { result: { company: await companyOf(deps.pool, result.company, result.balance) }, append };
}
