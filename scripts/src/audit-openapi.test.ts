// The OpenAPI 3.1 document (generated from the zod contracts) validates, and every operation it documents answers as
// documented: the calls below are driven by the served document, each answer checked against its JSON Schema.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { numberSaleDocuments } from "@skyward/command-service/invoices/numbering";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { openApiDocument } from "@skyward/contracts/openapi";
import { chainAll } from "@skyward/infra/audit/chain";
import { Ajv2020 } from "ajv/dist/2020.js";
import { issuedFamily } from "./testing/after-sales.ts";
import { contacts, inDays, passenger } from "./testing/bookings.ts";
import type { HttpClient, HttpResponse, Json } from "./testing/http-client.ts";
import { keptSalesReport } from "./testing/sales-report.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/** A kept traveller's profile from a booking passenger's fields (its one document). */
const travellerOf = (first: string, last: string) => {
  const { type: _type, document, ...person } = passenger(first, last);
  return { ...person, documents: [document] };
};

interface Operation {
  operationId: string;
  parameters?: { name: string; in: "path" | "query"; required: boolean; schema: object }[];
  requestBody?: { content: { "application/json": { schema: object } } };
  /** JSON answers under application/json with a schema; files under their media type, without one. */
  responses: Record<
    string,
    {
      content: Record<string, { schema?: object }>;
      headers?: Record<string, { required: boolean; schema: object }>;
    }
  >;
  security?: unknown[];
}
/** `person`: the agent signed in with a session, as on the account page (tokens are issued and revoked there). */
type Caller = "agent" | "admin" | "joiner" | "person";
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** A call of one operation: path parameters, query and body, made from what the walk has so far. */
interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Who calls: the agent's API token (default), the administrator's, the joining agent's, or the agent's session. */
  as?: Caller;
}

