import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AUDITOR_WRITES } from "@skyward/command-service/audit/read-only";
import { DEMO_PASSWORD, demoCompanies, demoUsers } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import type { UserType } from "@skyward/contracts/metadata";
import { type RouteExpectation, routeExpectations, type Tenant } from "./authorization-expectations.ts";
import type { HttpClient, HttpResponse } from "./testing/http-client.ts";
import { fillPath, listRoutes, pathParams, type RouteSignature, routeKey } from "./testing/routes.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * Calls every route of the app anonymously, as each role of the Dnipro tenant, and as Vistula users probing Dnipro
 * ids, and checks each answer against `routeExpectations`. Any 2xx that shows a Vistula user another tenant's ids,
 * e-mails or names (or the reverse) fails, as does a 2xx for a route given another tenant's ids.
 */

type AgencyKey = "dnipro" | "vistula";

/** What identifies a tenant's data in a response body. */
function markersOf(agency: AgencyKey): string[] {
  const companies = demoCompanies.filter((c) => c.agency === agency);
  const users = demoUsers.filter((u) => u.agency_id === agency);
  return [
    demoId("agency", agency),
    ...companies.flatMap((c) => [demoId("company", c.key), c.name]),
    ...users.flatMap((u) => [demoId("user", u.key), u.email]),
  ];
}

const dnipro: Tenant = {
  agencyId: demoId("agency", "dnipro"),
  companyIds: demoCompanies.filter((c) => c.agency === "dnipro").map((c) => demoId("company", c.key)),
  userIds: demoUsers.filter((u) => u.agency_id === "dnipro").map((u) => demoId("user", u.key)),
  bookingLocator: "", // a real Dnipro booking, made in beforeAll
  travellerId: "", // a traveller Dnipro keeps, kept in beforeAll
};

interface Caller {
  name: string;
  email: string;
  userType: UserType;
  /** The other tenant's markers this caller must never see (none for administrators). */
  mustNotSee: string[];
  /** True when the routes' ids belong to another tenant than the caller's. */
  probesOtherTenant: boolean;
}

const callers: Caller[] = [
  {
    name: "Dnipro agent",
    email: "agent@dnipro.test",
    userType: "Agent",
    mustNotSee: markersOf("vistula"),
    probesOtherTenant: false,
  },
  {
    name: "Dnipro supervisor",
    email: "supervisor@dnipro.test",
    userType: "Supervisor",
    mustNotSee: markersOf("vistula"),
    probesOtherTenant: false,
  },
  { name: "Admin", email: "admin@skyward.test", userType: "Admin", mustNotSee: [], probesOtherTenant: false },
  // A read-only administrator: reads every tenant, writes nothing.
  {
    name: "Auditor",
    email: "auditor@skyward.test",
    userType: "Auditor",
    mustNotSee: [],
    probesOtherTenant: false,
  },
  {
    name: "Support",
    email: "support@skyward.test",
    userType: "Support",
    mustNotSee: [],
    probesOtherTenant: false,
  },
  {
    name: "Vistula agent",
    email: "agent@vistula.test",
    userType: "Agent",
    mustNotSee: markersOf("dnipro"),
    probesOtherTenant: true,
  },
  {
    name: "Vistula supervisor",
    email: "supervisor@vistula.test",
    userType: "Supervisor",
    mustNotSee: markersOf("dnipro"),
    probesOtherTenant: true,
  },
  {
    // In Dnipro Travel Kyiv, whose agents share bookings; still the real booking and its colleagues are not its own.
    name: "Demo agent",
    email: "demo@skyward.test",
    userType: "Agent",
    mustNotSee: [
      "FM123456",
      "Matrix",
      "MATRIX",
      ...demoUsers
        .filter((u) => u.agency_id === "dnipro" && !u.demo_user)
        .flatMap((u) => [demoId("user", u.key), u.email]),
    ],
    probesOtherTenant: true,
  },
];

/** "signed-in" is every user type, but an auditor only reads and runs its own account: its other commands 403. */
const allows = (e: RouteExpectation, type: UserType, route: RouteSignature) =>
  e.allow === "public" ||
  (e.allow === "signed-in"
    ? type !== "Auditor" || route.method === "GET" || AUDITOR_WRITES.has(routeKey(route))
    : e.allow.includes(type));

