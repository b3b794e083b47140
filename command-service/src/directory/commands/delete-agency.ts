import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { RequestContext } from "@skyward/infra/http/context";
import { decide as decideBalance } from "../../balances/balance.ts";
import type { CommandDeps } from "../../deps.ts";
import { appendTo, loadBalance, openBookings } from "../administration.ts";
import { activeAgency, agencyStream, decideAgency, evolveAgency, noAgency } from "../agency.ts";
import { companiesOfAgency } from "../companies-of-agency.ts";
import { companyStream, decideCompany, evolveCompany, noCompany } from "../company.ts";

/** DELETE /agencies/{id}: the partner and every company of it, each balance closed in the same append. */
export async function deleteAgency(deps: CommandDeps, context: RequestContext, agencyId: string) {
  const { pool } = deps;
  const open = await openBookings(pool, { agency_id: agencyId });
  const { append } = await runCommand(deps.store, async (ctx) => {
    const loaded = await ctx.load(agencyStream(agencyId), evolveAgency, noAgency);
    activeAgency(loaded.state);
    const metadata = metadataFor(context, { agency_id: agencyId, company_id: null });
    // Every company of the partner goes with it: each balance is read here and closed in the same append, so
    // a top-up or a charge racing the deletion either lands first (and refuses it) or is refused.
    // Found in the event log, not the directory read model: one created a moment ago is never missed.
    const ids = await companiesOfAgency(pool, agencyId);
    const companies = await Promise.all(
      ids.map(async (id) => ({
        id,
        company: await ctx.load(companyStream(id), evolveCompany, noCompany),
        balance: await loadBalance(ctx, id),
      })),
    );
    const live = companies.filter(
      (c) => c.company.state.status === "active" && c.company.state.agency_id === agencyId,
    );
    const events = decideAgency(
      {
        type: "DeleteAgency",
        companies_with_money: live
          .filter((c) => (c.balance.state.amount?.amount ?? 0) !== 0)
          .map((c) => c.id),
        open_bookings: open,
      },
      loaded.state,
    );
    const appends = [appendTo(agencyStream(agencyId), loaded.version, events, metadata)];
    for (const c of live) {
      const scoped = { ...metadata, scope: { agency_id: agencyId, company_id: c.id } };
      appends.push(
        appendTo(
          companyStream(c.id),
          c.company.version,
          decideCompany(
            { type: "DeleteCompany", open_bookings: 0, balance: c.balance.state.amount },
            c.company.state,
          ),
          scoped,
        ),
        appendTo(
          `balance-${c.id}`,
          c.balance.version,
          decideBalance({ type: "CloseBalance", company_id: c.id }, c.balance.state),
          scoped,
        ),
      );
    }
    return { appends, result: null };
  });
  return { result: { data: null }, append };
}
