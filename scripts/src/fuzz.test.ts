import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { ErrorEnvelope } from "@skyward/contracts/errors";
import { routeExpectations, type Tenant } from "./authorization-expectations.ts";
import type { HttpClient, HttpResponse, Json, RequestOptions } from "./testing/http-client.ts";
import { listRoutes, pathParams, type RouteSignature, routeKey } from "./testing/routes.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * Hostile input on every route of the app (walked from the Express app, so a new route cannot be left out), as an
 * anonymous caller, an agent and an administrator: NUL and lone surrogates in every string and key, broken `%`
 * escapes in paths and queries, wrong types, huge strings, deep nesting, arrays for objects, empty, malformed,
 * oversized and non-JSON bodies. No answer may be a 5xx, every error is in the envelope, the hostile characters
 * answer 400, and a rejected request writes nothing (events and every table of schema `app`).
 */

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Ids the plausible bodies use: a real search, fare and held booking of the Dnipro agent. */
interface Ids {
  searchResultId: string;
  fareId: string;
  locator: string;
}

const searchBody = () => ({
  origin: "KBP",
  destination: "WAW",
  departure_date: inDays(30),
  passengers: { adults: 1, children: 0, infants: 0 },
  cabin: "economy",
  carriers: ["PS", "LO"],
});
const passenger = {
  type: "adult",
  gender: "F",
  first_name: "Oksana",
  last_name: "Fuzz",
  date_of_birth: "1990-01-01",
  document: {
    type: "passport",
    number: "FZ123456",
    issuing_country: "UA",
    nationality: "UA",
    expires_on: "2031-01-01",
  },
};
const contacts = { email: "oksana@example.com", phone: "+380501234567" };

/**
 * A body that gets past validation for every route that reads one, so each hostile variant differs from a valid
 * request in one place. A new body-reading route fails the coverage test until it has its line here.
 */
