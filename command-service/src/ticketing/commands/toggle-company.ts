import type { StoredEvent } from "@skyward/infra/event-store/types";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { decideChannel } from "../channel.ts";
import { onChannel } from "./on-channel.ts";

/** Only what the channel routes need of a company: the agency it belongs to, while it exists. */
interface CompanyOfAgency {
  agency_id: string | null;
  name: string | null;
}
const foldCompanyOfAgency = (state: CompanyOfAgency, event: StoredEvent): CompanyOfAgency => {
  if (event.type === "CompanyRegistered") {
    const data = event.data as { agency_id: string; name: string };
    return { agency_id: data.agency_id, name: data.name };
  }
  if (event.type === "CompanyDeleted") return { agency_id: null, name: null };
  return state;
};

/** PATCH /ticketing/company_channels/{id}: whether one company of the channel's agency sells through it. */
export async function toggleCompany(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  channelId: string,
  companyId: string,
  active: boolean,
) {
  const { append } = await onChannel(deps, context, p, channelId, async (channel, cmd) => {
    const company = await cmd.load(`company-${companyId}`, foldCompanyOfAgency, {
      agency_id: null,
      name: null,
    });
    if (company.state.agency_id !== channel.agency_id)
      throw new NotFound("No such company", "company_not_found");
    return {
      events: decideChannel({ type: "ToggleCompany", company_id: companyId, active }, channel),
      result: null,
    };
  });
  return {
    result: {
      data: { id: `${channelId}_${companyId}`, channel_id: channelId, company_id: companyId, active },
    },
    append,
  };
}
