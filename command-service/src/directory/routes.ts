import {
  AgencyFlagRequest,
  CompanyMarkupsRequest,
  CreateAgencyRequest,
  CreateCompanyRequest,
  InviteUserRequest,
  JoinAgencyDecision,
  JoinAgencyRequestBody,
  SellingCompanyRequest,
  SharedBookingsRequest,
  TransactionFeeRequest,
  UpdateAgencyRequest,
  UpdateSupervisorRequest,
  unwrapBody,
} from "@skyward/contracts/administration";
import type { AgencyFlag } from "@skyward/contracts/directory";
import { requirePrincipal, requireUserType } from "@skyward/infra/http/auth";
import { NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { type Request, Router } from "express";
import { answer } from "../command-answer.ts";
import type { CommandDeps } from "../deps.ts";
import { assertAgencyScope } from "./administration.ts";
import { answerJoinRequest } from "./commands/answer-join-request.ts";
import { chooseSellingCompany } from "./commands/choose-selling-company.ts";
import { setCompanyMarkups, setSharedBookings } from "./commands/company-settings.ts";
import { deleteAgency } from "./commands/delete-agency.ts";
import { deleteCompany } from "./commands/delete-company.ts";
import { disconnectAgent } from "./commands/disconnect-agent.ts";
import { duplicateAgency } from "./commands/duplicate-agency.ts";
import { inviteSupervisor, inviteSupport } from "./commands/invite.ts";
import { registerAgency } from "./commands/register-agency.ts";
import { registerCompany } from "./commands/register-company.ts";
import { sendJoinRequest } from "./commands/send-join-request.ts";
import { removeSupervisor, updateSupervisor } from "./commands/supervisors.ts";
import { setAgencyFlag, setAgencyTransactionFee, updateAgency } from "./commands/update-agency.ts";

const ADMINS = ["Admin", "Support"] as const;
const MANAGERS = ["Admin", "Support", "Supervisor"] as const;
const FLAGS: AgencyFlag[] = [
  "production_api_on",
  "corporate_number_on",
  "ghost_segments_remarks_on",
  "auto_cancel_held_on",
];

/** A path id: anything a client sends is looked up as a parameter, so only its length is bounded here. */
const idParam = (req: Request, name: string): string => {
  const value = req.params[name];
  if (typeof value !== "string" || value.length === 0 || value.length > 100)
    throw new NotFound("The requested resource was not found");
  return value;
};

/**
 * Partners, companies, people and connection requests (seed-spec section 7, "Partners, companies, supervisors"):
 * each a command on its stream, scoped to the caller (DESIGN.md section 5; outside the scope answers 404). Each
 * route checks the role, parses its input, runs its command (`./commands/`) and answers its result.
 */
export function directoryRoutes(deps: CommandDeps): Router {
  const router = Router();

  router.post("/agencies", async (req, res) => {
    requireUserType(req, ...ADMINS);
    const body = parseInput(CreateAgencyRequest, unwrapBody(req.body, "agency", "partner"));
    answer(res, await registerAgency(deps, req.context, body), 201);
  });

  router.patch("/agencies/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const agencyId = idParam(req, "id");
    assertAgencyScope(p, agencyId);
    const body = parseInput(UpdateAgencyRequest, unwrapBody(req.body, "agency", "partner"));
    answer(res, await updateAgency(deps, req.context, p, agencyId, body));
  });

  for (const flag of FLAGS)
    router.patch(`/agencies/:id/${flag}`, async (req, res) => {
      const p = requireUserType(req, ...ADMINS);
      const agencyId = idParam(req, "id");
      const body = parseInput(AgencyFlagRequest, unwrapBody(req.body ?? {}, "agency", "partner"));
      const on = body.active ?? body.on ?? body.value ?? body[flag];
      answer(res, await setAgencyFlag(deps, req.context, p, agencyId, flag, on));
    });

  router.put("/agency_transaction_fees/:id", async (req, res) => {
    const p = requireUserType(req, ...ADMINS);
    const agencyId = idParam(req, "id");
    assertAgencyScope(p, agencyId);
    const body = parseInput(TransactionFeeRequest, unwrapBody(req.body, "agency_transaction_fee"));
    answer(res, await setAgencyTransactionFee(deps, req.context, p, agencyId, body.transaction_fee));
  });

  router.delete("/agencies/:id", async (req, res) => {
    requireUserType(req, ...ADMINS);
    const agencyId = idParam(req, "id");
    answer(res, await deleteAgency(deps, req.context, agencyId));
  });

  router.post("/agencies/:id/duplicate", async (req, res) => {
    requireUserType(req, ...ADMINS);
    const sourceId = idParam(req, "id");
    const body = parseInput(UpdateAgencyRequest, unwrapBody(req.body ?? {}, "agency", "partner"));
    answer(res, await duplicateAgency(deps, req.context, sourceId, body), 201);
  });

  router.post("/companies", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const raw = unwrapBody(req.body, "company");
    // A supervisor's company belongs to its own partner when none is named.
    const withAgency =
      p.userType === "Supervisor" && raw && typeof raw === "object" && !("agency_id" in raw)
        ? { ...raw, agency_id: p.agencyId }
        : raw;
    const body = parseInput(CreateCompanyRequest, withAgency);
    assertAgencyScope(p, body.agency_id);
    answer(res, await registerCompany(deps, req.context, body), 201);
  });

  router.delete("/companies/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const companyId = idParam(req, "id");
    answer(res, await deleteCompany(deps, req.context, p, companyId));
  });

  router.put("/companies/:id/markups", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const companyId = idParam(req, "id");
    const body = parseInput(CompanyMarkupsRequest, unwrapBody(req.body, "company"));
    answer(res, await setCompanyMarkups(deps, req.context, p, companyId, body.markups));
  });

  router.patch("/ticketing/company_shared_bookings/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const companyId = idParam(req, "id");
    const body = parseInput(SharedBookingsRequest, unwrapBody(req.body, "company_shared_booking", "company"));
    answer(res, await setSharedBookings(deps, req.context, p, companyId, body.active));
  });

  router.delete("/agent_company_relationships/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const relationshipId = idParam(req, "id");
    answer(res, await disconnectAgent(deps, req.context, p, relationshipId));
  });

  router.post("/join_agency_requests", async (req, res) => {
    const p = requireUserType(req, "Agent");
    if (p.demo) throw new NotFound("A demo user joins no partner", "demo_user");
    const body = parseInput(
      JoinAgencyRequestBody,
      unwrapBody(req.body, "join_agency_request", "join_agency"),
    );
    answer(res, await sendJoinRequest(deps, req.context, p, body), 201);
  });

  router.patch("/join_agency_requests/:id", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const requestId = idParam(req, "id");
    const raw = unwrapBody(req.body, "join_agency_request", "join_agency");
    const body = parseInput(
      JoinAgencyDecision,
      raw &&
        typeof raw === "object" &&
        !("status" in raw) &&
        typeof (raw as { accepted?: unknown }).accepted === "boolean"
        ? { ...raw, status: (raw as { accepted: boolean }).accepted ? "accepted" : "rejected" }
        : raw,
    );
    answer(res, await answerJoinRequest(deps, req.context, p, requestId, body));
  });

  router.post("/agencies/:id/supervisors", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const agencyId = idParam(req, "id");
    assertAgencyScope(p, agencyId);
    const body = parseInput(InviteUserRequest, unwrapBody(req.body, "supervisor", "user"));
    answer(res, await inviteSupervisor(deps, req.context, agencyId, body), 201);
  });

  router.patch("/agencies/:id/supervisors/:supervisorId", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const agencyId = idParam(req, "id");
    const supervisorId = idParam(req, "supervisorId");
    assertAgencyScope(p, agencyId);
    const body = parseInput(UpdateSupervisorRequest, unwrapBody(req.body, "supervisor", "user"));
    answer(res, await updateSupervisor(deps, req.context, agencyId, supervisorId, body));
  });

  router.delete("/agencies/:id/supervisors/:supervisorId", async (req, res) => {
    const p = requireUserType(req, ...MANAGERS);
    const agencyId = idParam(req, "id");
    const supervisorId = idParam(req, "supervisorId");
    assertAgencyScope(p, agencyId);
    answer(res, await removeSupervisor(deps, req.context, agencyId, supervisorId));
  });

  router.put("/account/selling_company", async (req, res) => {
    const p = requirePrincipal(req);
    if (p.demo) throw new NotFound("No such company", "company_not_found");
    const { company_id } = parseInput(SellingCompanyRequest, unwrapBody(req.body, "account"));
    answer(res, await chooseSellingCompany(deps, req.context, p, company_id));
  });

  router.post("/supports", async (req, res) => {
    requireUserType(req, "Admin");
    const body = parseInput(InviteUserRequest, unwrapBody(req.body, "support", "user"));
    answer(res, await inviteSupport(deps, req.context, body), 201);
  });

  return router;
}