const plausibleBodies: Record<string, (ids: Ids) => Json> = {
  // An unknown address: fuzzing sign-in must not lock a real user out.
  "POST /start_sign_in": () => ({ account: { email: "nobody@fuzz.test", language: "en" } }),
  "POST /sign_in": () => ({ account: { email: "nobody@fuzz.test", password: "not-the-password" } }),
  "POST /send_voice_otp": () => ({ account: { email: "nobody@fuzz.test" } }),
  "DELETE /sign_out": () => ({}),
  "PUT /onboarding": () => ({ account: { first_name: "Ann", last_name: "Fuzz", phone: "+380501234567" } }),
  "POST /account/complete": () => ({ account: { first_name: "Ann", last_name: "Fuzz", language: "en" } }),
  "PUT /account/terms": () => ({ terms: { version: "2026-11" } }),
  "PUT /account/details": () => ({ account: { first_name: "Ann", last_name: "Fuzz", language: "en" } }),
  "PUT /account/details/update_locale": () => ({ language: "en" }),
  "POST /account/phone": () => ({ phone: "+380501234567" }),
  "PUT /account/phone": () => ({ phone: "+380501234567" }),
  "PUT /account/email": () => ({ email: "new-address@fuzz.test", otp_attempt: "123456" }),
  "PUT /account/api_token": () => ({}),
  "DELETE /account/api_token": () => ({}),
  "POST /offers": () => searchBody(),
  "POST /text_search": () => ({ text: "Kyiv to Warsaw tomorrow, two adults", language: "en" }),
  "POST /fare_calendar": () => searchBody(),
  "POST /search_results": (ids) => ({
    search_result_id: ids.searchResultId,
    filters: { stops: [0], carriers: ["PS"], price: { min: 0, max: 100000 }, baggage: "any" },
  }),
  "DELETE /search_results/:id": () => ({}),
  "POST /bookings": (ids) => ({
    search_result_id: ids.searchResultId,
    fare_id: ids.fareId,
    passengers: [passenger],
    contacts,
  }),
  "POST /bookings/issue": (ids) => ({ locator: ids.locator, reshop: false }),
  "POST /bookings/reprice": (ids) => ({ locator: ids.locator }),
  "POST /bookings/reshop": (ids) => ({ locator: ids.locator }),
  "POST /bookings/comment": (ids) => ({ locator: ids.locator, comment: "fuzz" }),
  "POST /bookings/modify": (ids) => ({
    locator: ids.locator,
    contacts: { email: "changed@example.com" },
    passengers: [{ index: 0, document: passenger.document }],
  }),
  "DELETE /bookings/:locator": () => ({}),
  "POST /orders/:locator/refund_requests/create": () => ({ passengers: [0] }),
  "POST /orders/:locator/refund_requests/confirm": () => ({ quote_id: "RQFUZZ" }),
  "POST /orders/:locator/schedule_change/check": () => ({}),
  "POST /orders/:locator/schedule_change/answer": () => ({ change_id: "SCFUZZ", choice: "accept" }),
  "POST /bookings/:locator/itinerary_mails": () => ({
    itinerary: { to: "traveller@fuzz.test", note: "Have a good trip", language: "en" },
  }),
  "PATCH /companies/:id/itinerary_on_issue": () => ({ itinerary_on_issue: true }),
  "PATCH /companies/:id/billing_contact": () => ({ billing_email: "billing@fuzz.test" }),
  "POST /notifications/read": () => ({ notification_ids: ["fuzz:notification"] }),
  "PUT /notification_settings": () => ({
    settings: [{ kind: "schedule_change", in_app: true, mail: false }],
  }),
  "POST /orders/:locator/flights_change_requests/create": () => ({ departure_date: inDays(35) }),
  "POST /orders/:locator/reshop_offers/price": () => ({}),
  "POST /orders/:locator/flights_change_requests/confirm": () => ({ reshop_offer_id: "SBX1-FUZZ" }),
  "POST /bookings/:locator/ancillaries": () => ({
    items: [{ ancillary_id: "SEAT-FRONT-FUZZ", passenger_index: 0, seat: "2A" }],
  }),
  "POST /bookings/:locator/emds/:emd_number/refund": () => ({}),
  // Ticketing (issue 11): gates asked to stay open, the seeded channel's settings as they are, missing cards.
  "PATCH /ticketing/main_gate": () => ({ active: true }),
  "PATCH /ticketing/agency_gate": () => ({ active: true }),
  "PATCH /ticketing/channel_gate": () => ({ active: true }),
  "PATCH /ticketing/agency_gates/:id": () => ({ active: true }),
  "PATCH /ticketing/company_gates/:id": () => ({ active: true }),
  "PATCH /ticketing/source_channels/:channel": () => ({ active: true }),
  "POST /ticketing/agency_channels": () => ({
    channel: { agency_id: "missing-agency", name: "Fuzz channel" },
  }),
  "DELETE /ticketing/agency_channels/:id": () => ({}),
  "PATCH /ticketing/agency_channels/:id": () => ({ on_by_supervisor: true, nego_code: "FUZZ1" }),
  "POST /ticketing/agency_channels/:id/credit_cards": () => ({ credit_card_id: "missing" }),
  "DELETE /ticketing/agency_channels/:id/credit_cards/:card_id": () => ({}),
  "PATCH /ticketing/company_channels/:id": () => ({ active: true }),
  "POST /ticketing/agency_channels/:id/credential": () => ({
    credential: { login: "fuzz", password: "fuzz" },
  }),
  "PATCH /ticketing/agency_channels/:id/credential": () => ({
    credential: { login: "fuzz", password: "fuzz" },
  }),
  // Travellers (issue 23): a profile with every part, aimed at a traveller that does not exist where it would change one.
  "POST /travellers": () => ({
    traveller: {
      first_name: "Ann",
      last_name: "Fuzz",
      date_of_birth: "1990-01-01",
      gender: "F",
      documents: [passenger.document],
      contacts: { email: "ann@fuzz.test", phone: "+380501234567" },
      loyalty: [{ carrier: "LH", number: "992001234567" }],
      ssrs: ["VGML", "WCHR"],
    },
  }),
  "PUT /travellers/:id": () => ({
    traveller: { first_name: "Ann", last_name: "Fuzz", date_of_birth: "1990-01-01", gender: "F" },
  }),
  "DELETE /travellers/:id": () => ({}),
  "POST /credit_cards": () => ({
    credit_card: { number: "4242 4242 4242 4242", exp_month: 12, exp_year: 2030, holder: "ANN FUZZ" },
  }),
  "PATCH /credit_cards/:id": () => ({ holder: "ANN FUZZ" }),
  "DELETE /credit_cards/:id": () => ({}),
  // Administration (issue 11): writes aimed at missing ids where they would create or move money, the tenant's
  // own partner and company (which hold money, so deleting them is refused) elsewhere.
  "POST /agencies": () => ({ name: "Fuzz Partner" }),
  "PATCH /agencies/:id": () => ({ name: "Fuzz Travel" }),
  "DELETE /agencies/:id": () => ({}),
  "POST /agencies/:id/duplicate": () => ({}),
  "PATCH /agencies/:id/production_api_on": () => ({ active: true }),
  "PATCH /agencies/:id/corporate_number_on": () => ({ active: true }),
  "PATCH /agencies/:id/auto_cancel_held_on": () => ({ active: true }),
  "POST /audit/replays": () => ({ projection: "directory" }),
  "POST /audit/replays/:id/switch": () => ({}),
  "PATCH /agencies/:id/ghost_segments_remarks_on": () => ({ active: true }),
  "PUT /agency_transaction_fees/:id": () => ({ transaction_fee: null }),
  "POST /companies": () => ({ agency_id: "missing-agency", name: "Fuzz company" }),
  "DELETE /companies/:id": () => ({}),
  "PUT /companies/:id/markups": () => ({ markups: [] }),
  "PUT /companies/:id/credit_limit": () => ({ credit_limit: 0 }),
  "PATCH /ticketing/company_shared_bookings/:id": () => ({ active: false }),
  "DELETE /agent_company_relationships/:id": () => ({}),
  "POST /join_agency_requests": () => ({ agency_id: "missing-agency" }),
  "PATCH /join_agency_requests/:id": () => ({ status: "rejected" }),
  "POST /agencies/:id/supervisors": () => ({
    email: "fuzz.supervisor@fuzz.test",
    first_name: "Fuzz",
    last_name: "Supervisor",
  }),
  "PATCH /agencies/:id/supervisors/:supervisorId": () => ({ first_name: "Fuzz" }),
  "DELETE /agencies/:id/supervisors/:supervisorId": () => ({}),
  "POST /supports": () => ({ email: "fuzz.support@fuzz.test", first_name: "Fuzz", last_name: "Support" }),
  "POST /transactions": () => ({ company_id: "missing-company", amount: 100, reason: "fuzz" }),
  // The AI admin assistant (issue 13): a question about a missing company, a plan that does not exist.
  "POST /admin_panel/ask": () => ({ text: "what is the balance of Missing Fuzz Company?" }),
  "POST /admin_panel/execute": () => ({
    plan_id: "00000000-0000-4000-8000-000000000000",
    confirm_money: true,
  }),
  "PUT /account/selling_company": () => ({ company_id: "missing-company" }),
};

