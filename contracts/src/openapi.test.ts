import { describe, expect, it } from "@jest/globals";
import { accountRoutes } from "./openapi/account.ts";
import { administrationRoutes } from "./openapi/administration.ts";
import { ancillariesRoutes } from "./openapi/ancillaries.ts";
import { assistantRoutes } from "./openapi/assistant.ts";
import { auditRoutes } from "./openapi/audit.ts";
import { balancesRoutes } from "./openapi/balances.ts";
import { bookingsRoutes } from "./openapi/bookings.ts";
import { exchangeRoutes } from "./openapi/exchange.ts";
import { salesRoutes } from "./openapi/sales.ts";
import { scheduleChangeRoutes } from "./openapi/schedule-change.ts";
import { searchRoutes } from "./openapi/search.ts";
import type { DocumentedRoute } from "./openapi/shared.ts";
import { ticketingRoutes } from "./openapi/ticketing.ts";
import { DOCUMENT_ORDER, documentedRoutes, openApiDocument } from "./openapi.ts";

const modules: Record<string, readonly DocumentedRoute[]> = {
  Account: accountRoutes,
  Administration: administrationRoutes,
  Ancillaries: ancillariesRoutes,
  Assistant: assistantRoutes,
  Audit: auditRoutes,
  Balances: balancesRoutes,
  Booking: bookingsRoutes,
  Exchange: exchangeRoutes,
  "Schedule changes": scheduleChangeRoutes,
  Sales: salesRoutes,
  Search: searchRoutes,
  Ticketing: ticketingRoutes,
};

describe("the OpenAPI document, assembled from one module per capability", () => {
  it("when the modules are read, then each holds exactly the routes of its tag, and the document holds every route once", () => {
    for (const [tag, routes] of Object.entries(modules)) {
      expect(routes.length).toBeGreaterThan(0);
      expect(routes.filter((route) => route.tag !== tag).map((route) => route.operationId)).toEqual([]);
    }
    const fromModules = Object.values(modules).flat();
    expect(new Set(documentedRoutes)).toEqual(new Set(fromModules));
    expect(documentedRoutes).toHaveLength(fromModules.length);
    const tags = (openApiDocument().tags as { name: string }[]).map((t) => t.name);
    expect(tags.sort()).toEqual(Object.keys(modules).sort());
  });

  it("when the document is built, then its operations come in the published order, each operation id once", () => {
    const ids = documentedRoutes.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(DOCUMENT_ORDER);
  });
});
