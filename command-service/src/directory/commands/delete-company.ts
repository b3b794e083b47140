import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { decide as decideBalance } from "../../balances/balance.ts";
import type { CommandDeps } from "../../deps.ts";
import { appendTo, assertAgencyScope, loadBalance, openBookings } from "../administration.ts";
import { activeCompany, companyStream, decideCompany, evolveCompany, noCompany } from "../company.ts";

/** DELETE /companies/{id}: refused while money or an open booking is on it; its balance closes with it. */
export async function deleteCompany(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  companyId: string,
) {
  const open = await openBookings(deps.pool, { company_id: companyId });
  const { append } = await runCommand(deps.store, async (ctx) => {
    const loaded = await ctx.load(companyStream(companyId), evolveCompany, noCompany);
    const company = activeCompany(loaded.state);
    assertAgencyScope(p, company.agency_id, "company");
    const balance = await loadBalance(ctx, companyId);
    const metadata = metadataFor(context, { agency_id: company.agency_id, company_id: companyId });
    const events = decideCompany(
      { type: "DeleteCompany", open_bookings: open, balance: balance.state.amount },
      company,
    );
    // The balance closes in the same append: an issue charging it meanwhile makes this append conflict, and
    // after it no charge, top-up or credit lands on the deleted company.
    return {
      appends: [
        appendTo(companyStream(companyId), loaded.version, events, metadata),
        appendTo(
          `balance-${companyId}`,
          balance.version,
          decideBalance({ type: "CloseBalance", company_id: companyId }, balance.state),
          metadata,
        ),
      ],
      result: null,
    };
  });
  return { result: { data: null }, append };
}
