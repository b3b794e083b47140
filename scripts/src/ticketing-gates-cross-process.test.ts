// A gate or channel switched through one command process's HTTP API applies at once to search and issue in another
// (ChangeNotices drop the other process's cached streams; search and issue are guarded by the gates they decided on).
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { type Skyward, startSkyward } from "./app.ts";
import { holdBooking, inDays } from "./testing/bookings.ts";
import { type ChildCommandProcess, startChildCommandProcess } from "./testing/child-command-process.ts";
import { HttpClient } from "./testing/http-client.ts";

const searchBody = {
  origin: "WAW",
  destination: "KBP",
  departure_date: inDays(25),
  passengers: { adults: 1, children: 0, infants: 0 },
};

describe("ticketing gates across two command processes", () => {
  let db: TestDatabase;
  let first: Skyward;
  let second: ChildCommandProcess;
  const env = { SESSION_SECRET: "a-shared-secret-of-at-least-32-characters!" };
  /** An agent of Vistula on process 1; the administrator and the supervisor on process 2. */
  let agent: HttpClient;
  let admin: HttpClient;
  let supervisor: HttpClient;

  beforeAll(async () => {
    db = await createTestDatabase();
    first = await startSkyward({
      databaseUrl: db.url,
      port: 0,
      logLevel: "silent",
      env,
      roles: ["command", "query", "projectors", "jobs"],
      seedDemo: true,
    });
    second = await startChildCommandProcess(db.url, env);
    agent = new HttpClient(first.url);
    await agent.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    admin = new HttpClient(second.url);
    await admin.signInWithPassword("admin@skyward.test", DEMO_PASSWORD);
    supervisor = new HttpClient(second.url);
    await supervisor.signInWithPassword("supervisor@vistula.test", DEMO_PASSWORD);
  }, 240_000);
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await db?.drop();
  });

  it("when process 2 closes each gate over HTTP, then process 1 refuses the next search and issue naming it, and sells once it reopens", async () => {
    const agency = demoId("agency", "vistula");
    const company = demoId("company", "vistula-waw");
    const gates: [string, string][] = [
      ["/ticketing/main_gate", "gate_main_off"],
      ["/ticketing/agency_gate", "gate_consolidator_off"],
      ["/ticketing/channel_gate", "gate_channel_off"],
      [`/ticketing/agency_gates/${agency}`, "gate_agency_off"],
      [`/ticketing/company_gates/${company}`, "gate_company_off"],
    ];
    const seenAfter: number[] = [];
    for (const [path, code] of gates) {
      // Held first, so process 1 has the gates in memory when process 2 closes one.
      const locator = await holdBooking(agent);
      const closed = await admin.patch(path, { active: false });
      expect(closed.status).toBe(200);
      const started = performance.now();
      const searching = await agent.post("/offers", searchBody);
      seenAfter.push(performance.now() - started);
      expect([searching.status, searching.body.errors?.[0]?.code]).toEqual([422, code]);
      const issuing = await agent.post("/bookings/issue", { locator });
      expect([issuing.status, issuing.body.errors?.[0]?.code]).toEqual([422, code]);

      expect((await admin.patch(path, { active: true })).status).toBe(200);
      expect((await agent.post("/offers", searchBody)).status).toBe(200);
      expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
    }
    seenAfter.sort((a, b) => a - b);
    process.stdout.write(
      `gate closed over HTTP in process 2, search refused by process 1: median ${seenAfter[2]?.toFixed(1)} ms, max ${seenAfter.at(-1)?.toFixed(1)} ms (request included)\n`,
    );
  });

  it("when the supervisor turns the channel off in process 2, then process 1 refuses the agent's issue at once", async () => {
    const channel = demoId("channel", "vistula");
    const locator = await holdBooking(agent);
    const off = await supervisor.patch(`/ticketing/agency_channels/${channel}`, { on_by_supervisor: false });
    expect(off.status).toBe(200);
    const refused = await agent.post("/bookings/issue", { locator });
    expect([refused.status, refused.body.errors?.[0]?.code]).toEqual([422, "channel_off"]);
    expect(
      (await supervisor.patch(`/ticketing/agency_channels/${channel}`, { on_by_supervisor: true })).status,
    ).toBe(200);
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
  });
});
