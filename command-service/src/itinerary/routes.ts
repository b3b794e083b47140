import { Locator } from "@skyward/contracts/bookings";
import {
  BillingContactRequest,
  ItineraryOnIssueRequest,
  SendItineraryRequest,
} from "@skyward/contracts/itinerary";
import { requirePrincipal, requireUserType } from "@skyward/infra/http/auth";
import { NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import { z } from "zod";
import type { CommandDeps } from "../deps.ts";
import { sendItinerary } from "./itinerary.ts";
import { setBillingContact, setItineraryOnIssue } from "./settings.ts";

/** The traveller's itinerary e-mail on demand, and the company's choice to mail it on issue. */
export function itineraryRoutes(deps: CommandDeps): Router {
  const router = Router();

  router.post("/bookings/:locator/itinerary_mails", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = Locator.safeParse(req.params.locator);
    if (!locator.success) throw new NotFound("No such booking", "booking_not_found");
    const { itinerary } = parseInput(SendItineraryRequest, req.body);
    res.status(202).json(await sendItinerary(deps, req.context, principal, locator.data, itinerary));
  });

  router.patch("/companies/:id/itinerary_on_issue", async (req, res) => {
    const p = requireUserType(req, "Admin", "Support", "Supervisor");
    const companyId = z.string().min(1).max(200).safeParse(req.params.id);
    if (!companyId.success) throw new NotFound("No such company", "company_not_found");
    const { itinerary_on_issue } = parseInput(ItineraryOnIssueRequest, req.body);
    res.json(await setItineraryOnIssue(deps, req.context, p, companyId.data, itinerary_on_issue));
  });

  router.patch("/companies/:id/billing_contact", async (req, res) => {
    const p = requireUserType(req, "Admin", "Support", "Supervisor");
    const companyId = z.string().min(1).max(200).safeParse(req.params.id);
    if (!companyId.success) throw new NotFound("No such company", "company_not_found");
    const { billing_email } = parseInput(BillingContactRequest, req.body);
    res.json(await setBillingContact(deps, req.context, p, companyId.data, billing_email));
  });

  return router;
}
