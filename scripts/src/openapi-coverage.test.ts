// The OpenAPI document covers the API (issue 14): every route the command and query routers register is documented,
// unless a list below says why not; and `X-Min-Position` (read-your-writes) is documented on exactly the documented
// reads that honour it, checked by calling each of them with and without it.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { numberSaleDocuments } from "@skyward/command-service/invoices/numbering";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { documentedRoutes } from "@skyward/contracts/openapi";
import { unlistedRoutes } from "@skyward/contracts/openapi/unlisted";
import { issuedFamily } from "./testing/after-sales.ts";
import { inDays, until } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { listRoutes } from "./testing/routes.ts";
import { keptSalesReport } from "./testing/sales-report.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/** "GET /bookings/{}": a route without its parameters' names, so that `:id` and `{fare_id}` compare equal. */
const shape = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/:\w+/g, "{}").replace(/\{\w+\}/g, "{}")}`;

const PERSON_SIGN_IN =
  "a person's interactive sign-in in the browser (password, one-time codes) that opens a cookie session; " +
  "integrators authenticate with an API token (PUT /account/api_token) instead";
const PERSON_PROFILE =
  "a person's own first-sign-in steps and contact details, confirmed by one-time codes sent to that person; " +
  "not something a system does on a person's behalf";

/** Routes left out of the public document on purpose, each with its reason. */
const EXCLUDED: Record<string, string> = {
  "GET /health": "the orchestrator's liveness probe (infra/src/http), not an API call",
  "GET /ready": "the orchestrator's readiness probe (infra/src/http), not an API call",
  "GET /csrf": "the CSRF token of cookie sessions; calls with a bearer token need none",
  "GET /dev/mailbox": "development only: not mounted when NODE_ENV=production",
  "GET /dev/voice": "development only: not mounted when NODE_ENV=production",
  "GET /dev/mailbox/{}/attachments/{}": "development only: not mounted when NODE_ENV=production",
  "GET /openapi.json": "the document itself",
  "POST /start_sign_in": PERSON_SIGN_IN,
  "POST /sign_in": PERSON_SIGN_IN,
  "POST /send_voice_otp": PERSON_SIGN_IN,
  "DELETE /sign_out": PERSON_SIGN_IN,
  "POST /account/complete": PERSON_PROFILE,
  "PUT /onboarding": PERSON_PROFILE,
  "PUT /account/terms": PERSON_PROFILE,
  "PUT /account/email": PERSON_PROFILE,
  "PUT /account/phone": PERSON_PROFILE,
  "POST /account/phone": PERSON_PROFILE,
  "PUT /account/details/update_locale": "the web app's interface language of the signed-in person",
};

let t: TestApp;
let agent: HttpClient;
let admin: HttpClient;

beforeAll(async () => {
  t = await startTestApp();
  agent = t.client();
  await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
  admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
}, 180_000);
afterAll(() => t.stop());

describe("the OpenAPI document covers the routers", () => {
  it("when the routers' routes are listed, then each is documented or excluded with a reason, and the exclusions name only routes that are served and not documented", () => {
    const registered = new Set(listRoutes(t.app.http).map((r) => shape(r.method, r.path)));
    const documented = new Set(documentedRoutes.map((r) => shape(r.method, r.path)));
    const unlisted = [...registered].filter((r) => !documented.has(r) && !(r in EXCLUDED));
    expect(unlisted).toEqual([]);
    // Nothing documented that is not served, and no exclusion stale or documented after all.
    expect([...documented].filter((r) => !registered.has(r))).toEqual([]);
    expect(Object.keys(EXCLUDED).filter((r) => !registered.has(r) || documented.has(r))).toEqual([]);
    for (const reason of Object.values(EXCLUDED)) expect(reason.length).toBeGreaterThan(10);
    // Left out of the document, but not out of contracts: each has its answer schema (the answer check reads them),
    // but the probes and the document itself.
    const answered = unlistedRoutes.map((r) => shape(r.method, r.path));
    // (and the dev outbox's attachments, which are files, not JSON).
    const withoutAnswerSchema = [
      "GET /health",
      "GET /ready",
      "GET /openapi.json",
      "GET /dev/mailbox/{}/attachments/{}",
    ];
    expect(
      Object.keys(EXCLUDED).filter((r) => !answered.includes(r) && !withoutAnswerSchema.includes(r)),
    ).toEqual([]);
    expect(answered.filter((r) => !(r in EXCLUDED))).toEqual([]);
    process.stdout.write(
      `OpenAPI coverage: ${documented.size} documented, ${Object.keys(EXCLUDED).length} excluded with a reason, ` +
        `of ${registered.size} routes\n`,
    );
  });
});

describe("X-Min-Position in the document", () => {
  it("when each documented read is called with a malformed X-Min-Position, then exactly those documented with it refuse it (422), the others ignore it; with the position of a command, those documented with it answer fresh", async () => {
    // Something to read: an issued booking with a bag (a balance movement) and a search.
    const locator = await issuedFamily(agent, "standard");
    const search = await agent.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(21),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO"],
    });
    expect(search.status).toBe(200);
    const calendar = await agent.post("/fare_calendar", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(21),
      passengers: { adults: 1, children: 0, infants: 0 },
    });
    expect(calendar.status).toBe(200);
    const fare = (search.body.result.origin_destinations as Json[])
      .flatMap((od) => od.fares as Json[])
      .find((f) => !f.instant_payment) as Json;
    const traveller = await agent.post("/travellers", {
      traveller: { first_name: "Olha", last_name: "Coverage", date_of_birth: "1990-02-03", gender: "F" },
    });
    expect(traveller.status).toBe(201);
    const commented = await agent.post("/bookings/comment", { locator, comment: "read-your-writes" });
    expect(commented.status).toBe(200);
    const position = commented.body.position as string;
    const page = await agent.get(`/bookings/${locator}`, { headers: { "x-min-position": position } });
    const segment = page.body.data.fare.flights[0].segments[0].id as string;
    const history = await admin.get("/balance_history", { headers: { "x-min-position": position } });
    const movement = history.body.data[0].event_id as string;
    const agencyId = demoId("agency", "dnipro");
    const companyId = demoId("company", "dnipro-kyiv");
    const channelId = demoId("channel", "dnipro");
    const directoryEvent = (await admin.get("/directory_history")).body.data[0].event_id as string;
    const channelEvent = (await admin.get("/ticketing/channel_history")).body.data[0].event_id as string;
    const replay = await admin.post("/audit/replays", { projection: "balances" });
    expect(replay.status).toBe(202);
    const sales = await agent.get("/sales", { headers: { "x-min-position": position } });
    const sale = (sales.body.data as Json[]).find(
      (l) => l.locator === locator && l.kind === "ticket",
    ) as Json;
    const report = await keptSalesReport(t.db.pool, demoId("user", "dnipro-agent"));
    // The sale's invoice, numbered now rather than at the next booking sweep.
    await numberSaleDocuments({ pool: t.app.pool, store: t.app.store, now: () => new Date() }, "openapi");
    const invoice = await until(
      async () =>
        (await t.db.pool.query<{ invoice_id: string }>("SELECT invoice_id FROM read.invoices LIMIT 1"))
          .rows[0],
      5000,
      "an invoice",
    );

    /** How to call each documented read: its path (parameters filled) and query, and who. */
    const reads: Record<string, { path: string; query?: Record<string, string>; as?: HttpClient }> = {
      listBookings: { path: "/bookings" },
      getBooking: { path: `/bookings/${locator}` },
      listBalances: { path: "/balances" },
      listEvents: { path: "/audit/events", query: { locator } },
      findAuditNames: { path: "/audit/names", query: { q: "Ko" } },
      verifyLog: { path: "/audit/verify", as: admin },
      listAnchors: { path: "/audit/anchors", as: admin },
      timeTravel: { path: `/audit/as_of/booking/${locator}`, query: { at: new Date().toISOString() } },
      offerAncillaries: {
        path: `/offers/${fare.fare_id}/ancillaries`,
        query: { search_result_id: search.body.result.id },
      },
      bookingAncillaries: { path: `/bookings/${locator}/ancillaries` },
      seatMap: { path: `/bookings/${locator}/seat_map`, query: { segment } },
      listAirports: { path: "/airports", query: { q: "Kyiv" } },
      openFareCalendar: { path: `/fare_calendar/${calendar.body.calendar.id}` },
      offerDetails: {
        path: `/offers/${fare.fare_id}/details`,
        query: { search_result_id: search.body.result.id },
      },
      fareRules: {
        path: `/offers/${fare.fare_id}/fare_rules`,
        query: { search_result_id: search.body.result.id },
      },
      balanceHistory: { path: "/balance_history", as: admin },
      balanceMovement: { path: `/balance_history/${movement}`, as: admin },
      timeLimitNotices: { path: "/time_limit_notices" },
      listNotifications: { path: "/notifications" },
      notificationSettings: { path: "/notification_settings" },
      listItineraryMails: { path: `/bookings/${locator}/itinerary_mails` },
      listInvoices: { path: "/invoices", query: { month: new Date().toISOString().slice(0, 7) } },
      getInvoice: { path: `/invoices/${invoice.invoice_id}`, as: admin },
      companyStatement: {
        path: `/companies/${companyId}/statements/${new Date().toISOString().slice(0, 7)}`,
        as: admin,
      },
      accountDetails: { path: "/account/details" },
      getApiTokenStatus: { path: "/account/api_token" },
      listAgencies: { path: "/agencies", as: admin },
      getAgency: { path: `/agencies/${agencyId}`, as: admin },
      listSupervisors: { path: `/agencies/${agencyId}/supervisors`, as: admin },
      listCompanies: { path: "/companies", as: admin },
      getCompany: { path: `/companies/${companyId}`, as: admin },
      directoryHistory: { path: "/directory_history", as: admin },
      listChannels: { path: "/ticketing/agency_channels", as: admin },
      getChannel: { path: `/ticketing/agency_channels/${channelId}`, as: admin },
      channelHistory: { path: "/ticketing/channel_history", as: admin },
      listReplays: { path: "/audit/replays", as: admin },
      getReplay: { path: `/audit/replays/${replay.body.data.id}`, as: admin },
      exportEvents: { path: "/audit/export", query: { locator } },
      listGates: { path: "/ticketing/gates", as: admin },
      listCards: { path: "/credit_cards", as: admin },
      listSales: { path: "/sales" },
      salesAnalytics: {
        path: "/analytics",
        query: { "analytics[date_from]": inDays(-30), "analytics[date_to]": inDays(0) },
      },
      directoryChange: { path: `/directory_history/${directoryEvent}`, as: admin },
      channelChange: { path: `/ticketing/channel_history/${channelEvent}`, as: admin },
      ticketReceipt: { path: `/sales/${sale.id}`, query: { format: "data" } },
      exportSales: { path: "/sales/export", query: { "ticket[text]": locator } },
      salesReport: { path: `/sales/reports/${report}` },
      listRelationships: { path: "/agent_company_relationships", as: admin },
      listJoinRequests: { path: "/join_agency_requests" },
      listTravellers: { path: "/travellers", query: { q: "coverage" } },
      getTraveller: { path: `/travellers/${traveller.body.traveller.id}` },
    };
    const documentedReads = documentedRoutes.filter((r) => r.method === "get");
    expect(documentedReads.map((r) => r.operationId).sort()).toEqual(Object.keys(reads).sort());

    for (const route of documentedReads) {
      const { path, query, as = agent } = reads[route.operationId] as (typeof reads)[string];
      const plain = await as.get(path, { query });
      expect([route.operationId, plain.status]).toEqual([route.operationId, 200]);
      const malformed = await as.get(path, { query, headers: { "x-min-position": "not-a-position" } });
      expect([route.operationId, malformed.status]).toEqual([
        route.operationId,
        route.minPosition ? 422 : 200,
      ]);
      if (route.minPosition) expect(malformed.body.errors[0].code).toBe("invalid_input");
      if (route.minPosition === "read_models") {
        const fresh = await as.get(path, { query, headers: { "x-min-position": position } });
        expect([route.operationId, fresh.status, fresh.headers.get("x-stale")]).toEqual([
          route.operationId,
          200,
          null,
        ]);
      }
    }
  }, 120_000);
});
