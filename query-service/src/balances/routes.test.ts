import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { BalanceHistoryRow, BalanceRow } from "@skyward/contracts/balances";
import type { HttpClient, Json } from "@skyward/scripts/testing/http-client";
import { demo, type Roles, signInRoles } from "@skyward/scripts/testing/roles";
import { startTestApp, type TestApp } from "@skyward/scripts/testing/test-app";

/** GET /balances, /balance_history and /balance_history/:eventId as each role (query-service/src/balances). */
describe("the balance reads", () => {
  let t: TestApp;
  let r: Roles;
  beforeAll(async () => {
    t = await startTestApp();
    r = await signInRoles(t);
  });
  afterAll(() => t.stop());

  const companiesOf = async (client: HttpClient) => {
    const res = await client.get("/balances");
    expect(res.status).toBe(200);
    for (const row of res.body.data) expect(BalanceRow.safeParse(row).error).toBeUndefined();
    return (res.body.data as Json[]).map((b) => b.company_id).sort();
  };
  const history = async (client: HttpClient, query: Record<string, string | number | undefined> = {}) => {
    const res = await client.get("/balance_history", { query });
    expect(res.status).toBe(200);
    for (const row of res.body.data) expect(BalanceHistoryRow.safeParse(row).error).toBeUndefined();
    return res.body as { data: BalanceHistoryRow[]; meta: { page: number; per_page: number; total: number } };
  };

  it("shows each role the balances of the companies it may see, as money", async () => {
    expect(await companiesOf(r.agent)).toEqual([demo.kyiv]);
    expect(await companiesOf(r.lvivAgent)).toEqual([demo.lviv]);
    expect(await companiesOf(r.supervisor)).toEqual([demo.kyiv, demo.lviv].sort());
    expect(await companiesOf(r.otherSupervisor)).toEqual([demo.waw]);
    expect(await companiesOf(r.otherAgent)).toEqual([demo.waw]);
    for (const client of [r.admin, r.auditor])
      expect(await companiesOf(client)).toEqual([demo.kyiv, demo.lviv, demo.waw].sort());
    // A demo user moves no money: no balance is its business (an empty list).
    expect(await companiesOf(r.demoUser)).toEqual([]);
    const kyiv = (await r.agent.get("/balances")).body.data[0];
    expect(kyiv).toEqual({
      company_id: demo.kyiv,
      company_name: "Dnipro Travel Kyiv",
      balance_amount: { amount: 50_000_00, currency: "UAH" },
      credit_limit: { amount: 0, currency: "UAH" },
    });
  });

  it("shows the history to administrators, auditors and a supervisor (their partner's companies), never to agents", async () => {
    const everyCompany = (await history(r.admin)).data.map((l) => l.company_id);
    expect(new Set(everyCompany)).toEqual(new Set([demo.kyiv, demo.lviv, demo.waw]));
    expect((await history(r.auditor)).meta.total).toBe((await history(r.admin)).meta.total);
    const dnipro = await history(r.supervisor);
    expect(new Set(dnipro.data.map((l) => l.company_id))).toEqual(new Set([demo.kyiv, demo.lviv]));
    const vistula = await history(r.otherSupervisor);
    expect(vistula.data.map((l) => l.company_id)).toEqual([demo.waw]);
    // Another partner's company named in the filter finds nothing, rather than its lines.
    expect((await history(r.otherSupervisor, { company_id: demo.kyiv })).data).toEqual([]);
    for (const client of [r.agent, r.otherAgent, r.demoUser]) {
      const refused = await client.get("/balance_history");
      expect(refused.status).toBe(403);
    }
    const top = (await history(r.supervisor, { company_id: demo.kyiv })).data[0];
    expect(top).toMatchObject({
      company_id: demo.kyiv,
      company_name: "Dnipro Travel Kyiv",
      kind: "top_up",
      amount: { amount: 50_000_00, currency: "UAH" },
      balance_after: { amount: 50_000_00, currency: "UAH" },
    });
    // Each line links to itself; another partner's supervisor gets 404 there.
    const line = await r.supervisor.get(top?.link ?? "");
    expect(line.status).toBe(200);
    expect(line.body.data).toEqual(top);
    expect((await r.otherSupervisor.get(top?.link ?? "")).status).toBe(404);
    expect((await r.admin.get("/balance_history/not-an-event")).status).toBe(404);
  });

  it("pages the history: per_page lines of page, with the total of all", async () => {
    const all = await history(r.admin);
    expect(all.meta.total).toBeGreaterThanOrEqual(3);
    const pages = [];
    for (let page = 1; page <= all.meta.total; page++) {
      const one = await history(r.admin, { per_page: 1, page });
      expect(one.meta).toEqual({ page, per_page: 1, total: all.meta.total });
      expect(one.data).toHaveLength(1);
      pages.push(one.data[0]?.event_id);
    }
    expect(pages).toEqual(all.data.map((l) => l.event_id));
    expect((await history(r.admin, { per_page: 1, page: all.meta.total + 1 })).data).toEqual([]);
  });

  it("filters by company, kind and days, and answers an empty page when nothing matches", async () => {
    expect((await history(r.admin, { company_id: demo.waw })).data.map((l) => l.company_id)).toEqual([
      demo.waw,
    ]);
    const topUps = await history(r.admin, { kind: "top_up" });
    expect(topUps.data.every((l) => l.kind === "top_up")).toBe(true);
    expect(topUps.meta.total).toBeGreaterThanOrEqual(3);
    const today = new Date().toISOString().slice(0, 10);
    expect((await history(r.admin, { date_from: today, date_to: today })).meta.total).toBe(
      (await history(r.admin)).meta.total,
    );
    for (const query of [{ kind: "refund" }, { date_to: "2020-01-01" }, { company_id: "no-such-company" }]) {
      const empty = await history(r.admin, query);
      expect(empty).toMatchObject({ data: [], meta: { total: 0 } });
    }
    expect((await r.admin.get("/balance_history", { query: { kind: "gift" } })).status).toBe(422);
  });
});
