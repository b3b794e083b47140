import { unhandledEvent } from "@skyward/contracts/events";
import {
  type BillingContactSet,
  CompanyMailEvent,
  companyMailStream,
  type ItineraryOnIssueSet,
} from "@skyward/contracts/itinerary";
import { formatPosition } from "@skyward/contracts/position";
import { decidedAppends, runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../deps.ts";
import { assertAgencyScope } from "../directory/administration.ts";
import { activeCompany, companyStream, evolveCompany, noCompany } from "../directory/company.ts";

/** The company's mail settings as its `company-mail-{id}` stream folds: the itinerary on issue is on by default. */
export interface CompanyMailState {
  itinerary_on_issue: boolean;
  billing_email: string | null;
}
export const noCompanyMail: CompanyMailState = { itinerary_on_issue: true, billing_email: null };

export function evolveCompanyMail(state: CompanyMailState, stored: StoredEvent): CompanyMailState {
  const event = CompanyMailEvent.parse({ type: stored.type, data: stored.data });
  switch (event.type) {
    case "ItineraryOnIssueSet":
      return { ...state, itinerary_on_issue: event.data.on };
    case "BillingContactSet":
      return { ...state, billing_email: event.data.email };
    default:
      return unhandledEvent(event);
  }
}

/** PATCH /companies/{id}/itinerary_on_issue: the company's supervisors (and administrators) turn it on or off. */
export async function setItineraryOnIssue(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  companyId: string,
  on: boolean,
) {
  const position = await setCompanyMail(deps, context, p, companyId, (state) =>
    state.itinerary_on_issue === on
      ? null
      : { type: "ItineraryOnIssueSet", data: { company_id: companyId, on } satisfies ItineraryOnIssueSet },
  );
  return { data: { company_id: companyId, itinerary_on_issue: on }, position };
}

/** PATCH /companies/{id}/billing_contact: where the monthly statement goes (null: it is not mailed). */
export async function setBillingContact(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  companyId: string,
  email: string | null,
) {
  const position = await setCompanyMail(deps, context, p, companyId, (state) =>
    state.billing_email === email
      ? null
      : { type: "BillingContactSet", data: { company_id: companyId, email } satisfies BillingContactSet },
  );
  return { data: { company_id: companyId, billing_email: email }, position };
}

async function setCompanyMail(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  companyId: string,
  decide: (state: CompanyMailState) => CompanyMailEvent | null,
): Promise<string | null> {
  const stream = companyMailStream(companyId);
  const { append } = await runCommand(deps.store, async (cmd) => {
    const company = await cmd.load(companyStream(companyId), evolveCompany, noCompany);
    const { agency_id } = activeCompany(company.state);
    assertAgencyScope(p, agency_id, "company");
    const settings = await cmd.load(stream, evolveCompanyMail, noCompanyMail);
    const metadata = metadataFor(context, { agency_id, company_id: companyId });
    const event = decide(settings.state);
    return {
      appends: [
        ...decidedAppends(stream, settings.version, event ? [event] : [], metadata),
        // Nothing written to the company: its version is checked, so a setting never lands on a deleted company.
        { streamId: companyStream(companyId), expected: company.version, events: [] },
      ],
      result: null,
    };
  });
  return append.position ? formatPosition(append.position) : null;
}
