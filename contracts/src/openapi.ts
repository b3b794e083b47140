import { z } from "zod";
import { ErrorEnvelope } from "./errors.ts";
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
import {
  type DocumentedResponse,
  type DocumentedRoute,
  minPositionHeader,
  rateLimited,
  roleRefused,
  staleHeader,
} from "./openapi/shared.ts";
import { ticketingRoutes } from "./openapi/ticketing.ts";
import { travellersRoutes } from "./openapi/travellers.ts";
import { Position } from "./position.ts";

/**
 * The public API as OpenAPI 3.1, generated from the zod contracts with zod's own JSON Schema export (never written
 * by hand): a route is documented by naming its contracts in the module of its capability (./openapi/*.ts, one per
 * tag), assembled here. Served at GET /openapi.json; the contract test
 * (scripts/src/audit-openapi.test.ts) calls every operation of the generated document and checks each answer
 * against it.
 */

export type { DocumentedHeader, DocumentedResponse, DocumentedRoute } from "./openapi/shared.ts";

/**
 * The order of the operations in the document, as it was before the routes were split by capability (clients and
 * the reference page see this order). openapi.test.ts wants every route listed; one that is not would come after
 * these, in the order of its module.
 */
export const DOCUMENT_ORDER: readonly string[] = [
  "searchOffers",
  "bookOffer",
  "issueBooking",
  "quoteRefund",
  "confirmRefund",
  "cancelBooking",
  "listBookings",
  "getBooking",
  "listBalances",
  "issueApiToken",
  "getApiTokenStatus",
  "revokeApiToken",
  "listEvents",
  "findAuditNames",
  "verifyLog",
  "listAnchors",
  "timeTravel",
  "offerAncillaries",
  "bookingAncillaries",
  "seatMap",
  "addAncillaries",
  "refundEmd",
  "listAirports",
  "textSearch",
  "fareCalendar",
  "openFareCalendar",
  "filterSearch",
  "clearSearchFilter",
  "offerDetails",
  "fareRules",
  "commentBooking",
  "modifyBooking",
  "repriceBooking",
  "createFlightsChange",
  "priceReshopOffers",
  "confirmFlightsChange",
  "checkScheduleChange",
  "answerScheduleChange",
  "balanceHistory",
  "balanceMovement",
  "timeLimitNotices",
  "accountDetails",
  "balanceTransaction",
  "setCreditLimit",
  "listAgencies",
  "getAgency",
  "listSupervisors",
  "listCompanies",
  "getCompany",
  "directoryHistory",
  "listChannels",
  "getChannel",
  "channelHistory",
  "listReplays",
  "startReplay",
  "getReplay",
  "assistantAsk",
  "assistantExecute",
  "updateAgency",
  "setAgencyFlag_production_api_on",
  "setAgencyFlag_corporate_number_on",
  "setAgencyFlag_ghost_segments_remarks_on",
  "setAgencyFlag_auto_cancel_held_on",
  "inviteSupervisor",
  "toggleGate_main",
  "toggleGate_consolidator",
  "toggleGate_channel",
  "toggleGate_agency",
  "toggleGate_company",
  "createAgency",
  "createCompany",
  "deleteCompany",
  "deleteAgency",
  "updateSupervisor",
  "removeSupervisor",
  "inviteSupport",
  "chooseSellingCompany",
  "directoryChange",
  "channelChange",
  "reshopHeldBooking",
  "setCompanyMarkups",
  "setTransactionFee",
  "setSharedBookings",
  "duplicateAgency",
  "switchReplay",
  "updateAccountDetails",
  "toggleChannelSource",
  "exportEvents",
  "createChannel",
  "updateChannel",
  "setChannelCredential",
  "editChannelCredential",
  "deleteChannel",
  "listGates",
  "toggleCompanyChannel",
  "listCards",
  "createCard",
  "updateCard",
  "attachCard",
  "detachCard",
  "deleteCard",
  "listSales",
  "salesAnalytics",
  "ticketReceipt",
  "exportSales",
  "salesReport",
  "listRelationships",
  "disconnectAgent",
  "requestJoinAgency",
  "listJoinRequests",
  "decideJoinRequest",
  "sendItinerary",
  "listItineraryMails",
  "setItineraryOnIssue",
  "listInvoices",
  "getInvoice",
  "companyStatement",
  "setBillingContact",
  "listTravellers",
  "getTraveller",
  "createTraveller",
  "updateTraveller",
  "eraseTraveller",
  "listNotifications",
  "markNotificationsRead",
  "notificationSettings",
  "updateNotificationSettings",
];