/** Routes whose refusals (401, 404, 429) may record the attempt, for the sign-in limits. */
const recordsAttempts = new Set([
  "POST /start_sign_in",
  "POST /sign_in",
  "POST /send_voice_otp",
  "PUT /account/email",
]);
/** Answers that refuse the input itself: these must never write anything, on any route. */
const inputRefusals = new Set([400, 413, 415, 422]);
/**
 * Liveness and readiness probes answer before the body is read (polled often, not logged) and read no body: a
 * hostile body there must not cause a 5xx or a write, but it is not refused either. Their URLs are checked.
 */
const probes = new Set(["GET /health", "GET /ready"]);

// ── Deterministic choice ──────────────────────────────────────────────────────────────────────────────────

/** mulberry32: the same cases on every run, so a failure reproduces. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length > 0)
    chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0] as T);
  return chosen;
}

// ── Hostile cases ─────────────────────────────────────────────────────────────────────────────────────────

interface Case {
  label: string;
  path: string;
  options: RequestOptions;
  /** The status the case must get, when its input is refused whoever calls. */
  expect?: number;
}

type JsonPath = (string | number)[];

/** Every leaf (string, number, boolean, null) and every object of a JSON value, with its path. */
function walk(value: Json, path: JsonPath = [], out: { leaves: JsonPath[]; objects: JsonPath[] }) {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) walk(v, [...path, i], out);
  } else if (value !== null && typeof value === "object") {
    out.objects.push(path);
    for (const [k, v] of Object.entries(value)) walk(v, [...path, k], out);
  } else out.leaves.push(path);
  return out;
}

