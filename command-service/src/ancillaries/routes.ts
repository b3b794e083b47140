import {
  AddAncillariesRequest,
  AncillaryCatalogueQuery,
  EmdNumberParam,
  SeatMapQuery,
} from "@skyward/contracts/ancillaries";
import { Locator } from "@skyward/contracts/bookings";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import type { CommandDeps } from "../deps.ts";
import { addAncillaries } from "./add.ts";
import { bookingAncillaries, bookingSeatMap, offerAncillaries } from "./catalogue.ts";
import { refundEmd } from "./refund-emd.ts";

/**
 * Ancillaries (spec section 7): the catalogues of an offer and of a booking, the seat map, adding them, and the
 * refund of an unused EMD. Supplier calls, GET or not, belong to the command service (DESIGN.md section 1).
 */
export function ancillaryRoutes(deps: CommandDeps): Router {
  const router = Router();

  router.get("/offers/:id/ancillaries", async (req, res) => {
    const principal = requirePrincipal(req);
    const query = parseInput(AncillaryCatalogueQuery, req.query, "query");
    res.json({ data: await offerAncillaries(deps, principal, req.params.id as string, query) });
  });

  router.get("/bookings/:locator/ancillaries", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    const { type } = parseInput(AncillaryCatalogueQuery, req.query, "query");
    res.json({ data: await bookingAncillaries(deps, principal, locator, type) });
  });

  router.get("/bookings/:locator/seat_map", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    const { segment } = parseInput(SeatMapQuery, req.query, "query");
    res.json({ data: await bookingSeatMap(deps, principal, locator, segment) });
  });

  router.post("/bookings/:locator/ancillaries", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    const request = parseInput(AddAncillariesRequest, req.body);
    res.status(201).json(await addAncillaries(deps, req.context, principal, locator, request));
  });

  router.post("/bookings/:locator/emds/:emd_number/refund", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    const emd = EmdNumberParam.safeParse(req.params.emd_number);
    if (!emd.success) throw new NotFound("No such EMD", "emd_not_found");
    res.json(await refundEmd(deps, req.context, principal, locator, emd.data));
  });

  return router;
}

/** A locator in the path that cannot be one answers as a booking that does not exist. */
function locatorOf(value: string | undefined): string {
  const locator = Locator.safeParse(value);
  if (!locator.success) throw new NotFound("No such booking", "booking_not_found");
  return locator.data;
}
