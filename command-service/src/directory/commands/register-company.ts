import type { CreateCompanyRequest } from "@skyward/contracts/administration";
import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { RequestContext } from "@skyward/infra/http/context";
import { newId } from "@skyward/infra/ids";
import type pg from "pg";
import type { CommandDeps } from "../../deps.ts";
import { appendTo, asStored, assertCompanyNameFree, companyOf } from "../administration.ts";
import { activeAgency, agencyStream, evolveAgency, noAgency } from "../agency.ts";
import { activeCompany, companyStream, decideCompany, evolveCompany, noCompany } from "../company.ts";

/** POST /companies: a new company of a live partner, its balance empty. */
export async function registerCompany(
  deps: CommandDeps,
  context: RequestContext,
  body: CreateCompanyRequest,
) {
  const { pool } = deps;
  await assertCompanyNameFree(pool, body.agency_id, body.name);
  const currency = body.currency ?? (await partnerCurrency(pool, body.agency_id));
  const companyId = newId();
  const { result, append } = await runCommand(deps.store, async (ctx) => {
    const agency = await ctx.load(agencyStream(body.agency_id), evolveAgency, noAgency);
    activeAgency(agency.state);
    const fresh = ctx.fresh(companyStream(companyId), evolveCompany, noCompany);
    const events = decideCompany(
      {
        type: "RegisterCompany",
        company_id: companyId,
        agency_id: body.agency_id,
        name: body.name,
        currency,
        shared_bookings: body.shared_bookings,
        markups: body.markups ?? [],
      },
      fresh.state,
    );
    const metadata = metadataFor(context, { agency_id: body.agency_id, company_id: companyId });
    return {
      appends: [
        appendTo(companyStream(companyId), "no_stream", events, metadata),
        // Nothing written to the partner: its version is checked, so a company never lands in a deleted partner.
        appendTo(agencyStream(body.agency_id), agency.version, [], metadata),
      ],
      result: events.reduce((s, e) => evolveCompany(s, asStored(e)), fresh.state),
    };
  });
  return {
    result: {
      company: await companyOf(pool, activeCompany(result), { amount: null, credit_limit: 0, closed: false }),
    },
    append,
  };
}

/** The currency of a partner's first channel: what its companies' balances are naturally kept in. */
async function partnerCurrency(pool: pg.Pool, agencyId: string): Promise<string> {
  const { rows } = await pool.query<{ currency: string }>(
    "SELECT currency FROM read.channels WHERE agency_id = $1 AND NOT deleted ORDER BY created_at LIMIT 1",
    [agencyId],
  );
  return rows[0]?.currency ?? "UAH";
}
