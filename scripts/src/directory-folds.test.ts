// Issue 26: the directory streams every search and booking command folds (company, agency, channel, gates) are
// folded once per read of each stream, not again for every request while the directory cache holds them.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { directoryFolds } from "@skyward/command-service/offers/selling-context";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { search } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
let agent: HttpClient;
let admin: HttpClient;
beforeAll(async () => {
  t = await startTestApp();
  agent = t.client();
  await agent.signIn("agent@dnipro.test");
  admin = t.client();
  await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
}, 240_000);
afterAll(() => t.stop());

describe("directory folds", () => {
  it("when nothing in the directory changed, then further searches fold none of its streams again", async () => {
    await search(agent);
    const before = directoryFolds();
    await search(agent);
    await search(agent);
    expect(directoryFolds()).toBe(before);
  });

  it("when a gate closes, then the next search folds the gates again and is refused", async () => {
    await search(agent);
    const before = directoryFolds();
    expect((await admin.patch("/ticketing/main_gate", { active: false })).status).toBe(200);
    const refused = await agent.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
      passengers: { adults: 1, children: 0, infants: 0 },
    });
    expect([refused.status, refused.body.errors?.[0]?.code]).toEqual([422, "gate_main_off"]);
    expect(directoryFolds()).toBeGreaterThan(before);
    expect((await admin.patch("/ticketing/main_gate", { active: true })).status).toBe(200);
    await search(agent);
  });
});
