import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ChannelHistoryRow } from "@skyward/contracts/ticketing-commands";
import type { HttpClient, HttpResponse, Json } from "@skyward/scripts/testing/http-client";
import { after, demo, type Roles, signInRoles } from "@skyward/scripts/testing/roles";
import { startTestApp, type TestApp } from "@skyward/scripts/testing/test-app";

/** Gates, channels, cards and the channel-change audit as each role (query-service/src/ticketing/routes.ts). */
describe("the ticketing reads", () => {
  let t: TestApp;
  let r: Roles;
  let last: HttpResponse;
  let wait: { headers: Record<string, string> };
  beforeAll(async () => {
    t = await startTestApp();
    r = await signInRoles(t);
    const ok = async (res: Promise<HttpResponse>) => {
      last = await res;
      if (last.status >= 300) throw new Error(`${last.status} ${JSON.stringify(last.body)}`);
      return last;
    };
    // Two changes of each agency's channel by its supervisor, a card, and a company gate closed and opened.
    for (const [client, channel] of [
      [r.supervisor, demo.dniproChannel],
      [r.otherSupervisor, demo.vistulaChannel],
    ] as const) {
      await ok(client.patch(`/ticketing/agency_channels/${channel}`, { on_by_supervisor: false }));
      await ok(client.patch(`/ticketing/agency_channels/${channel}`, { on_by_supervisor: true }));
    }
    await ok(
      r.supervisor.post("/credit_cards", {
        credit_card: { number: "4242 4242 4242 4242", exp_month: 9, exp_year: 31, holder: "IVAN PETRENKO" },
      }),
    );
    await ok(r.admin.patch(`/ticketing/company_gates/${demo.kyiv}`, { active: false }));
    await ok(r.admin.patch(`/ticketing/company_gates/${demo.kyiv}`, { active: true }));
    wait = after(last);
  });
  afterAll(() => t.stop());

  const ids = async (client: HttpClient, path: string, query: Record<string, string> = {}) => {
    const res = await client.get(path, { query, ...wait });
    expect(res.status).toBe(200);
    return (res.body.data as Json[]).map((row) => row.id).sort();
  };

  it("shows the gates to administrators and auditors only", async () => {
    for (const client of [r.admin, r.auditor]) {
      const res = await client.get("/ticketing/gates", wait);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ main_gate: true, agency_gate: true, channel_gate: true });
      expect(res.body.data.agencies.map((a: Json) => a.id).sort()).toEqual(
        [demo.dnipro, demo.vistula].sort(),
      );
      expect(res.body.data.companies.find((c: Json) => c.id === demo.kyiv)).toMatchObject({
        agency_id: demo.dnipro,
        active: true,
      });
    }
    for (const client of [r.supervisor, r.agent, r.demoUser])
      expect((await client.get("/ticketing/gates")).status).toBe(403);
  });

  it("lists channels and cards: all for administrators and auditors, the partner's own for a supervisor", async () => {
    for (const client of [r.admin, r.auditor])
      expect(await ids(client, "/ticketing/agency_channels")).toEqual(
        [demo.dniproChannel, demo.vistulaChannel].sort(),
      );
    expect(await ids(r.supervisor, "/ticketing/agency_channels")).toEqual([demo.dniproChannel]);
    expect(await ids(r.otherSupervisor, "/ticketing/agency_channels")).toEqual([demo.vistulaChannel]);
    // The agency filter: one partner's for an administrator, and nothing of another's for a supervisor.
    expect(await ids(r.admin, "/ticketing/agency_channels", { agency_id: demo.vistula })).toEqual([
      demo.vistulaChannel,
    ]);
    expect(await ids(r.supervisor, "/ticketing/agency_channels", { agency_id: demo.vistula })).toEqual([]);
    const channel = await r.supervisor.get(`/ticketing/agency_channels/${demo.dniproChannel}`, wait);
    expect(channel.status).toBe(200);
    expect(channel.body.data).toMatchObject({
      id: demo.dniproChannel,
      agency_id: demo.dnipro,
      active: true,
      active_by_supervisor: true,
      active_by_main_gate: true,
    });
    expect(channel.body.data.companies.map((c: Json) => c.company_id).sort()).toEqual(
      [demo.kyiv, demo.lviv].sort(),
    );
    expect((await r.otherSupervisor.get(`/ticketing/agency_channels/${demo.dniproChannel}`)).status).toBe(
      404,
    );
    expect((await r.admin.get("/ticketing/agency_channels/no-such-channel")).status).toBe(404);

    const cards = await r.supervisor.get("/credit_cards", wait);
    expect(cards.body.data).toHaveLength(1);
    expect(cards.body.data[0]).toMatchObject({ agency_id: demo.dnipro, last4: "4242", exp_month: 9 });
    expect(cards.body.data[0]).not.toHaveProperty("number");
    expect((await r.otherSupervisor.get("/credit_cards", wait)).body.data).toEqual([]);
    expect((await r.auditor.get("/credit_cards", wait)).body.data).toHaveLength(1);
    for (const client of [r.agent, r.otherAgent, r.demoUser]) {
      expect((await client.get("/ticketing/agency_channels")).status).toBe(403);
      expect((await client.get("/credit_cards")).status).toBe(403);
      expect((await client.get("/ticketing/channel_history")).status).toBe(403);
    }
  });

  it("shows the channel history scoped to the supervisor's partner, each line linked", async () => {
    const history = async (client: HttpClient, query: Record<string, string | number | undefined> = {}) => {
      const res = await client.get("/ticketing/channel_history", { query, ...wait });
      expect(res.status).toBe(200);
      for (const line of res.body.data) expect(ChannelHistoryRow.safeParse(line).error).toBeUndefined();
      return res.body as {
        data: ChannelHistoryRow[];
        meta: { page: number; per_page: number; total: number };
      };
    };
    const dnipro = await history(r.supervisor, { channel_id: demo.dniproChannel });
    expect(dnipro.data.slice(0, 2).map((l) => [l.field, l.before, l.after])).toEqual([
      ["active_by_supervisor", false, true],
      ["active_by_supervisor", true, false],
    ]);
    expect(dnipro.data[0]).toMatchObject({
      agency_id: demo.dnipro,
      source: "web",
      actor: { user_id: demo.user("dnipro-supervisor"), role: "Supervisor", name: "Olena Kovalenko" },
    });
    const all = await history(r.admin);
    expect((await history(r.auditor)).meta.total).toBe(all.meta.total);
    const own = await history(r.supervisor);
    expect(own.data.every((l) => l.agency_id === demo.dnipro)).toBe(true);
    expect(own.meta.total).toBeLessThan(all.meta.total);
    expect((await history(r.otherSupervisor, { channel_id: demo.dniproChannel })).data).toEqual([]);
    const gates = await history(r.admin, { company_id: demo.kyiv, gate: "company" });
    expect(gates.data.map((l) => [l.before, l.after])).toEqual([
      [false, true],
      [true, false],
    ]);

    const linked = await r.supervisor.get(dnipro.data[0]?.link ?? "", wait);
    expect(linked.status).toBe(200);
    expect(linked.body.data).toMatchObject({
      ...dnipro.data[0],
      event: { type: "ChannelToggledBySupervisor" },
    });
    expect((await r.otherSupervisor.get(dnipro.data[0]?.link ?? "")).status).toBe(404);
  });

  it("pages the channel history with its total, and answers an empty page when nothing matches", async () => {
    const all = await (async () => (await r.admin.get("/ticketing/channel_history", wait)).body)();
    expect(all.meta.total).toBeGreaterThanOrEqual(6);
    const lines: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const one = await r.admin.get("/ticketing/channel_history", { query: { per_page: 2, page }, ...wait });
      expect(one.body.meta).toEqual({ page, per_page: 2, total: all.meta.total });
      lines.push(...one.body.data.map((l: Json) => l.event_id));
    }
    expect(lines).toEqual(all.data.slice(0, 6).map((l: Json) => l.event_id));
    for (const query of [{ date_to: "2020-01-01" }, { actor_id: "nobody" }, { source: "extension" }]) {
      const empty = await r.admin.get("/ticketing/channel_history", { query, ...wait });
      expect(empty.body).toEqual({ data: [], meta: { page: 1, per_page: 50, total: 0 } });
    }
    expect((await r.admin.get("/ticketing/channel_history", { query: { per_page: 0 } })).status).toBe(422);
  });
});
