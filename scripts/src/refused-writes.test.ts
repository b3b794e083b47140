// Writes that must be refused (issue 21, items 9 and 11), over real HTTP on a real PostgreSQL: a change that
// changes nothing, and an API token that would replace or withdraw itself.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { contacts, holdBooking } from "./testing/bookings.ts";
import { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 240_000);
afterAll(() => t.stop());

const codeOf = (res: { status: number; body: { errors?: { code: string }[] } }) =>
  `${res.status} ${res.body.errors?.[0]?.code}`;

describe("POST /bookings/modify", () => {
  it("when a change carries nothing, or the booking's own contacts, then 422 nothing_to_change and no event; a real change is recorded", async () => {
    const agent = t.client();
    await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
    const locator = await holdBooking(agent);
    const stream = `booking-${locator}`;
    const before = (await t.events(stream)).length;

    const empty = await agent.post("/bookings/modify", { locator });
    expect(codeOf(empty)).toBe("422 nothing_to_change");
    expect(codeOf(await agent.post("/bookings/modify", { locator, contacts: {}, passengers: [] }))).toBe(
      "422 nothing_to_change",
    );
    expect(codeOf(await agent.post("/bookings/modify", { locator, contacts }))).toBe("422 nothing_to_change");
    expect(await t.events(stream)).toHaveLength(before);

    const changed = await agent.post("/bookings/modify", { locator, contacts: { phone: "+380501112299" } });
    expect(changed.status).toBe(200);
    expect((await t.events(stream)).at(-1)).toMatchObject({
      type: "BookingModified",
      data: { contacts: { phone: "+380501112299" } },
    });
  });
});

describe("the API token", () => {
  it("when the token itself asks to be replaced or revoked, then 403 session_required and it keeps working; the signed-in owner sees its last use and revokes it, and it answers 401 from then on", async () => {
    const owner = t.client();
    await owner.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const none = await owner.get("/account/api_token");
    expect(none.body).toEqual({ data: { active: false, created_at: null, last_used_at: null } });

    const issued = await owner.put("/account/api_token");
    expect(issued.status).toBe(200);
    const token = issued.body.data.token as string;
    const bearer = HttpClient.withBearer(t.app.url, token);
    expect((await owner.get("/account/api_token")).body.data).toMatchObject({
      active: true,
      last_used_at: null,
    });

    // A thief holding the token can neither lock the owner out by rotating it nor withdraw it.
    expect(codeOf(await bearer.put("/account/api_token"))).toBe("403 session_required");
    expect(codeOf(await bearer.delete("/account/api_token"))).toBe("403 session_required");
    const used = await bearer.get("/account/details");
    expect(used.status).toBe(200);

    const status = await owner.get("/account/api_token");
    expect(status.body.data.active).toBe(true);
    const lastUse = Date.parse(status.body.data.last_used_at);
    expect(Math.abs(Date.now() - lastUse)).toBeLessThan(60_000);

    const revoked = await owner.delete("/account/api_token");
    expect(revoked.status).toBe(200);
    expect(codeOf(await bearer.get("/account/details"))).toBe("401 invalid_token");
    expect((await owner.get("/account/api_token")).body.data).toEqual({
      active: false,
      created_at: null,
      last_used_at: null,
    });
    expect(codeOf(await owner.delete("/account/api_token"))).toBe("404 api_token_not_found");
    const events = await t.events(`user-${demoId("user", "vistula-agent")}`);
    expect(events.slice(-2).map((e) => e.type)).toEqual(["ApiTokenIssued", "ApiTokenRevoked"]);
    const details = await owner.get("/account/details", {
      headers: { "x-min-position": revoked.body.position },
    });
    expect(details.body.settings.api_token).toBe(false);
  });
});