/**
 * The 403 code a refused caller must get: it names who may use the route (issue 21, item 13). Written out here
 * rather than taken from the server, so a changed code is a deliberate change of this table.
 */
function refusalCode(e: RouteExpectation, type: UserType, route: RouteSignature): string {
  if (e.allow === "public") throw new Error("a public route refuses nobody");
  // An auditor's command is refused for what an auditor is (read-only) before any route's own role check.
  const auditorsCommand =
    type === "Auditor" && route.method !== "GET" && !AUDITOR_WRITES.has(routeKey(route));
  if (e.allow === "signed-in" || auditorsCommand) return "auditor_read_only";
  const codes: Record<string, string> = {
    Admin: "admin_user_only",
    "Admin,Support": "admin_only",
    "Admin,Supervisor,Support": "supervisor_or_admin_only",
    "Admin,Auditor,Support": "admin_or_auditor_only",
    "Admin,Auditor,Supervisor,Support": "supervisor_admin_or_auditor_only",
    Agent: "agent_only",
  };
  const code = codes[[...e.allow].sort().join(",")];
  if (!code) throw new Error(`no refusal code for ${e.allow.join(", ")}`);
  return code;
}

async function call(client: HttpClient, route: RouteSignature, e: RouteExpectation): Promise<HttpResponse> {
  const path = fillPath(route.path, e.params?.(dnipro) ?? {});
  return client.request(route.method, path, { body: e.body?.(dnipro), query: e.query?.(dnipro) });
}

const describeAnswer = (res: HttpResponse) =>
  `${res.status} ${typeof res.body === "string" ? res.body.slice(0, 120) : JSON.stringify(res.body).slice(0, 200)}`;

/** A held booking of the Dnipro tenant, so booking routes are probed with an id that exists. */
async function bookAsDniproAgent(app: TestApp): Promise<string> {
  const agent = app.client();
  await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
  const departure = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const search = await agent.post("/offers", {
    origin: "KBP",
    destination: "WAW",
    departure_date: departure,
    passengers: { adults: 1, children: 0, infants: 0 },
  });
  const result = search.body.result;
  const booked = await agent.post("/bookings", {
    search_result_id: result.id,
    fare_id: result.origin_destinations[0].fares[0].fare_id,
    passengers: [
      {
        type: "adult",
        gender: "F",
        first_name: "Oksana",
        last_name: "Matrix",
        date_of_birth: "1990-01-01",
        document: {
          type: "passport",
          number: "FM123456",
          issuing_country: "UA",
          nationality: "UA",
          expires_on: "2031-01-01",
        },
      },
    ],
    contacts: { email: "oksana@example.com", phone: "+380501234567" },
  });
  if (booked.status !== 201) throw new Error(`booking for the matrix failed: ${JSON.stringify(booked.body)}`);
  return booked.body.locator as string;
}

/** A traveller the Dnipro tenant keeps, so traveller routes are probed with an id that exists. */
async function keepAsDniproAgent(app: TestApp): Promise<string> {
  const agent = app.client();
  await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
  const kept = await agent.post("/travellers", {
    traveller: {
      first_name: "Oksana",
      last_name: "Matrix",
      date_of_birth: "1991-02-02",
      gender: "F",
      documents: [
        {
          type: "passport",
          number: "FM123456",
          issuing_country: "UA",
          nationality: "UA",
          expires_on: "2031-01-01",
        },
      ],
    },
  });
  if (kept.status !== 201)
    throw new Error(`keeping a traveller for the matrix failed: ${JSON.stringify(kept.body)}`);
  return kept.body.traveller.id as string;
}

let t: TestApp;
let routes: RouteSignature[];
beforeAll(async () => {
  t = await startTestApp();
  routes = listRoutes(t.app.http);
  dnipro.bookingLocator = await bookAsDniproAgent(t);
  dnipro.travellerId = await keepAsDniproAgent(t);
  // Sessions end last, so every other route is called signed in.
  routes.sort(
    (a, b) =>
      Number(!!routeExpectations[routeKey(a)]?.endsSession) -
      Number(!!routeExpectations[routeKey(b)]?.endsSession),
  );
});
afterAll(() => t.stop());

