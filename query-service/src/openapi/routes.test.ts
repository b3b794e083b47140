import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { HttpClient } from "@skyward/scripts/testing/http-client";
import { type Roles, signInRoles } from "@skyward/scripts/testing/roles";
import { startTestApp, type TestApp } from "@skyward/scripts/testing/test-app";

/** GET /openapi.json (query-service/src/openapi/routes.ts): the same public document for everyone. */
describe("the OpenAPI document", () => {
  let t: TestApp;
  let r: Roles;
  beforeAll(async () => {
    t = await startTestApp();
    r = await signInRoles(t);
  });
  afterAll(() => t.stop());

  it("answers the same OpenAPI 3.1 document to anyone, signed in or not, naming the query routes", async () => {
    const read = async (client: HttpClient) => {
      const res = await client.get("/openapi.json");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      return res.body;
    };
    const anonymous = await read(t.client());
    expect(anonymous.openapi).toMatch(/^3\.1/);
    for (const path of [
      "/bookings",
      "/balances",
      "/balance_history",
      "/sales",
      "/account/details",
      "/audit/events",
    ])
      expect(Object.keys(anonymous.paths)).toContain(path);
    // Sockets kept alive since beforeAll may have been closed by the server (its 5 s keep-alive timeout) while the
    // first read built the document: a request on one meets a hang-up and drops it, so these take the hits instead.
    for (let i = 0; i < 4; i++)
      await t
        .client()
        .get("/csrf")
        .catch(() => undefined);
    for (const client of [r.agent, r.otherSupervisor, r.admin, r.auditor, r.demoUser])
      expect(await read(client)).toEqual(anonymous);
    // The document is built once per process: a second read is the same text.
    const again = await t.client().get("/openapi.json");
    expect(again.body).toEqual(anonymous);
  });
});
