// Replay from the audit screen (issue 14) over HTTP: a compare run as a job with its progress, the comparison per
// table, the switch only on agreement and only by administrators; auditors compare but never switch.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { ReplayOverview, ReplayRun } from "@skyward/contracts/replay";
import { holdBooking } from "./testing/bookings.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

let t: TestApp;
let admin: HttpClient;
let auditor: HttpClient;
let agent: HttpClient;

async function signedIn(email: string): Promise<HttpClient> {
  const client = t.client();
  await client.signInWithPassword(email, DEMO_PASSWORD);
  return client;
}

/** Polls the run as the screen does until it is done or failed; every answer a valid run. */
async function finished(client: HttpClient, id: string): Promise<ReplayRun> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const res = await client.get(`/audit/replays/${id}`);
    expect(res.status).toBe(200);
    const run = ReplayRun.parse(res.body.data);
    if (run.status === "done" || run.status === "failed") return run;
    await sleep(100);
  }
  throw new Error(`replay ${id} did not finish`);
}

beforeAll(async () => {
  t = await startTestApp({ scheduleEveryMs: 200 });
  admin = await signedIn("admin@skyward.test");
  auditor = await signedIn("auditor@skyward.test");
  agent = await signedIn("agent@dnipro.test");
  const locator = await holdBooking(agent);
  expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
}, 240_000);
afterAll(() => t.stop());

describe("replays from the audit screen", () => {
  it("when an auditor replays bookings, then the job reports progress and a per-table comparison that agrees; the auditor cannot switch, an administrator can", async () => {
    const overview = ReplayOverview.parse((await auditor.get("/audit/replays")).body.data);
    expect(overview.projections).toEqual(expect.arrayContaining(["bookings", "balances"]));

    const started = await auditor.post("/audit/replays", { projection: "bookings" });
    expect(started.status).toBe(202);
    const compared = await finished(auditor, started.body.data.id);
    expect(compared).toMatchObject({ status: "done", kind: "compare", projection: "bookings" });
    expect(compared.total_events).toBeGreaterThan(0);
    expect(compared.done_events).toBe(compared.total_events);
    expect(compared.report?.agree).toBe(true);
    const bookingsTable = compared.report?.tables.find((table) => table.table === "bookings");
    expect(bookingsTable?.live_rows).toBeGreaterThan(0);
    expect(bookingsTable?.replay_checksum).toBe(bookingsTable?.live_checksum);

    // Auditors change nothing: the switch is not theirs (403, as every route outside a role).
    const refused = await auditor.post(`/audit/replays/${compared.id}/switch`);
    expect([refused.status, refused.body.errors[0].code]).toEqual([403, "auditor_read_only"]);
    const before = await t.db.pool.query<{ generation: number }>(
      "SELECT generation FROM read.projections WHERE name = 'bookings'",
    );
    const switching = await admin.post(`/audit/replays/${compared.id}/switch`);
    expect(switching.status).toBe(202);
    const switched = await finished(admin, switching.body.data.id);
    expect(switched).toMatchObject({ kind: "switch", status: "done", compare_id: compared.id });
    expect(switched.report?.switched_to).toBeGreaterThan(before.rows[0]?.generation ?? 0);
    const after = await t.db.pool.query<{ generation: number }>(
      "SELECT generation FROM read.projections WHERE name = 'bookings'",
    );
    expect(after.rows[0]?.generation).toBe(switched.report?.switched_to);
    // The recent runs list both.
    const recent = ReplayOverview.parse((await admin.get("/audit/replays")).body.data).runs.map((r) => r.id);
    expect(recent).toEqual(expect.arrayContaining([compared.id, switched.id]));
  }, 180_000);

  it("when a live row was changed by hand, then the comparison names its table and the switch is refused", async () => {
    await t.db.pool.query(
      "UPDATE read.bookings SET route = 'XXX-YYY' WHERE locator IN (SELECT locator FROM read.bookings LIMIT 1)",
    );
    const started = await admin.post("/audit/replays", { projection: "bookings" });
    const compared = await finished(admin, started.body.data.id);
    expect(compared.report?.agree).toBe(false);
    expect(compared.report?.tables.find((table) => table.table === "bookings")?.equal).toBe(false);
    const refused = await admin.post(`/audit/replays/${compared.id}/switch`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe("replay_not_agreed");
  }, 180_000);

  it("when the input is wrong or a replay of the projection is running, then 422, 404 or 409 in the envelope; agents see no replays", async () => {
    const unknown = await admin.post("/audit/replays", { projection: "nope" });
    expect([unknown.status, unknown.body.errors[0].source]).toEqual([422, { pointer: "/projection" }]);
    expect((await admin.post("/audit/replays", { projection: "x\u0000" })).status).toBe(400);
    expect((await admin.post("/audit/replays", {})).status).toBe(422);
    expect((await admin.get("/audit/replays/not-a-uuid")).status).toBe(404);
    expect((await admin.post("/audit/replays/not-a-uuid/switch")).status).toBe(404);
    // One replay of a projection at a time: its side-by-side tables have one name.
    await t.db.pool.query(
      `INSERT INTO app.replay_runs (id, projection, kind, status, started_by)
       VALUES ('00000000-0000-4000-8000-000000000001', 'sales', 'compare', 'running', 'test')`,
    );
    const busy = await admin.post("/audit/replays", { projection: "sales" });
    expect([busy.status, busy.body.errors[0].code]).toEqual([409, "replay_running"]);
    for (const call of [
      agent.get("/audit/replays"),
      agent.get("/audit/replays/00000000-0000-4000-8000-000000000001"),
      agent.post("/audit/replays", { projection: "bookings" }),
    ]) {
      const res = await call;
      expect([res.status, res.body.errors[0].code]).toEqual([403, "admin_or_auditor_only"]);
    }
  }, 60_000);
});
