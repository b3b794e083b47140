import {
  BookOfferRequest,
  CommentRequest,
  IssueRequest,
  Locator,
  LocatorRequest,
  ModifyRequest,
} from "@skyward/contracts/bookings";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import type { CommandDeps } from "../deps.ts";
import { bookOffer } from "./commands/book-offer.ts";
import { commentBooking } from "./commands/comment.ts";
import { issueBooking } from "./commands/issue.ts";
import { modifyBooking } from "./commands/modify.ts";
import { repriceBooking } from "./commands/reprice.ts";
import { reshopBooking } from "./commands/reshop.ts";
import { voidOrCancel } from "./commands/void-or-cancel.ts";

/** The booking lifecycle's commands (spec section 7, search and booking). */
export function bookingRoutes(deps: CommandDeps): Router {
  const router = Router();

  router.post("/bookings", async (req, res) => {
    const principal = requirePrincipal(req);
    const request = parseInput(BookOfferRequest, req.body);
    res.status(201).json(await bookOffer(deps, req.context, principal, request));
  });

  router.post("/bookings/issue", async (req, res) => {
    const principal = requirePrincipal(req);
    const request = parseInput(IssueRequest, req.body);
    res.status(201).json(await issueBooking(deps, req.context, principal, request));
  });

  router.post("/bookings/reprice", async (req, res) => {
    const principal = requirePrincipal(req);
    const { locator } = parseInput(LocatorRequest, req.body);
    res.json(await repriceBooking(deps, req.context, principal, locator));
  });

  router.post("/bookings/reshop", async (req, res) => {
    const principal = requirePrincipal(req);
    const { locator } = parseInput(LocatorRequest, req.body);
    res.json(await reshopBooking(deps, principal, locator));
  });

  router.post("/bookings/comment", async (req, res) => {
    const principal = requirePrincipal(req);
    const { locator, comment } = parseInput(CommentRequest, req.body);
    res.json(await commentBooking(deps, req.context, principal, locator, comment));
  });

  router.post("/bookings/modify", async (req, res) => {
    const principal = requirePrincipal(req);
    const request = parseInput(ModifyRequest, req.body);
    res.json(await modifyBooking(deps, req.context, principal, request));
  });

  router.delete("/bookings/:locator", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = Locator.safeParse(req.params.locator);
    if (!locator.success) throw new NotFound("No such booking", "booking_not_found");
    res.json(await voidOrCancel(deps, req.context, principal, locator.data));
  });

  return router;
}
