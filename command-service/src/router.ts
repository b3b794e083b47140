import { idempotency } from "@skyward/infra/http/idempotency";
import { Router } from "express";
import { agentNotificationRoutes } from "./agent-notifications/routes.ts";
import { ancillaryRoutes } from "./ancillaries/routes.ts";
import { assistantRoutes } from "./assistant/routes.ts";
import { auditorsReadOnly } from "./audit/read-only.ts";
import { replayRoutes } from "./audit/replays.ts";
import { timeTravelRoutes } from "./audit/time-travel.ts";
import { balanceRoutes } from "./balances/routes.ts";
import { bookingRoutes } from "./bookings/routes.ts";
import type { CommandDeps } from "./deps.ts";
import { directoryRoutes } from "./directory/routes.ts";
import { identityRoutes } from "./identity/routes.ts";
import { itineraryRoutes } from "./itinerary/routes.ts";
import { devOutboxRoutes } from "./notifications/dev-routes.ts";
import { offerRoutes } from "./offers/routes.ts";
import { textSearchRoutes } from "./text-search/routes.ts";
import { ticketingRoutes } from "./ticketing/routes.ts";
import { travellerRoutes } from "./travellers/routes.ts";

/** Every command and supplier call the command service answers. */
export function commandRouter(deps: CommandDeps): Router {
  const router = Router();
  // Before any command (and before an idempotency key is taken): auditors change nothing.
  router.use(auditorsReadOnly(router));
  router.use(idempotency(deps.pool));
  router.use(identityRoutes(deps));
  router.use(ancillaryRoutes(deps));
  router.use(offerRoutes(deps));
  router.use(textSearchRoutes());
  router.use(bookingRoutes(deps));
  router.use(itineraryRoutes(deps));
  router.use(agentNotificationRoutes(deps));
  router.use(directoryRoutes(deps));
  router.use(balanceRoutes(deps));
  router.use(ticketingRoutes(deps));
  router.use(travellerRoutes(deps));
  router.use(timeTravelRoutes(deps));
  router.use(replayRoutes(deps));
  // Runs its plans' steps through this very router, so they pass the same checks as by hand.
  router.use(assistantRoutes(deps, router));
  if (deps.config.NODE_ENV !== "production") router.use(devOutboxRoutes(deps));
  return router;
}
