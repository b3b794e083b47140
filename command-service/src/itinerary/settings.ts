import { CompanyMailEvent, companyMailStream, type ItineraryOnIssueSet } from "@skyward/contracts/itinerary";
import { formatPosition } from "@skyward/contracts/position";
import { runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../deps.ts";
import { assertAgencyScope } from "../directory/administration.ts";
import { activeCompany, companyStream, evolveCompany, noCompany } from "../directory/company.ts";

/** The company's mail settings as its `company-mail-{id}` stream folds: the itinerary on issue is on by default. */
export interface CompanyMailState {
  itinerary_on_issue: boolean;
}

export function evolveCompanyMail(_state: CompanyMailState, stored: StoredEvent): CompanyMailState {
  const event = CompanyMailEvent.parse({ type: stored.type, data: stored.data });
  return { itinerary_on_issue: event.data.on };
}

/** PATCH /companies/{id}/itinerary_on_issue: the company's supervisors (and administrators) turn it on or off. */
export async function setItineraryOnIssue(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  companyId: string,
  on: boolean,
) {
  const stream = companyMailStream(companyId);
  const { append } = await runCommand(deps.store, async (cmd) => {
    const company = await cmd.load(companyStream(companyId), evolveCompany, noCompany);
    const { agency_id } = activeCompany(company.state);
    assertAgencyScope(p, agency_id, "company");
    const settings = await cmd.load(stream, evolveCompanyMail, { itinerary_on_issue: true });
    const metadata = metadataFor(context, { agency_id, company_id: companyId });
    const data: ItineraryOnIssueSet = { company_id: companyId, on };
    const changed = settings.state.itinerary_on_issue !== on;
    return {
      appends: [
        ...(changed
          ? [
              {
                streamId: stream,
                expected: settings.version === 0 ? ("no_stream" as const) : settings.version,
                events: [{ type: "ItineraryOnIssueSet", data, metadata }],
              },
            ]
          : []),
        // Nothing written to the company: its version is checked, so a setting never lands on a deleted company.
        { streamId: companyStream(companyId), expected: company.version, events: [] },
      ],
      result: null,
    };
  });
  return {
    data: { company_id: companyId, itinerary_on_issue: on },
    position: append.position ? formatPosition(append.position) : null,
  };
}