/** Every documented route, from the module of its capability. */
export const documentedRoutes: readonly DocumentedRoute[] = inDocumentOrder([
  ...accountRoutes,
  ...administrationRoutes,
  ...ancillariesRoutes,
  ...assistantRoutes,
  ...auditRoutes,
  ...balancesRoutes,
  ...bookingsRoutes,
  ...exchangeRoutes,
  ...notificationsRoutes,
  ...scheduleChangeRoutes,
  ...salesRoutes,
  ...searchRoutes,
  ...ticketingRoutes,
  ...travellersRoutes,
]);

function inDocumentOrder(routes: readonly DocumentedRoute[]): DocumentedRoute[] {
  const rank = (route: DocumentedRoute) => {
    const at = DOCUMENT_ORDER.indexOf(route.operationId);
    return at === -1 ? DOCUMENT_ORDER.length : at;
  };
  // Array.prototype.sort is stable: routes missing from the order keep their modules' order after the listed ones.
  return [...routes].sort((a, b) => rank(a) - rank(b));
}

type JsonSchema = Record<string, unknown>;

/** zod's own JSON Schema (2020-12, the dialect of OpenAPI 3.1), without the $schema keyword inside the document. */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

/** The answer's own headers, and X-Stale on the success of a read that honours X-Min-Position. */
function responseHeaders(route: DocumentedRoute, status: number, r: DocumentedResponse) {
  const headers = { ...(route.minPosition && status < 300 ? staleHeader : {}), ...r.headers };
  return Object.keys(headers).length > 0 ? { headers } : {};
}

/**
 * A route's answers by status as the document lists them: its own, the 403 of a role refused (unless it documents
 * its own) and the 429 of a rate limit, which every secured route may give, both in the error envelope.
 */
export function routeResponses(route: DocumentedRoute): Record<string, DocumentedResponse> {
  return {
    ...route.responses,
    ...(route.secured && !("403" in route.responses)
      ? { 403: { ...roleRefused, schema: ErrorEnvelope } }
      : {}),
    ...(route.secured ? { 429: { ...rateLimited, schema: ErrorEnvelope } } : {}),
  };
}

/** The OpenAPI 3.1 document of the documented routes. */
export function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of documentedRoutes) {
    const parameters = [
      ...Object.entries(route.params ?? {}).map(([name, schema]) => ({
        name,
        in: "path",
        required: true,
        schema: jsonSchema(schema, "input"),
      })),
      ...Object.entries(route.query?.shape ?? {}).map(([name, schema]) => {
        const parameter = jsonSchema(schema as z.ZodType, "input");
        return {
          name,
          in: "query",
          required: !(schema as z.ZodType).safeParse(undefined).success,
          // An object in the query is sent as name[key]=value (ticket[status]=issued), as the routes read it.
          ...(parameter.type === "object" ? { style: "deepObject", explode: true } : {}),
          schema: parameter,
        };
      }),
      ...(route.minPosition
        ? [{ ...minPositionHeader(route.minPosition), schema: jsonSchema(Position, "input") }]
        : []),
    ];
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      ...(route.secured ? {} : { security: [] }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: jsonSchema(route.body, "input") } },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(routeResponses(route)).map(([status, r]) => [
          status,
          {
            description: r.description,
            ...responseHeaders(route, Number(status), r),
            content: {
              ...(r.schema ? { "application/json": { schema: jsonSchema(r.schema, "output") } } : {}),
              // A file: its media type without a schema, as OpenAPI 3.1 documents binary content.
              ...(r.mediaType ? { [r.mediaType]: {} } : {}),
            },
          },
        ]),
      ),
    };
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Skyward API",
      version: "1",
      description:
        "Search, book, issue and refund flights for an agency's companies; browse and verify the event history. " +
        "Authenticate with `Authorization: Bearer <token>` (issued with PUT /account/api_token from a signed-in " +
        "session) or a session cookie. A route the caller's role may never use answers 403 with a code naming who " +
        "may; an unknown route or an id outside the caller's scope answers 404. " +
        "Commands accept an `Idempotency-Key` header; errors come as `{errors: [...]}`. Each API token may make " +
        "60 calls at once and 10 a second, shared by every server; beyond that a call answers 429 with Retry-After " +
        "(web sessions are not limited this way). A reference page is served at /docs. " +
        'Read-your-writes: every command answers the `position` ("<transaction>-<position>") of what it wrote; ' +
        "send it back as the `X-Min-Position` header on a read documented with that header and the read waits " +
        "(up to 2 s) until it shows your write, or answers with `X-Stale: true`.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }, { session: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API token from PUT /account/api_token" },
        session: { type: "apiKey", in: "cookie", name: "skyward_session" },
      },
    },
    tags: [...new Set(documentedRoutes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
  };
}
