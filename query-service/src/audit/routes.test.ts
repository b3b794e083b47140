import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { HistoryPage, VerifyReport } from "@skyward/contracts/audit";
import { holdOneAdult } from "@skyward/scripts/testing/bookings";
import type { HttpClient, Json } from "@skyward/scripts/testing/http-client";
import { type Roles, signInRoles } from "@skyward/scripts/testing/roles";
import { startTestApp, type TestApp } from "@skyward/scripts/testing/test-app";

/** The event history, its export, verifier, anchors and replays as each role (query-service/src/audit). */
describe("the audit reads", () => {
  let t: TestApp;
  let r: Roles;
  let kyiv: string;
  let vistula: string;
  let wait: { "x-min-position": string };
  beforeAll(async () => {
    t = await startTestApp();
    r = await signInRoles(t);
    kyiv = ((await holdOneAdult(r.agent, "Melnyk")) as Json).locator;
    const last = (await holdOneAdult(r.otherAgent, "Kowalski")) as Json;
    vistula = last.locator;
    // The history waits (bounded) until the chainer has linked the caller's last write.
    wait = { "x-min-position": String(last.position) };
  });
  afterAll(() => t.stop());

  const events = async (client: HttpClient, query: Record<string, string | number | undefined> = {}) => {
    const res = await client.get("/audit/events", { query, headers: wait });
    expect(res.status).toBe(200);
    expect(HistoryPage.safeParse(res.body.data).error).toBeUndefined();
    return res.body.data as HistoryPage;
  };

  it("shows a booking's events to who may see the booking, and nothing of it to the others", async () => {
    const mine = await events(r.agent, { locator: kyiv });
    expect(mine.events.length).toBeGreaterThan(0);
    expect(mine.events.every((e) => e.stream_id.includes(kyiv))).toBe(true);
    expect(mine.events[0]?.type).toBe("BookingHeld");
    for (const client of [r.supervisor, r.admin, r.auditor])
      expect((await events(client, { locator: kyiv })).events.map((e) => e.seq)).toEqual(
        mine.events.map((e) => e.seq),
      );
    for (const client of [r.otherAgent, r.otherSupervisor, r.lvivAgent, r.demoUser])
      expect((await events(client, { locator: kyiv })).events).toEqual([]);
    expect((await events(r.otherSupervisor, { locator: vistula })).events.length).toBeGreaterThan(0);
    expect((await events(r.agent, { locator: vistula })).events).toEqual([]);
    // Unfiltered, an agent's history holds its bookings' events only; the log's readers see every stream.
    const agentAll = await events(r.agent, { limit: 500 });
    expect(agentAll.events.every((e) => e.stream_id.includes(kyiv))).toBe(true);
    const adminAll = await events(r.admin, { limit: 500 });
    expect(adminAll.events.length).toBeGreaterThan(agentAll.events.length);
    expect((await t.client().get("/audit/events")).status).toBe(401);
  });

  it("pages by after_seq, limit at a time, and ends with next_after_seq null; nothing matching is an empty page", async () => {
    const whole = await events(r.auditor, { limit: 500 });
    const seen: number[] = [];
    let after: number | null = null;
    for (let i = 0; i < 3; i++) {
      const page = await events(r.auditor, { limit: 2, ...(after === null ? {} : { after_seq: after }) });
      expect(page.events).toHaveLength(2);
      expect(page.next_after_seq).toBe(page.events[1]?.seq);
      seen.push(...page.events.map((e) => e.seq));
      after = page.next_after_seq;
    }
    expect(seen).toEqual(whole.events.slice(0, 6).map((e) => e.seq));
    const end = await events(r.auditor, { limit: 500, after_seq: whole.events.at(-1)?.seq ?? 0 });
    expect(end).toEqual({ events: [], next_after_seq: null });
    for (const query of [{ locator: "ZZZZZZ" }, { to: "2020-01-01T00:00:00Z" }, { actor_id: "nobody" }])
      expect(await events(r.admin, query)).toEqual({ events: [], next_after_seq: null });
    expect((await r.admin.get("/audit/events", { query: { limit: 0 } })).status).toBe(422);
  });

  it("exports the same selection with the caller's scope", async () => {
    const exported = await r.agent.get("/audit/export", { query: { locator: kyiv }, headers: wait });
    expect(exported.status).toBe(200);
    const lines = exported.body.data as Json[];
    const mine = await events(r.agent, { locator: kyiv });
    expect(lines.length).toBe(mine.events.length + 1);
    const theirs = await r.otherAgent.get("/audit/export", { query: { locator: kyiv }, headers: wait });
    expect(theirs.body.data).toHaveLength(1);
  });

  it("lets only the log's readers verify the log, read its anchors and its replays", async () => {
    for (const client of [r.admin, r.auditor]) {
      const report = await client.get("/audit/verify");
      expect(report.status).toBe(200);
      expect(VerifyReport.parse(report.body.data).ok).toBe(true);
      expect((await client.get("/audit/anchors")).status).toBe(200);
      const replays = await client.get("/audit/replays");
      expect(replays.status).toBe(200);
      expect(replays.body.data.runs).toEqual([]);
      expect(replays.body.data.projections.length).toBeGreaterThan(0);
    }
    expect((await r.admin.get("/audit/replays/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await r.admin.get("/audit/replays/not-a-run")).status).toBe(404);
    for (const client of [r.agent, r.supervisor, r.otherSupervisor, r.demoUser])
      for (const path of ["/audit/verify", "/audit/anchors", "/audit/replays"])
        expect((await client.get(path)).status).toBe(403);
  });
});
