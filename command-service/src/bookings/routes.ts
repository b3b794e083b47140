import {
  BookOfferRequest,
  CommentRequest,
  FlightsChangeConfirmRequest,
  FlightsChangeCreateRequest,
  IssueRequest,
  Locator,
  LocatorRequest,
  ModifyRequest,
  RefundConfirmRequest,
  RefundCreateRequest,
  type RefundRequotedResponse,
  ScheduleChangeAnswerRequest,
} from "@skyward/contracts/bookings";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { NotFound } from "@skyward/infra/http/errors";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import type { CommandDeps } from "../deps.ts";
import { bookOffer } from "./commands/book-offer.ts";
import { commentBooking } from "./commands/comment.ts";
import { confirmFlightsChange, createFlightsChange } from "./commands/exchange.ts";
import { issueBooking } from "./commands/issue.ts";
import { modifyBooking } from "./commands/modify.ts";
import { confirmRefund, createRefundQuote } from "./commands/refund.ts";
import { repriceBooking } from "./commands/reprice.ts";
import { priceReshopOffers, reshopHeldBooking } from "./commands/reshop.ts";
import { answerScheduleChange, checkScheduleChange } from "./commands/schedule-change.ts";
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
    // The spec's `reshop` flag of an issue accepts the price the airline quoted at the last attempt.
    res.status(201).json(
      await issueBooking(deps, req.context, principal, {
        locator: request.locator,
        accept_pending_price: request.reshop === true,
      }),
    );
  });

  router.post("/bookings/reprice", async (req, res) => {
    const principal = requirePrincipal(req);
    const { locator } = parseInput(LocatorRequest, req.body);
    res.json(await repriceBooking(deps, req.context, principal, locator));
  });

  router.post("/bookings/reshop", async (req, res) => {
    const principal = requirePrincipal(req);
    const { locator } = parseInput(LocatorRequest, req.body);
    res.json(await reshopHeldBooking(deps, principal, locator));
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

  // After sales (spec section 7): refund quote then confirm; flights change, priced reshop offers, then confirm.
  router.post("/orders/:locator/refund_requests/create", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    const { passengers } = parseInput(RefundCreateRequest, req.body ?? {});
    res.status(201).json(await createRefundQuote(deps, req.context, principal, locator, passengers));
  });

  router.post("/orders/:locator/refund_requests/confirm", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    const { quote_id } = parseInput(RefundConfirmRequest, req.body);
    const confirmed = await confirmRefund(deps, req.context, principal, locator, quote_id);
    if (confirmed.outcome === "requoted") {
      // Expired or changed: the reason in the envelope, and the fresh quote to confirm instead.
      res.status(confirmed.error.status).json({
        errors: confirmed.error.toApiErrors(),
        quote: confirmed.quote,
        position: confirmed.position,
      } satisfies RefundRequotedResponse);
      return;
    }
    const { outcome: _outcome, ...refunded } = confirmed;
    res.json(refunded);
  });

  router.post("/orders/:locator/flights_change_requests/create", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    const request = parseInput(FlightsChangeCreateRequest, req.body);
    res.status(201).json(await createFlightsChange(deps, req.context, principal, locator, request));
  });

  router.post("/orders/:locator/reshop_offers/price", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    res.json(await priceReshopOffers(deps, req.context, principal, locator));
  });

  router.post("/orders/:locator/flights_change_requests/confirm", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    const { reshop_offer_id } = parseInput(FlightsChangeConfirmRequest, req.body);
    res.json(await confirmFlightsChange(deps, req.context, principal, locator, reshop_offer_id));
  });

  // Schedule changes (issue 24.3): ask the airline now (the polling job does it too), then answer the change.
  router.post("/orders/:locator/schedule_change/check", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    res.json({
      locator,
      ...(await checkScheduleChange(deps, { principal, context: req.context }, locator)),
    });
  });

  router.post("/orders/:locator/schedule_change/answer", async (req, res) => {
    const principal = requirePrincipal(req);
    const locator = locatorOf(req.params.locator);
    const answer = parseInput(ScheduleChangeAnswerRequest, req.body);
    res.json(await answerScheduleChange(deps, req.context, principal, locator, answer));
  });

  return router;
}

/** A locator in the path that cannot be one answers as a booking that does not exist. */
function locatorOf(value: string | undefined): string {
  const locator = Locator.safeParse(value);
  if (!locator.success) throw new NotFound("No such booking", "booking_not_found");
  return locator.data;
}
