import type { UpdateAgencyRequest } from "@skyward/contracts/administration";
import type { AgencyFlag } from "@skyward/contracts/directory";
import type { Charge } from "@skyward/contracts/pricing";
import { isAdministrator } from "@skyward/infra/http/auth";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { IllegalState } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { assertPartnerNameFree } from "../administration.ts";
import { onAgency } from "./on-agency.ts";

/** PATCH /agencies/{id}: a partner's name (administrators only), markups and time zone. */
export async function updateAgency(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  agencyId: string,
  body: UpdateAgencyRequest,
) {
  if (body.name !== undefined && !isAdministrator(p))
    throw new IllegalState("Only administrators rename a partner", "rename_not_allowed");
  if (body.name !== undefined) await assertPartnerNameFree(deps.pool, body.name, agencyId);
  return onAgency(deps, context, p, agencyId, () => ({ type: "UpdateAgency", ...body }));
}

/** PATCH /agencies/{id}/{flag}: one of a partner's switches. */
export function setAgencyFlag(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  agencyId: string,
  flag: AgencyFlag,
  on: boolean | undefined,
) {
  return onAgency(deps, context, p, agencyId, () => ({ type: "SetAgencyFlag", flag, on }));
}

/** PUT /agency_transaction_fees/{id}: the fee a partner adds to each ticket; answered beside the partner. */
export async function setAgencyTransactionFee(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  agencyId: string,
  transaction_fee: Charge | null,
) {
  const { result, append } = await onAgency(deps, context, p, agencyId, () => ({
    type: "SetAgencyTransactionFee",
    transaction_fee,
  }));
  return { result: { ...result, agency_transaction_fee: result.partner.agency_transaction_fees[0] }, append };
}
