import type { MarkupRule } from "@skyward/contracts/pricing";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../../deps.ts";
import { onCompany } from "./on-company.ts";

/** PUT /companies/{id}/markups: the company's own markups, on top of its partner's. */
export function setCompanyMarkups(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  companyId: string,
  markups: MarkupRule[],
) {
  return onCompany(deps, context, p, companyId, () => ({ type: "SetCompanyMarkups", markups }));
}

/** PATCH /ticketing/company_shared_bookings/{id}: whether the company's agents act on each other's bookings. */
export function setSharedBookings(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  companyId: string,
  active: boolean,
) {
  return onCompany(deps, context, p, companyId, () => ({
    type: "SetSharedBookings",
    shared_bookings: active,
  }));
}