describe("the OpenAPI document", () => {
  let t: TestApp;
  let doc: Doc;
  const clients: Record<Caller, HttpClient> = {} as never;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const walk: Record<string, Json> = {};

  beforeAll(async () => {
    t = await startTestApp();
    const served = await t.client().get("/openapi.json");
    expect(served.status).toBe(200);
    doc = served.body as Doc;
    // Each caller's API token, used as a bearer for every call below.
    for (const [who, email] of [
      ["agent", "agent@dnipro.test"],
      ["admin", "admin@skyward.test"],
      // An agent of Dnipro's Lviv company: the walk disconnects it, and it asks to join the partner again.
      ["joiner", "agent.lviv@dnipro.test"],
    ] as const) {
      const session = t.client();
      await session.signInWithPassword(email, DEMO_PASSWORD);
      const token = await session.put("/account/api_token");
      expect(token.status).toBe(200);
      clients[who] = t.client({ authorization: `Bearer ${token.body.data.token}` });
      if (who === "agent") clients.person = session;
    }
  }, 240_000);
  afterAll(() => t.stop());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );

  it("is OpenAPI 3.1, served as generated, with valid JSON Schemas and every path parameter declared", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    const ids = operations().map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, op } of operations()) {
      const declared = (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      expect(declared.sort()).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort());
      const schemas = [
        ...(op.parameters ?? []).map((p) => p.schema),
        ...(op.requestBody ? [op.requestBody.content["application/json"].schema] : []),
        ...Object.values(op.responses).flatMap((r) =>
          Object.values(r.content).flatMap((c) => (c.schema ? [c.schema] : [])),
        ),
      ];
      for (const schema of schemas) expect(() => ajv.compile(schema)).not.toThrow();
      expect(Object.keys(op.responses)).toContain("401");
    }
  });

  /** How the walk calls each documented operation, in the order of an integrator's session. */
  const calls: Record<string, () => Call | Promise<Call>> = {
    searchOffers: () => ({
      body: {
        origin: "KBP",
        destination: "WAW",
        departure_date: inDays(21),
        passengers: { adults: 1, children: 0, infants: 0 },
        carriers: ["PS", "LO", "LH", "OS", "TK"],
      },
    }),
    offerAncillaries: () => {
      const result = walk.searchOffers.result;
      const fare = result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
      return { params: { fare_id: fare.fare_id }, query: { type: "bag", search_result_id: result.id } };
    },
    offerDetails: () => {
      const result = walk.searchOffers.result;
      const fare = result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
      return { params: { fare_id: fare.fare_id }, query: { search_result_id: result.id } };
    },
    fareRules: () => (calls.offerDetails as () => Call)(),
    filterSearch: () => ({
      body: { search_result_id: walk.searchOffers.result.id, filters: { baggage: "any" } },
    }),
    clearSearchFilter: () => ({
      params: { search_result_id: walk.searchOffers.result.id },
      query: { filter_key: "baggage" },
    }),
    listAirports: () => ({ query: { q: "Kyiv" } }),
    fareCalendar: () => ({
      body: {
        origin: "KBP",
        destination: "WAW",
        departure_date: inDays(21),
        passengers: { adults: 1, children: 0, infants: 0 },
      },
    }),
    openFareCalendar: () => ({ params: { id: walk.fareCalendar.calendar.id } }),
    textSearch: () => ({ body: { text: "Kyiv to Warsaw next Friday, two adults", language: "en" } }),
    bookOffer: () => {
      const result = walk.searchOffers.result;
      const fare = result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
      return {
        body: {
          search_result_id: result.id,
          fare_id: fare.fare_id,
          passengers: [passenger("Ivan", "Petrenko")],
          contacts,
        },
      };
    },
    bookingAncillaries: () => ({ params: { locator: walk.bookOffer.locator }, query: { type: "bag" } }),
    seatMap: async () => {
      const page = await clients.agent.get(`/bookings/${walk.bookOffer.locator}`);
      const segment = (page.body as Json).data.fare.flights[0].segments[0].id;
      return { params: { locator: walk.bookOffer.locator }, query: { segment } };
    },
    // A bag on the held booking: paid with the tickets, its EMD issued with them.
    addAncillaries: () => ({
      params: { locator: walk.bookOffer.locator },
      body: { items: [{ ancillary_id: walk.bookingAncillaries.data[0].ancillary_id, passenger_index: 0 }] },
    }),
    commentBooking: () => ({ body: { locator: walk.bookOffer.locator, comment: "Window seat, please" } }),
    modifyBooking: () => ({
      body: { locator: walk.bookOffer.locator, contacts: { email: "traveller.desk@example.com" } },
    }),
    repriceBooking: () => ({ body: { locator: walk.bookOffer.locator } }),
    issueBooking: () => ({ body: { locator: walk.bookOffer.locator } }),
    getBooking: () => ({ params: { locator: walk.bookOffer.locator } }),
    refundEmd: async () => {
      // The bag's EMD is issued just after the tickets: read the booking again until it shows its number.
      let emd: string | null = walk.getBooking.data.ancillaries[0]?.emd_number ?? null;
      for (let attempt = 0; !emd && attempt < 100; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const page = await clients.agent.get(`/bookings/${walk.bookOffer.locator}`);
        emd = (page.body as Json).data.ancillaries[0]?.emd_number ?? null;
      }
      if (!emd) throw new Error("the walk's bag has no EMD number 10 s after the issue");
      return { params: { locator: walk.bookOffer.locator, emd_number: emd } };
    },
    listBookings: () => ({ query: { q: walk.bookOffer.locator } }),
    listBalances: () => ({}),
    listEvents: () => ({ query: { locator: walk.bookOffer.locator } }),
    findAuditNames: () => ({ query: { q: "Ko" } }),
    timeTravel: () => ({
      params: { kind: "booking", id: walk.bookOffer.locator },
      query: { at: new Date().toISOString() },
    }),
    verifyLog: () => ({ as: "admin" }),
    listAnchors: () => ({ as: "admin" }),
    quoteRefund: () => ({ params: { locator: walk.bookOffer.locator }, body: {} }),
    confirmRefund: () => ({
      params: { locator: walk.bookOffer.locator },
      body: { quote_id: walk.quoteRefund.quote.quote_id },
    }),
    // The walk's booking is refunded by now: the cancel is of a booking of its own, held from the same search.
    cancelBooking: async () => {
      const { body } = await clients.agent.post("/bookings", (await (calls.bookOffer as () => Call)()).body);
      return { params: { locator: (body as Json).locator } };
    },
    // The exchange is of a booking of its own (the walk's is refunded), on a fare that may be changed.
    createFlightsChange: async () => {
      const locator = await issuedFamily(clients.agent, "flex");
      walk.exchanged = locator;
      return { params: { locator }, body: { departure_date: inDays(28) } };
    },
    priceReshopOffers: () => ({ params: { locator: walk.exchanged } }),
    confirmFlightsChange: () => ({
      params: { locator: walk.exchanged },
      body: { reshop_offer_id: walk.priceReshopOffers.offers[0].reshop_offer_id },
    }),
    checkScheduleChange: async () => {
      const locator = await issuedFamily(clients.agent, "standard", ["SchedMajor"]);
      walk.scheduleChanged = locator;
      return { params: { locator } };
    },
    answerScheduleChange: () => ({
      params: { locator: walk.scheduleChanged },
      body: { change_id: walk.checkScheduleChange.change_id, choice: "accept" },
    }),
    balanceHistory: () => ({ as: "admin" }),
    balanceMovement: () => ({ as: "admin", params: { event_id: walk.balanceHistory.data[0].event_id } }),
    timeLimitNotices: () => ({}),
    listNotifications: () => ({}),
    markNotificationsRead: () => ({ body: { all: true } }),
    notificationSettings: () => ({}),
    updateNotificationSettings: () => ({
      body: { settings: [{ kind: "issued", in_app: true, mail: true }] },
    }),
    accountDetails: () => ({}),
    balanceTransaction: () => ({
      as: "admin",
      body: { company_id: demoId("company", "dnipro-kyiv"), amount: 10_000, reason: "invoice 1182" },
    }),
    setCreditLimit: () => ({
      as: "admin",
      params: { id: demoId("company", "dnipro-kyiv") },
      body: { credit_limit: 50_000 },
    }),
    listAgencies: () => ({ as: "admin" }),
    getAgency: () => ({ as: "admin", params: { id: walk.listAgencies.data[0].id } }),
    listSupervisors: () => ({ as: "admin", params: { id: walk.listAgencies.data[0].id } }),
    listCompanies: () => ({ as: "admin" }),
    getCompany: () => ({ as: "admin", params: { id: walk.listCompanies.data[0].id } }),
    directoryHistory: () => ({ as: "admin" }),
    listChannels: () => ({ as: "admin" }),
    getChannel: () => ({ as: "admin", params: { id: walk.listChannels.data[0].id } }),
    channelHistory: () => ({ as: "admin" }),
    listReplays: () => ({ as: "admin" }),
    startReplay: () => ({ as: "admin", body: { projection: "bookings" } }),
    getReplay: () => ({ as: "admin", params: { id: walk.startReplay.data.id } }),
    assistantAsk: () => ({ as: "admin", body: { text: "turn off the LOT channel for Dnipro Travel" } }),
    assistantExecute: () => ({ as: "admin", body: { plan_id: walk.assistantAsk.plan.id } }),
    updateAgency: () => ({
      as: "admin",
      params: { id: demoId("agency", "dnipro") },
      body: { name: "Dnipro Travel" },
    }),
    setAgencyFlag_production_api_on: () => flag(true),
    setAgencyFlag_corporate_number_on: () => flag(false),
    setAgencyFlag_ghost_segments_remarks_on: () => flag(false),
    setAgencyFlag_auto_cancel_held_on: () => flag(false),
    inviteSupervisor: () => ({
      as: "admin",
      params: { id: demoId("agency", "dnipro") },
      body: { email: "new.supervisor@dnipro.test", first_name: "Olena", last_name: "Koval" },
    }),
    // Gates set open (as they are): the walk goes on booking after them.
    toggleGate_main: () => ({ as: "admin", body: { active: true } }),
    toggleGate_consolidator: () => ({ as: "admin", body: { active: true } }),
    toggleGate_channel: () => ({ as: "admin", body: { active: true } }),
    toggleGate_agency: () => ({
      as: "admin",
      params: { id: demoId("agency", "dnipro") },
      body: { active: true },
    }),
    toggleGate_company: () => ({
      as: "admin",
      params: { id: demoId("company", "dnipro-kyiv") },
      body: { active: true },
    }),
    createAgency: () => ({ as: "admin", body: { name: "Walk Travel" } }),
    createCompany: () => ({
      as: "admin",
      body: { agency_id: walk.createAgency.partner.id, name: "Walk Company", currency: "UAH" },
    }),
    deleteCompany: () => ({ as: "admin", params: { id: walk.createCompany.company.id } }),
    updateSupervisor: () => ({
      as: "admin",
      params: { id: demoId("agency", "dnipro"), supervisor_id: walk.inviteSupervisor.supervisor.id },
      body: { first_name: "Olha" },
    }),
    removeSupervisor: () => ({
      as: "admin",
      params: { id: demoId("agency", "dnipro"), supervisor_id: walk.inviteSupervisor.supervisor.id },
    }),
    deleteAgency: () => ({ as: "admin", params: { id: walk.createAgency.partner.id } }),
    inviteSupport: () => ({
      as: "admin",
      body: { email: "new.support@skyward.test", first_name: "Taras", last_name: "Melnyk" },
    }),
    chooseSellingCompany: () => ({ body: { company_id: demoId("company", "dnipro-kyiv") } }),
    directoryChange: () => ({ as: "admin", params: { event_id: walk.directoryHistory.data[0].event_id } }),
    channelChange: () => ({ as: "admin", params: { event_id: walk.channelHistory.data[0].event_id } }),
    reshopHeldBooking: async () => {
      const { body } = await clients.agent.post("/bookings", (await (calls.bookOffer as () => Call)()).body);
      return { body: { locator: (body as Json).locator } };
    },
    setCompanyMarkups: () => ({
      as: "admin",
      params: { id: demoId("company", "dnipro-kyiv") },
      body: { markups: [] },
    }),
    setTransactionFee: () => ({
      as: "admin",
      params: { id: demoId("agency", "dnipro") },
      body: { transaction_fee: null },
    }),
    setSharedBookings: () => ({
      as: "admin",
      params: { id: demoId("company", "dnipro-kyiv") },
      body: { active: true },
    }),
    duplicateAgency: () => ({
      as: "admin",
      params: { id: demoId("agency", "dnipro") },
      body: { name: "Dnipro Copy" },
    }),
    // A switch is asked on a comparison that finished and agreed: one started once the walk's writes are over.
    switchReplay: async () => {
      const finished = async (id: string) => {
        for (let i = 0; i < 600; i++) {
          const run = (await clients.admin.get(`/audit/replays/${id}`)).body as Json;
          if (run.data.status === "done" || run.data.status === "failed") return run.data;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`replay ${id} did not finish`);
      };
      await finished(walk.startReplay.data.id);
      const compare = (await clients.admin.post("/audit/replays", { projection: "bookings" })).body as Json;
      expect((await finished(compare.data.id)).report.agree).toBe(true);
      return { as: "admin", params: { id: compare.data.id } };
    },
    updateAccountDetails: () => ({ body: { account: { first_name: "Ivan" } } }),
    // Set as it is (allowed): the walk's own calls come through the api source.
    toggleChannelSource: () => ({
      as: "admin",
      params: { channel: demoId("channel", "dnipro") },
      query: { type: "api" },
      body: { active: true },
    }),
    exportEvents: () => ({ query: { locator: walk.bookOffer.locator } }),
    createChannel: () => ({ as: "admin", body: { agency_id: demoId("agency", "dnipro"), name: "Walk GDS" } }),
    updateChannel: () => ({
      as: "admin",
      params: { id: walk.createChannel.data.id },
      body: { nego_code: "X1" },
    }),
    setChannelCredential: () => ({
      as: "admin",
      params: { id: walk.createChannel.data.id },
      body: { login: "agency", password: "invalid" },
    }),
    editChannelCredential: () => ({
      as: "admin",
      params: { id: walk.createChannel.data.id },
      body: { login: "agency", password: "invalid" },
    }),
    deleteChannel: () => ({ as: "admin", params: { id: walk.createChannel.data.id } }),
    listGates: () => ({ as: "admin" }),
    toggleCompanyChannel: () => ({
      as: "admin",
      params: { id: `${demoId("channel", "dnipro")}_${demoId("company", "dnipro-kyiv")}` },
      body: { active: true },
    }),
    listCards: () => ({ as: "admin" }),
    createCard: () => ({
      as: "admin",
      body: {
        agency_id: demoId("agency", "dnipro"),
        number: "4242424242424242",
        exp_month: 12,
        exp_year: 2031,
        holder: "IVAN PETRENKO",
      },
    }),
    updateCard: () => ({
      as: "admin",
      params: { id: walk.createCard.data.id },
      body: { holder: "OKSANA PETRENKO" },
    }),
    attachCard: () => ({
      as: "admin",
      params: { id: demoId("channel", "dnipro") },
      body: { credit_card_id: walk.createCard.data.id },
    }),
    detachCard: () => ({
      as: "admin",
      params: { id: demoId("channel", "dnipro"), card_id: walk.createCard.data.id },
    }),
    deleteCard: () => ({ as: "admin", params: { id: walk.createCard.data.id } }),
    listSales: () => ({ query: { "ticket[date_from]": inDays(-1) } }),
    salesAnalytics: () => ({
      query: { "analytics[date_from]": inDays(-30), "analytics[date_to]": inDays(0) },
    }),
    // The walk's issued tickets are sold lines: the receipt of one, and the lines of the last days as a spreadsheet.
    ticketReceipt: async () => {
      const lines = (await clients.agent.get("/sales", { query: { "ticket[date_from]": inDays(-1) } })).body;
      const ticket = (lines as Json).data.find((l: Json) => l.kind === "ticket");
      return { params: { id: ticket.id }, query: { format: "pdf" } };
    },
    exportSales: () => ({ query: { "ticket[date_from]": inDays(-1) } }),
    // The report is written into its table as the sales-report job writes it: reaching the job needs 10,000 lines.
    salesReport: async () => ({
      params: { id: await keptSalesReport(t.db.pool, demoId("user", "dnipro-agent")) },
    }),
    listRelationships: () => ({ as: "admin", query: { company_id: demoId("company", "dnipro-lviv") } }),
    disconnectAgent: () => ({
      as: "admin",
      params: {
        id: walk.listRelationships.data.find((r: Json) => r.user_id === demoId("user", "dnipro-agent-lviv"))
          .id,
      },
    }),
    requestJoinAgency: () => ({
      as: "joiner",
      body: { agency_id: demoId("agency", "dnipro"), company_id: demoId("company", "dnipro-lviv") },
    }),
    listJoinRequests: () => ({ as: "joiner", query: { status: "sent" } }),
    // Accepted: the agent is back in its company, as the walk found it.
    decideJoinRequest: () => ({
      as: "admin",
      params: { id: walk.requestJoinAgency.join_agency.id },
      body: { status: "accepted" },
    }),
    // Issue 24: the traveller's itinerary e-mail, and the month's invoices and statement.
    sendItinerary: () => ({
      params: { locator: walk.exchanged },
      body: { itinerary: { to: "traveller@example.org", note: "Have a good trip" } },
    }),
    listItineraryMails: () => ({ params: { locator: walk.exchanged } }),
    setItineraryOnIssue: () => ({
      as: "admin",
      params: { id: demoId("company", "dnipro-kyiv") },
      body: { itinerary_on_issue: true },
    }),
    setBillingContact: () => ({
      as: "admin",
      params: { id: demoId("company", "dnipro-kyiv") },
      body: { billing_email: "billing@kyiv.example" },
    }),
    listInvoices: () => ({ as: "admin", query: { month: new Date().toISOString().slice(0, 7) } }),
    getInvoice: async () => {
      // The walk's sales numbered now rather than at the next booking sweep, once the sales read model has them
      // (numbering reads its work list there) and until the invoices read model shows the first one.
      for (let attempt = 0; attempt < 100; attempt++) {
        await numberSaleDocuments({ pool: t.app.pool, store: t.app.store, now: () => new Date() }, "walk");
        const { rows } = await t.db.pool.query<{ invoice_id: string }>(
          "SELECT invoice_id FROM read.invoices ORDER BY number LIMIT 1",
        );
        if (rows[0]) return { as: "admin", params: { id: rows[0].invoice_id } };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error("no invoice was numbered for the walk's sales within 10 s");
    },
    companyStatement: () => ({
      as: "admin",
      params: { id: demoId("company", "dnipro-kyiv"), month: new Date().toISOString().slice(0, 7) },
    }),
    createTraveller: () => ({
      body: {
        traveller: {
          ...travellerOf("Olha", "Walker"),
          loyalty: [{ carrier: "LH", number: "992001234567" }],
          ssrs: ["VGML"],
        },
      },
    }),
    listTravellers: () => ({ query: { q: "walker" } }),
    getTraveller: () => ({ params: { id: walk.createTraveller.traveller.id } }),
    updateTraveller: () => ({
      params: { id: walk.createTraveller.traveller.id },
      body: { traveller: { ...travellerOf("Olha", "Walker"), ssrs: ["WCHR"] } },
    }),
    eraseTraveller: () => ({ as: "admin", params: { id: walk.createTraveller.traveller.id } }),
    getApiTokenStatus: () => ({}),
    issueApiToken: () => ({ as: "person" }),
    // Last: it withdraws the token the walk calls with.
    revokeApiToken: () => ({ as: "person" }),
  };
  const flag = (on: boolean): Call => ({
    as: "admin",
    params: { id: demoId("agency", "dnipro") },
    body: { on },
  });

  /** The answer's status is documented, with its content type; a JSON answer matches the documented schema. */
  const check = (op: Operation, res: HttpResponse) => {
    const documented = op.responses[String(res.status)];
    if (!documented)
      throw new Error(
        `${op.operationId} answered ${res.status}, not documented: ${JSON.stringify(res.body)}`,
      );
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = res.headers.get(name);
      if (value === null ? header.required : !ajv.validate(header.schema, value))
        throw new Error(`${op.operationId} ${res.status}: header ${name} is ${value}, not as documented`);
    }
    const mediaType = (res.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
    const content = documented.content[mediaType];
    if (!content)
      throw new Error(
        `${op.operationId} ${res.status} answered ${mediaType || "no content type"}, documented: ${Object.keys(documented.content).join(", ")}`,
      );
    if (!content.schema) {
      // A file: documented by its media type alone; it must not be empty.
      if (!res.body) throw new Error(`${op.operationId} ${res.status} answered an empty ${mediaType}`);
      return;
    }
    const validate = ajv.compile(content.schema);
    if (!validate(res.body))
      throw new Error(`${op.operationId} ${res.status} does not match: ${ajv.errorsText(validate.errors)}`);
  };

  it("every documented operation answers as documented, with the API token as a bearer", async () => {
    // Sockets kept alive since beforeAll may have been closed by the server (its 5 s keep-alive timeout) while the
    // test above compiled schemas: a request on one meets ECONNRESET and drops it, so these take the hits instead.
    for (let i = 0; i < 4; i++)
      await t
        .client()
        .get("/csrf")
        .catch(() => undefined);
    const order = Object.keys(calls);
    const documented = operations().sort(
      (a, b) => order.indexOf(a.op.operationId) - order.indexOf(b.op.operationId),
    );
    for (const { path, method, op } of documented) {
      const make = calls[op.operationId];
      if (!make) throw new Error(`no call for the documented operation ${op.operationId}: add one`);
      if (op.operationId === "listEvents") await chainAll(t.db.pool);
      const call = await make();
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        encodeURIComponent(call.params?.[name] ?? ""),
      );
      const res = await clients[call.as ?? "agent"].request(method.toUpperCase(), url, {
        query: call.query,
        body: call.body,
      });
      check(op, res);
      if (res.status >= 300)
        throw new Error(`${op.operationId} answered ${res.status}: ${JSON.stringify(res.body)}`);
      walk[op.operationId] = res.body;
      // A new token replaces the agent's: the walk goes on with the new one.
      if (op.operationId === "issueApiToken")
        clients.agent = t.client({ authorization: `Bearer ${res.body.data.token}` });
      // Once it is revoked, the agent goes on in its session.
      if (op.operationId === "revokeApiToken") clients.agent = clients.person;
      // Without credentials, the documented 401.
      const anonymous = await t
        .client()
        .request(method.toUpperCase(), url, { query: call.query, body: call.body });
      expect(anonymous.status).toBe(401);
      check(op, anonymous);
    }
  }, 180_000); // one call per documented operation (127), in turn

  it("documented refusals answer as documented: another role's 403, invalid input's 422", async () => {
    const op = (id: string) => operations().find((o) => o.op.operationId === id)?.op as Operation;
    const verify = await clients.agent.get("/audit/verify");
    expect([verify.status, verify.body.errors[0].code]).toEqual([403, "admin_or_auditor_only"]);
    check(op("verifyLog"), verify);
    const bad = await clients.agent.get("/audit/events", { query: { from: "yesterday" } });
    expect(bad.status).toBe(422);
    check(op("listEvents"), bad);
    // A filter without lines is 400 `no_tickets`; a report not of the caller's (or expired) is 404.
    const empty = await clients.agent.get("/sales/export", { query: { "ticket[text]": "ZZZZZZ" } });
    expect([empty.status, empty.body.errors?.[0]?.code]).toEqual([400, "no_tickets"]);
    check(op("exportSales"), empty);
    const theirs = await keptSalesReport(t.db.pool, demoId("user", "dnipro-agent-lviv"));
    const report = await clients.agent.get(`/sales/reports/${theirs}`);
    expect(report.status).toBe(404);
    check(op("salesReport"), report);
  });
});