const at = (value: Json, path: JsonPath): Json => path.reduce((v, k) => v?.[k], value);

function replaced(value: Json, path: JsonPath, make: (old: Json) => Json): Json {
  if (path.length === 0) return make(value);
  const copy = structuredClone(value);
  const parent = at(copy, path.slice(0, -1));
  // Gone from under an object an earlier step wrapped in an array (an object in an array in an object).
  if (parent === undefined || parent === null) return copy;
  const last = path.at(-1) as string | number;
  parent[last] = make(parent[last]);
  return copy;
}

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const hostileStrings: [string, (s: string) => string][] = [
  ["NUL", (s) => `${s}\u0000`],
  ["lone high surrogate", (s) => `\uD800${s}`],
  ["lone low surrogate", (s) => `${s}\uDFFF`],
];
/** Percent-escapes that decode to nothing valid (a truncated sequence, a bare %, an encoded surrogate, a NUL). */
const brokenEscapes = ["%E0%A4%A", "%", "%ED%A0%80", "%FF", "%00", "ab%0"];
const wrongTypes: [string, Json][] = [
  ["a huge integer", 1e300],
  ["a negative number", -1],
  ["a fraction", 0.5],
  ["true", true],
  ["null", null],
  ["an empty array", []],
  ["an object", { nested: { deeper: "x" } }],
  ["a number as text", "12345678901234567890"],
  ["an empty string", ""],
  ["a huge string", "x".repeat(90_000)],
  ["non-Latin text", "Ωmega 😀 Łódź"],
];

/** `reads` false: the route takes no body, so a few cases show a hostile one is still refused or ignored. */
function bodyCases(key: string, body: Json, reads: boolean, random: () => number): Case[] {
  const { leaves, objects } = walk(body, [], { leaves: [], objects: [] });
  const where = (p: JsonPath) => `/${p.join("/")}`;
  const strings = leaves.filter((p) => typeof at(body, p) === "string");
  const must400: Case[] = [];
  for (const p of strings)
    for (const [name, make] of hostileStrings)
      must400.push({
        label: `${name} in ${where(p)}`,
        path: "",
        options: { body: replaced(body, p, make) },
        expect: 400,
      });
  for (const p of objects)
    for (const [name, make] of hostileStrings)
      must400.push({
        label: `${name} in a key of ${where(p)}`,
        path: "",
        options: { body: replaced(body, p, (o) => ({ ...o, [make("key")]: "x" })) },
        expect: 400,
      });
  const typed: Case[] = leaves.flatMap((p) =>
    pick(wrongTypes, 3, random).map(([name, value]) => ({
      label: `${name} in ${where(p)}`,
      path: "",
      options: { body: replaced(body, p, () => value) },
    })),
  );
  const raw = JSON.stringify(body);
  const structural: Case[] = [
    { label: "the body in an array", path: "", options: { body: [body] } },
    {
      label: "an array for every object",
      path: "",
      options: { body: objects.reduce((b, p) => (p.length ? replaced(b, p, (o) => [o]) : b), body) },
    },
    { label: "an empty body", path: "", options: { rawBody: "" } },
    { label: "an empty object", path: "", options: { body: {} } },
    { label: "a bare string", path: "", options: { rawBody: '"text"' }, expect: 400 },
    { label: "malformed JSON", path: "", options: { rawBody: raw.slice(0, -1) }, expect: 400 },
    { label: "a raw NUL byte in JSON text", path: "", options: { rawBody: `{"a":"x\u0000"}` }, expect: 400 },
    { label: "JSON nested 20,000 deep", path: "", options: { rawBody: nested(20_000) } },
    {
      label: "a field nested 5,000 deep",
      path: "",
      options: { rawBody: `${raw.slice(0, -1)}${raw.length > 2 ? "," : ""}"deep":${nested(5_000)}}` },
    },
    {
      label: "a prototype key",
      path: "",
      options: { rawBody: `{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}` },
    },
    {
      label: "a body over the size limit",
      path: "",
      options: { body: { ...body, padding: "x".repeat(200_000) } },
      expect: 413,
    },
    {
      label: "a form body",
      path: "",
      options: { rawBody: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } },
      expect: 415,
    },
    {
      label: "a text body",
      path: "",
      options: { rawBody: raw, headers: { "content-type": "text/plain" } },
      expect: 415,
    },
    {
      label: "JSON in a charset the server does not read",
      path: "",
      options: { rawBody: raw, headers: { "content-type": "application/json; charset=koi8-r" } },
      expect: 415,
    },
  ];
  const bounded = reads
    ? [...pick(must400, 8, random), ...pick(typed, 8, random), ...structural]
    : [...pick(must400, 2, random), ...pick(typed, 1, random), ...pick(structural, 4, random)];
  return bounded.map((c) => ({ ...c, label: `${key} body: ${c.label}` }));
}

