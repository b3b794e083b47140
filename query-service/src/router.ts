import { Router } from "express";
import { accountRoutes } from "./account/routes.ts";
import { agentNotificationReadRoutes } from "./agent-notifications/routes.ts";
import { replayReadRoutes } from "./audit/replays.ts";
import { auditRoutes } from "./audit/routes.ts";
import { balanceRoutes } from "./balances/routes.ts";
import { bookingRoutes } from "./bookings/routes.ts";
import { deadlineRoutes } from "./deadlines/routes.ts";
import type { QueryDeps } from "./deps.ts";
import { directoryRoutes } from "./directory/routes.ts";
import { invoiceRoutes } from "./invoices/routes.ts";
import { itineraryRoutes } from "./itinerary/routes.ts";
import { openApiRoutes } from "./openapi/routes.ts";
import { salesRoutes } from "./sales/routes.ts";
import { ticketingReadRoutes } from "./ticketing/routes.ts";
import { travellerReadRoutes } from "./travellers/routes.ts";

/** Every read the query service answers; it reads schema `read` only. */
export function queryRouter(deps: QueryDeps): Router {
  const router = Router();
  router.use(directoryRoutes(deps));
  router.use(accountRoutes(deps));
  router.use(bookingRoutes(deps));
  router.use(balanceRoutes(deps));
  router.use(auditRoutes(deps));
  router.use(replayReadRoutes(deps));
  router.use(openApiRoutes());
  router.use(ticketingReadRoutes(deps));
  router.use(salesRoutes(deps));
  router.use(deadlineRoutes(deps));
  router.use(itineraryRoutes(deps));
  router.use(agentNotificationReadRoutes(deps));
  router.use(invoiceRoutes(deps));
  router.use(travellerReadRoutes(deps));
  return router;
}
