// The public API with an API token as bearer (issue 14): a per-token rate limit that holds across processes and
// leaves web sessions alone, idempotency keys, and a token that reaches no more than its user does.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { openApiDocument } from "@skyward/contracts/openapi";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type Skyward, startSkyward } from "./app.ts";
import { issuedFamily } from "./testing/after-sales.ts";
import { inDays } from "./testing/bookings.ts";
import { HttpClient, type Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

// A slow refill (one call per 10 s), so that even a loaded machine makes the calls below within one refill.
const limit = { burst: 6, perSecond: 0.1 };
let t: TestApp;
/** A second app process on the same database, serving reads: the limit must be one across both. */
let second: Skyward;
let dniproLocator: string;

async function session(email: string, url = t.app.url): Promise<HttpClient> {
  const client = new HttpClient(url);
  await client.signInWithPassword(email, DEMO_PASSWORD);
  return client;
}

async function tokenOf(email: string): Promise<string> {
  const res = await (await session(email)).put("/account/api_token");
  expect(res.status).toBe(200);
  return res.body.data.token as string;
}

beforeAll(async () => {
  t = await startTestApp({ apiRateLimit: limit });
  second = await startSkyward({
    databaseUrl: t.db.url,
    port: 0,
    logLevel: "silent",
    seedDemo: false,
    roles: ["query"],
    apiRateLimit: limit,
  });
  dniproLocator = await issuedFamily(await session("agent@dnipro.test"), "standard");
}, 240_000);
afterAll(async () => {
  await second.stop();
  await t.stop();
});

describe("per-token rate limit", () => {
  it("when a token's calls across two processes pass its burst, then it gets 429 with Retry-After in the envelope, as documented; its user's web session, other tokens and the token after the wait are served", async () => {
    const token = await tokenOf("supervisor@dnipro.test");
    const onFirst = HttpClient.withBearer(t.app.url, token);
    const onSecond = HttpClient.withBearer(second.url, token);
    for (const client of [onFirst, onSecond, onFirst, onSecond, onFirst, onSecond])
      expect((await client.get("/bookings")).status).toBe(200);

    const refused = await onSecond.get("/bookings");
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0]).toMatchObject({ status: "429", code: "api_rate_limited" });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect((await onFirst.get("/bookings")).status).toBe(429);
    // The answer is the one the OpenAPI document promises for every secured operation.
    const documented = (openApiDocument() as { paths: Record<string, Record<string, { responses: object }>> })
      .paths["/bookings"]?.get?.responses as Record<string, { content: Record<string, { schema: object }> }>;
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(documented["429"]?.content["application/json"]?.schema ?? false, refused.body)).toBe(
      true,
    );
    // A new token (issued from the user's session: a token cannot replace itself) is the same user's: it does not
    // come with a full bucket.
    const renewed = HttpClient.withBearer(t.app.url, await tokenOf("supervisor@dnipro.test"));
    expect((await renewed.get("/bookings")).status).toBe(429);

    // The user's own web session is not limited by it, nor is another user's token.
    const web = await session("supervisor@dnipro.test");
    for (let i = 0; i < 3 * limit.burst; i++) expect((await web.get("/bookings")).status).toBe(200);
    const other = HttpClient.withBearer(t.app.url, await tokenOf("agent@dnipro.test"));
    expect((await other.get("/bookings")).status).toBe(200);

    await sleep(retryAfter * 1000);
    expect((await renewed.get("/bookings")).status).toBe(200);
  }, 120_000);
});

describe("idempotency keys with a bearer", () => {
  it("when a bearer repeats a booking with the same Idempotency-Key, then the first answer comes back and one booking is held", async () => {
    const api = HttpClient.withBearer(t.app.url, await tokenOf("agent.lviv@dnipro.test"));
    const search = await api.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(25),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO"],
    });
    expect(search.status).toBe(200);
    const fare = search.body.result.origin_destinations[0].fares.find(
      (f: { instant_payment: boolean }) => !f.instant_payment,
    );
    const body = {
      search_result_id: search.body.result.id,
      fare_id: fare.fare_id,
      passengers: [
        {
          type: "adult",
          gender: "F",
          first_name: "Oksana",
          last_name: "Idempotent",
          date_of_birth: "1990-02-03",
          document: {
            type: "passport",
            number: "FI765432",
            issuing_country: "UA",
            nationality: "UA",
            expires_on: "2033-01-01",
          },
        },
      ],
      contacts: { email: "traveller@example.com", phone: "+380501112233" },
    };
    const headers = { "idempotency-key": "api-book-1" };
    const first = await api.post("/bookings", body, { headers });
    expect(first.status).toBe(201);
    const events = await t.countEventsButBackground();
    const repeat = await api.post("/bookings", body, { headers });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(repeat.body.locator).toBe(first.body.locator);
    expect(await t.countEventsButBackground()).toBe(events);
    // The same key for another request is refused, and writes nothing.
    const other = await api.post("/bookings", { ...body, fare_id: `${fare.fare_id}x` }, { headers });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].source).toEqual({ parameter: "Idempotency-Key" });
  });
});

describe("an API token reaches no more than its user", () => {
  it("when another agency's supervisor uses its token on Dnipro's booking, administration and the log, then it gets the 404s and 403s its session gets", async () => {
    const token = await tokenOf("supervisor@vistula.test");
    const api = HttpClient.withBearer(t.app.url, token);
    const web = await session("supervisor@vistula.test");
    // Another tenant's ids are unknown (404); a route outside the role says who may use it (403).
    const probes: [string, string, unknown, string][] = [
      ["GET", `/bookings/${dniproLocator}`, undefined, "404"],
      ["POST", `/orders/${dniproLocator}/refund_requests/create`, {}, "404"],
      ["DELETE", `/bookings/${dniproLocator}`, undefined, "404"],
      ["GET", "/audit/verify", undefined, "403 admin_or_auditor_only"],
      [
        "PATCH",
        `/ticketing/agency_channels/${demoId("channel", "dnipro")}`,
        { on_by_supervisor: false },
        "404",
      ],
    ];
    const answer = (res: { status: number; body: Json }) =>
      res.status === 404 ? "404" : `${res.status} ${res.body?.errors?.[0]?.code}`;
    for (const [method, path, body, expected] of probes) {
      const viaToken = await api.request(method, path, { body });
      const viaSession = await web.request(method, path, { body });
      expect([path, answer(viaToken)]).toEqual([path, expected]);
      expect([path, answer(viaSession)]).toEqual([path, expected]);
    }
    // Its history holds none of Dnipro's booking.
    const history = await HttpClient.withBearer(t.app.url, token).get("/audit/events", {
      query: { locator: dniproLocator },
    });
    expect(history.status).toBe(200);
    expect(history.body.data.events).toEqual([]);
  });
});