const withQuery = (path: string, query: Record<string, string>) => {
  const text = Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
  return text ? `${path}?${text}` : path;
};

function queryCases(path: string, query: Record<string, string>, random: () => number): Case[] {
  const names = [...Object.keys(query), "q"];
  const rest = (name: string) =>
    Object.entries(query)
      .filter(([k]) => k !== name)
      .map(([k, v]) => `&${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join("");
  const cases: Case[] = [];
  for (const name of names) {
    for (const broken of brokenEscapes)
      cases.push({
        label: `query ${name}=${broken}`,
        path: `${path}?${name}=${broken}${rest(name)}`,
        options: {},
        expect: 400,
      });
    cases.push({
      label: `query key with NUL`,
      path: `${path}?${name}%00=x${rest(name)}`,
      options: {},
      expect: 400,
    });
    cases.push({
      label: `query ${name} as an array`,
      path: `${path}?${name}[]=a&${name}[]=b${rest(name)}`,
      options: {},
    });
    cases.push({
      label: `query ${name} as an object`,
      path: `${path}?${name}[a][b]=c${rest(name)}`,
      options: {},
    });
    cases.push({
      label: `query ${name} huge`,
      path: `${path}?${name}=${"y".repeat(4_000)}${rest(name)}`,
      options: {},
    });
  }
  return pick(cases, 8, random);
}

function pathCases(
  route: RouteSignature,
  params: Record<string, string>,
  query: Record<string, string>,
): Case[] {
  const fill = (name: string, raw: string) =>
    route.path.replace(/:(\w+)/g, (_, p: string) =>
      p === name ? raw : encodeURIComponent(params[p] ?? "x"),
    );
  const cases: Case[] = [];
  for (const name of pathParams(route.path)) {
    for (const broken of brokenEscapes)
      cases.push({
        label: `path :${name}=${broken}`,
        path: withQuery(fill(name, broken), query),
        options: {},
        expect: 400,
      });
    cases.push({
      label: `path :${name} huge`,
      path: withQuery(fill(name, "z".repeat(3_000)), query),
      options: {},
    });
    cases.push({
      label: `path :${name} non-Latin`,
      path: withQuery(fill(name, "%C3%A9%F0%9F%98%80"), query),
      options: {},
    });
  }
  // Routes without parameters get a broken escape in a segment of their own: refused before routing.
  cases.push({
    label: "path ends in a broken escape",
    path: withQuery(`${route.path.replace(/:(\w+)/g, "x")}/%E0%A4%A`, query),
    options: {},
    expect: 400,
  });
  return cases;
}

/**
 * Cookies the server never set (they replace the caller's own, so the request is as from a stranger) and headers
 * the app reads: an idempotency key too long or in Latin-1, a method override it does not allow, a bad trace id.
 */
function headerCases(path: string, random: () => number): Case[] {
  const cookies = [
    "skyward_session=%E0%A4%A",
    "skyward_session=%00",
    "skyward_csrf=%; skyward_session=x",
    `skyward_csrf=${"c".repeat(3_000)}`,
    "skyward_session=%ED%A0%80; skyward_session=%ED%A0%80",
  ];
  const headers: Record<string, string>[] = [
    { "idempotency-key": "k".repeat(4_000) },
    { "idempotency-key": "cl\u00e9-\u00ff-\u0080" },
    { "x-http-method-override": "TRACE" },
    { "x-trace-id": "\u00ff".repeat(30) },
  ];
  return [
    ...pick(cookies, 2, random).map((cookie) => ({
      label: `cookie ${cookie.slice(0, 40)}`,
      path,
      options: { headers: { cookie } },
    })),
    ...pick(headers, 1, random).map((header) => ({
      label: `header ${JSON.stringify(header).slice(0, 40)}`,
      path,
      options: { headers: header },
    })),
  ];
}

// ── The run ───────────────────────────────────────────────────────────────────────────────────────────────

let t: TestApp;
let routes: RouteSignature[];
let ids: Ids;
let tenant: Tenant;
/** Tables of schema `app`, read once: a new table is counted without editing this test. */
let appTables: string[];

async function signedIn(email: string): Promise<HttpClient> {
  const client = t.client();
  await client.signInWithPassword(email, DEMO_PASSWORD);
  return client;
}

/**
 * Row count and newest row version of es.events and every table of schema `app`: equal means nothing written.
 * The next transaction id comes first: while no transaction has written anything anywhere it does not move, and
 * the tables need not be scanned.
 */
async function snapshot(previous?: string): Promise<string> {
  const xid = await t.db.pool.query("SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xid");
  const next = `xid=${xid.rows[0].xid}`;
  if (previous?.startsWith(`${next} `)) return previous;
  const tables = ["es.events", ...appTables];
  const sql = `SELECT ${tables
    .map((table, i) =>
      // Authentication refreshes a session's last_seen_at once a minute whatever the answer: sessions by count.
      table === "app.sessions"
        ? `(SELECT count(*)::text FROM ${table}) AS t${i}`
        : `(SELECT count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0) FROM ${table}) AS t${i}`,
    )
    .join(", ")}`;
  const { rows } = await t.db.pool.query(sql);
  return [next, ...tables.map((table, i) => `${table}=${rows[0][`t${i}`]}`)].join(" ");
}

/** Writes an accepted request started after answering (mail, for one) settle before the next comparison. */
async function settled(): Promise<string> {
  let before = await snapshot();
  for (let i = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 15));
    const after = await snapshot(before);
    if (after === before) return after;
    before = after;
  }
  return before;
}

beforeAll(async () => {
  // No expiry runs in the background: a write between two snapshots must come from the request.
  // Hostile bodies the app accepts on DELETE /sign_out end the session; signing in again must not be rate limited.
  const attempts = { max: 10_000, windowSeconds: 600 };
  t = await startTestApp({
    scheduleEveryMs: 3_600_000,
    rateLimits: { attemptsPerIp: attempts },
  });
  routes = listRoutes(t.app.http);
  const { rows } = await t.db.pool.query<{ name: string }>(
    "SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables WHERE table_schema = 'app' AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  appTables = rows.map((r) => r.name);

  const agent = await signedIn("agent@dnipro.test");
  const search = await agent.post("/offers", searchBody());
  if (search.status !== 200)
    throw new Error(`search for the fuzz run failed: ${JSON.stringify(search.body)}`);
  const result = search.body.result;
  const fareId = result.origin_destinations[0].fares[0].fare_id as string;
  const booked = await agent.post("/bookings", {
    search_result_id: result.id,
    fare_id: fareId,
    passengers: [passenger],
    contacts,
  });
  if (booked.status !== 201)
    throw new Error(`booking for the fuzz run failed: ${JSON.stringify(booked.body)}`);
  ids = { searchResultId: result.id, fareId, locator: booked.body.locator };
  tenant = {
    agencyId: "",
    companyIds: [],
    userIds: [],
    bookingLocator: ids.locator,
    travellerId: "missing",
  };
});
afterAll(() => t.stop());

const describeAnswer = (res: HttpResponse) =>
  `${res.status} ${typeof res.body === "string" ? res.body.slice(0, 160) : JSON.stringify(res.body).slice(0, 240)}`;

describe("hostile input on every route", () => {
  it("when the app's routes are listed, then every route has path values and every body-reading route a plausible body", () => {
    const problems: string[] = [];
    for (const route of routes) {
      const key = routeKey(route);
      const params = routeExpectations[key]?.params?.(tenant) ?? {};
      for (const p of pathParams(route.path))
        if (!(p in params)) problems.push(`route ${key} needs a value for :${p}`);
      if (route.method !== "GET" && !plausibleBodies[key])
        problems.push(`route ${key} has no plausible body`);
    }
    const keys = new Set(routes.map(routeKey));
    for (const key of Object.keys(plausibleBodies))
      if (!keys.has(key)) problems.push(`the plausible body for ${key} matches no route`);
    expect(problems).toEqual([]);
    expect(routes.length).toBeGreaterThan(30);
  });

  it("when hostile input reaches every route as anonymous, agent and admin, then no answer is a 5xx, refusals are enveloped, and nothing refused writes", async () => {
    const started = Date.now();
    const callers: { name: string; email?: string; client: HttpClient }[] = [
      { name: "anonymous", client: t.client() },
      { name: "agent", email: "agent@dnipro.test", client: await signedIn("agent@dnipro.test") },
      { name: "admin", email: "admin@skyward.test", client: await signedIn("admin@skyward.test") },
    ];
    const failures: string[] = [];
    let sent = 0;
    let refused = 0;
    let state = await settled();
    for (const [c, caller] of callers.entries()) {
      for (const [r, route] of routes.entries()) {
        const key = routeKey(route);
        const e = routeExpectations[key];
        const params = e?.params?.(tenant) ?? {};
        const query = e?.query?.(tenant) ?? {};
        const random = prng(1_000 * c + r + 1);
        const base = withQuery(
          route.path.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(params[p] ?? "x")),
          query,
        );
        const body = plausibleBodies[key]?.(ids) ?? { note: "a body the route does not read" };
        const cases = [
          ...pathCases(route, params, query),
          ...headerCases(base, random),
          ...queryCases(
            route.path.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(params[p] ?? "x")),
            query,
            random,
          ),
          ...bodyCases(key, body, key in plausibleBodies, random).map((bc) => ({
            ...bc,
            path: base,
            expect: probes.has(key) ? undefined : bc.expect,
          })),
        ];
        for (const hostile of cases) {
          const where = `${key} as ${caller.name}, ${hostile.label}`;
          const res = await caller.client.request(route.method, hostile.path, hostile.options);
          sent++;
          if (res.status >= 500) failures.push(`${where}: ${describeAnswer(res)}`);
          if (hostile.expect !== undefined && res.status !== hostile.expect)
            failures.push(`${where}: expected ${hostile.expect}, got ${describeAnswer(res)}`);
          if (res.status >= 400) {
            const envelope = ErrorEnvelope.safeParse(res.body);
            if (!envelope.success || envelope.data.errors[0]?.status !== String(res.status))
              failures.push(`${where}: not in the error envelope: ${describeAnswer(res)}`);
          }
          const refusal =
            inputRefusals.has(res.status) ||
            (res.status >= 400 && res.status < 500 && !recordsAttempts.has(key));
          if (refusal) {
            refused++;
            // A transaction that wrote nothing here (the id moved, the rows did not) is not a write of this request.
            const rows = (snap: string) => snap.replace(/^\S+ /, "");
            let after = await snapshot(state);
            if (rows(after) !== rows(state)) {
              // Work an earlier accepted request left running (mail, jobs) lands once; this request's write repeats.
              state = await settled();
              const again = await caller.client.request(route.method, hostile.path, hostile.options);
              after = await snapshot(state);
              if (rows(after) !== rows(state))
                failures.push(`${where}: answered ${again.status} but wrote: ${state} → ${after}`);
            }
            state = after;
          } else {
            state = await settled();
          }
          // A hostile request the app accepted may have ended the session: the caller signs in again.
          if (
            e?.endsSession &&
            caller.email &&
            (await caller.client.get("/account/details")).status === 401
          ) {
            await caller.client.signInWithPassword(caller.email, DEMO_PASSWORD);
            state = await settled();
          }
        }
      }
    }
    console.info(
      `fuzz: ${routes.length} routes × ${callers.length} callers, ${sent} requests, ${refused} refused, ${failures.length} failures, ${Date.now() - started} ms`,
    );
    expect(failures).toEqual([]);
  }, 360_000);
});
