import { describe, expect, it } from "@jest/globals";
import { accountRoutes } from "./openapi/account.ts";
import { administrationRoutes } from "./openapi/administration.ts";
import { ancillariesRoutes } from "./openapi/ancillaries.ts";
import { assistantRoutes } from "./openapi/assistant.ts";
import { auditRoutes } from "./openapi/audit.ts";
import { balancesRoutes } from "./openapi/balances.ts";
import { bookingsRoutes } from "./openapi/bookings.ts";
import { exchangeRoutes } from "./openapi/exchange.ts";
import { notificationsRoutes } from "./openapi/notifications.ts";
import { salesRoutes } from "./openapi/sales.ts";
import { scheduleChangeRoutes } from "./openapi/schedule-change.ts";
import { searchRoutes } from "./openapi/search.ts";
import type { DocumentedRoute } from "./openapi/shared.ts";
import { ticketingRoutes } from "./openapi/ticketing.ts";
import { travellersRoutes } from "./openapi/travellers.ts";
import { DOCUMENT_ORDER, documentedRoutes, openApiDocument } from "./openapi.ts";

const modules: Record<string, readonly DocumentedRoute[]> = {
  // The agent's notifications are documented under Account, from a module of their own.
  Account: [...accountRoutes, ...notificationsRoutes],
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
  Travellers: travellersRoutes,
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

  it("when the document is built, then every answer names all its fields (a z.object in contracts), so the test apps' answer check finds any extra field", () => {
    // An object that allows fields it does not name: a z.looseObject, or an object without properties' rules. A
    // record (propertyNames) is a map by design (an event's data, an assistant step's arguments).
    const open = (schema: unknown): boolean => {
      if (Array.isArray(schema)) return schema.some(open);
      if (!schema || typeof schema !== "object") return false;
      const s = schema as Record<string, unknown>;
      const extra = s.additionalProperties;
      if (
        s.type === "object" &&
        !s.propertyNames &&
        (extra === undefined || (typeof extra === "object" && extra && Object.keys(extra).length === 0))
      )
        return true;
      return Object.values(s).some(open);
    };
    type Operation = {
      operationId: string;
      responses: Record<string, { content: Record<string, { schema?: unknown }> }>;
    };
    const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
    const openAnswers = Object.values(paths)
      .flatMap((methods) => Object.values(methods))
      .flatMap((op) =>
        Object.entries(op.responses)
          .filter(([, r]) => open(r.content["application/json"]?.schema))
          .map(([status]) => `${op.operationId} ${status}`),
      );
    expect(openAnswers).toEqual([]);
  });

  it("when the document is built, then its operations come in the published order, each operation id once", () => {
    const ids = documentedRoutes.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(DOCUMENT_ORDER);
  });
});