describe("the authorization matrix", () => {
  it("when the app's routes are listed, then every route has authorization expectations, and every expectation a route", () => {
    const keys = routes.map(routeKey);
    const missing = keys
      .filter((k) => !routeExpectations[k])
      .map((k) => `new route ${k} has no authorization expectations`);
    const stale = Object.keys(routeExpectations)
      .filter((k) => !keys.includes(k))
      .map((k) => `the expectation for ${k} matches no route`);
    const unfilled = routes
      .filter((r) =>
        pathParams(r.path).some((p) => !(p in (routeExpectations[routeKey(r)]?.params?.(dnipro) ?? {}))),
      )
      .map((r) => `route ${routeKey(r)} needs params for its path`);
    expect([...missing, ...stale, ...unfilled]).toEqual([]);
    expect(keys).toEqual(
      expect.arrayContaining(["POST /sign_in", "GET /account/details", "PUT /account/api_token"]),
    );
  });

  it("when a route is called anonymously, then only the public ones answer; the others say 401 in the envelope, before reading the body", async () => {
    const anonymous = t.client();
    const failures: string[] = [];
    for (const route of routes) {
      const e = routeExpectations[routeKey(route)];
      if (!e) continue;
      if (e.allow === "public") {
        const res = await call(anonymous, route, e);
        if (res.status >= 500) failures.push(`${routeKey(route)} anonymously: ${describeAnswer(res)}`);
        continue;
      }
      // A body and a query no route accepts: a stranger must learn that they need to sign in, not what the route reads.
      const path = fillPath(route.path, e.params?.(dnipro) ?? {});
      const junk = route.method === "GET" ? undefined : { active: "probe", locator: 1, name: [] };
      const junkQuery = {
        page: "-1",
        per_page: "x",
        date_from: "nope",
        from: "nope",
        at: "nope",
        type: "nope",
      };
      const res = await anonymous.request(route.method, path, {
        body: junk,
        query: {
          ...junkQuery,
          ...e.query?.(dnipro),
          "ticket[date_from]": "nope",
          "analytics[date_from]": "nope",
        },
      });
      if (res.status >= 500) failures.push(`${routeKey(route)} anonymously: ${describeAnswer(res)}`);
      const enveloped = res.body?.errors?.[0]?.status === String(res.status);
      if (res.status !== 401 || !enveloped)
        failures.push(
          `${routeKey(route)} anonymously: expected 401 in the envelope, got ${describeAnswer(res)}`,
        );
    }
    expect(failures).toEqual([]);
  });

  it.each(callers.map((c) => [c.name, c] as const))(
    "when %s calls every route, then the roles table is enforced and no other tenant's data shows",
    async (_name, caller) => {
      const client = t.client();
      await client.signInWithPassword(caller.email, DEMO_PASSWORD);
      const failures: string[] = [];
      for (const route of routes) {
        const e = routeExpectations[routeKey(route)];
        if (!e || e.allow === "public") continue;
        const res = await call(client, route, e);
        const where = `${routeKey(route)} as ${caller.name}`;
        const code = res.body?.errors?.[0]?.code;
        if (res.status >= 500) failures.push(`${where}: ${describeAnswer(res)}`);
        if (allows(e, caller.userType, route)) {
          if ([401, 403].includes(res.status) || code === "route_not_found")
            failures.push(`${where}: expected access, got ${describeAnswer(res)}`);
        } else if (res.status !== 403 || code !== refusalCode(e, caller.userType, route)) {
          const expected = refusalCode(e, caller.userType, route);
          failures.push(
            `${where}: expected 403 ${expected} for a ${caller.userType}, got ${describeAnswer(res)}`,
          );
        }
        if (res.status >= 200 && res.status < 300) {
          const text = JSON.stringify(res.body);
          const leaked = caller.mustNotSee.filter((marker) => text.includes(marker));
          if (leaked.length > 0)
            failures.push(`${where}: leaks another tenant's data (${leaked.join(", ")})`);
          if (caller.probesOtherTenant && (pathParams(route.path).length > 0 || e.tenantIdsInBody))
            failures.push(`${where}: answered ${res.status} for another tenant's ids`);
        }
      }
      // A route nobody has stays a 404, for every role (an auditor's command included).
      for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
        const res = await client.request(method, "/no_such_route/1", {
          body: method === "GET" ? undefined : {},
        });
        if (res.status !== 404 || res.body?.errors?.[0]?.code !== "route_not_found")
          failures.push(
            `${method} /no_such_route/1 as ${caller.name}: expected 404, got ${describeAnswer(res)}`,
          );
      }
      expect(failures).toEqual([]);
    },
  );
});
