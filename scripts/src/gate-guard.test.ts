// Search and issue decide on the gates this process keeps in memory and are guarded by them: a gate that moved with
// no notice reaching this process (appended straight through es.append, as by a process whose notice is still on its
// way) refuses the very next search and issue, and its reopening sells again at once.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { type Skyward, startSkyward } from "./app.ts";
import { holdBooking, inDays } from "./testing/bookings.ts";
import { HttpClient } from "./testing/http-client.ts";

const searchBody = {
  origin: "WAW",
  destination: "KBP",
  departure_date: inDays(30),
  passengers: { adults: 1, children: 0, infants: 0 },
};

describe("gates guard the writes decided on them", () => {
  let db: TestDatabase;
  let app: Skyward;
  let agent: HttpClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    app = await startSkyward({
      databaseUrl: db.url,
      port: 0,
      logLevel: "silent",
      roles: ["command", "query", "projectors", "jobs"],
      seedDemo: true,
    });
    agent = new HttpClient(app.url);
    await agent.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    await db?.drop();
  });

  /** Toggles the main gate as another process would, unheard by this process's listeners and notices. */
  const mainGateElsewhere = (active: boolean) =>
    db.pool.query("SELECT * FROM es.append($1::jsonb)", [
      JSON.stringify([
        {
          stream_id: "ticketing-gates",
          stream_type: "ticketing",
          expected: "any",
          events: [
            {
              event_id: randomUUID(),
              event_type: "GateToggled",
              data: { gate: "main", active },
              metadata: systemMetadata("gate-guard-test"),
            },
          ],
        },
      ]),
    ]);

  it("when the main gate closes unannounced, then the next search and issue refuse naming it, and both sell once it reopens", async () => {
    for (let round = 0; round < 5; round++) {
      // Held and searched first, so this process has the gates in memory.
      const locator = await holdBooking(agent);
      expect((await agent.post("/offers", searchBody)).status).toBe(200);

      await mainGateElsewhere(false);
      const searching = await agent.post("/offers", searchBody);
      expect([searching.status, searching.body.errors?.[0]?.code]).toEqual([422, "gate_main_off"]);
      const issuing = await agent.post("/bookings/issue", { locator });
      expect([issuing.status, issuing.body.errors?.[0]?.code]).toEqual([422, "gate_main_off"]);

      await mainGateElsewhere(true);
      expect((await agent.post("/offers", searchBody)).status).toBe(200);
      expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
    }
  });
});
