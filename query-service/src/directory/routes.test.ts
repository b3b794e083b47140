import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Company, DirectoryHistoryRow, Partner, PersonRow } from "@skyward/contracts/administration";
import type { HttpClient, Json } from "@skyward/scripts/testing/http-client";
import { demo, type Roles, signInRoles } from "@skyward/scripts/testing/roles";
import { startTestApp, type TestApp } from "@skyward/scripts/testing/test-app";

/** Partners, companies, people, join requests and the directory history as each role (query-service/src/directory). */
describe("the directory reads", () => {
  let t: TestApp;
  let r: Roles;
  beforeAll(async () => {
    t = await startTestApp();
    r = await signInRoles(t);
  });
  afterAll(() => t.stop());

  const ids = async (
    client: HttpClient,
    path: string,
    query: Record<string, string | number | undefined> = {},
  ) => {
    const res = await client.get(path, { query });
    expect(res.status).toBe(200);
    return (res.body.data as Json[]).map((row) => row.id).sort();
  };

  it("lists partners and companies: all for administrators and auditors, its own for a supervisor, none for agents", async () => {
    for (const client of [r.admin, r.auditor]) {
      expect(await ids(client, "/agencies")).toEqual([demo.dnipro, demo.vistula].sort());
      expect(await ids(client, "/companies")).toEqual([demo.kyiv, demo.lviv, demo.waw].sort());
    }
    expect(await ids(r.supervisor, "/agencies")).toEqual([demo.dnipro]);
    expect(await ids(r.supervisor, "/companies")).toEqual([demo.kyiv, demo.lviv].sort());
    expect(await ids(r.otherSupervisor, "/agencies")).toEqual([demo.vistula]);
    expect(await ids(r.otherSupervisor, "/companies")).toEqual([demo.waw]);
    for (const client of [r.agent, r.otherAgent, r.demoUser])
      for (const path of ["/agencies", "/companies", "/directory_history", "/agent_company_relationships"])
        expect((await client.get(path)).status).toBe(403);

    const partner = (await r.supervisor.get(`/agencies/${demo.dnipro}`)).body.partner;
    expect(Partner.safeParse(partner).error).toBeUndefined();
    expect(partner).toMatchObject({
      id: demo.dnipro,
      name: "Dnipro Travel",
      supervisors_count: 1,
      companies_count: 2,
    });
    expect(partner.channels.map((c: Json) => c.id)).toEqual([demo.dniproChannel]);
    const company = (await r.supervisor.get(`/companies/${demo.kyiv}`)).body.company;
    expect(Company.safeParse(company).error).toBeUndefined();
    expect(company).toMatchObject({
      name: "Dnipro Travel Kyiv",
      balance_amount: { amount: 50_000_00, currency: "UAH" },
      credit_limit: { amount: 0, currency: "UAH" },
      shared_bookings: true,
    });
    expect(company.avia_managers.map((p: Json) => p.email).sort()).toEqual([
      "agent@dnipro.test",
      "demo@skyward.test",
    ]);
    // Another partner's, as one that does not exist: 404.
    expect((await r.otherSupervisor.get(`/agencies/${demo.dnipro}`)).status).toBe(404);
    expect((await r.otherSupervisor.get(`/companies/${demo.kyiv}`)).status).toBe(404);
    expect((await r.otherSupervisor.get(`/agencies/${demo.dnipro}/supervisors`)).status).toBe(404);
    expect((await r.auditor.get(`/companies/${demo.kyiv}`)).status).toBe(200);
    expect((await r.admin.get("/agencies/no-such-agency")).status).toBe(404);
  });

  it("lists a partner's supervisors and the agents of companies, scoped and filtered", async () => {
    const supervisors = await r.admin.get(`/agencies/${demo.vistula}/supervisors`);
    expect(supervisors.status).toBe(200);
    expect(supervisors.body.data).toHaveLength(1);
    expect(PersonRow.safeParse(supervisors.body.data[0]).error).toBeUndefined();
    expect(supervisors.body.data[0]).toMatchObject({
      email: "supervisor@vistula.test",
      user_type: "Supervisor",
    });

    const emails = async (client: HttpClient, query: Record<string, string> = {}) => {
      const res = await client.get("/agent_company_relationships", { query });
      expect(res.status).toBe(200);
      return (res.body.data as Json[])
        .map(
          (l) =>
            `${l.email} ${l.company_id === demo.kyiv ? "kyiv" : l.company_id === demo.lviv ? "lviv" : "waw"}`,
        )
        .sort();
    };
    expect(await emails(r.supervisor)).toEqual([
      "agent.lviv@dnipro.test lviv",
      "agent@dnipro.test kyiv",
      "demo@skyward.test kyiv",
    ]);
    expect(await emails(r.supervisor, { company_id: demo.lviv })).toEqual(["agent.lviv@dnipro.test lviv"]);
    expect(await emails(r.otherSupervisor)).toEqual(["agent@vistula.test waw"]);
    expect(await emails(r.otherSupervisor, { company_id: demo.kyiv })).toEqual([]);
    expect((await emails(r.auditor)).length).toBe(4);
  });

  it("shows join requests to their agent, their partner's supervisor and administrators; none yet is an empty list", async () => {
    for (const client of [r.agent, r.supervisor, r.admin]) {
      const res = await client.get("/join_agency_requests");
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
    expect((await r.admin.get("/join_agency_requests", { query: { status: "nope" } })).status).toBe(422);
  });

  it("pages and filters the partner and company history, scoped to the supervisor's partner", async () => {
    const history = async (client: HttpClient, query: Record<string, string | number | undefined> = {}) => {
      const res = await client.get("/directory_history", { query });
      expect(res.status).toBe(200);
      for (const line of res.body.data) expect(DirectoryHistoryRow.safeParse(line).error).toBeUndefined();
      return res.body as {
        data: DirectoryHistoryRow[];
        meta: { page: number; per_page: number; total: number };
      };
    };
    const all = await history(r.admin);
    expect(all.meta.total).toBeGreaterThan(0);
    expect((await history(r.auditor)).meta.total).toBe(all.meta.total);
    const dnipro = await history(r.supervisor);
    expect(dnipro.meta.total).toBeGreaterThan(0);
    expect(dnipro.meta.total).toBeLessThan(all.meta.total);
    expect(dnipro.data.every((l) => l.agency_id === demo.dnipro)).toBe(true);
    // Another partner's lines are not found through a filter either.
    expect((await history(r.otherSupervisor, { agency_id: demo.dnipro })).meta.total).toBe(0);

    const first = await history(r.admin, { per_page: 2, page: 1 });
    const second = await history(r.admin, { per_page: 2, page: 2 });
    expect(first.meta).toEqual({ page: 1, per_page: 2, total: all.meta.total });
    expect([...first.data, ...second.data].map((l) => l.event_id)).toEqual(
      all.data.slice(0, 4).map((l) => l.event_id),
    );

    const kyiv = await history(r.admin, { company_id: demo.kyiv });
    expect(kyiv.meta.total).toBeGreaterThan(0);
    expect(kyiv.data.every((l) => l.company_id === demo.kyiv)).toBe(true);
    expect((await history(r.admin, { date_to: "2020-01-01" })).data).toEqual([]);
    expect((await history(r.admin, { agency_id: "no-such-agency" })).meta.total).toBe(0);

    const line = all.data[0];
    const linked = await r.admin.get(line?.link ?? "");
    expect(linked.status).toBe(200);
    expect(linked.body.data).toEqual(line);
    const dniproLine = dnipro.data[0];
    expect((await r.otherSupervisor.get(dniproLine?.link ?? "")).status).toBe(404);
    expect((await r.admin.get("/directory_history/not-an-event")).status).toBe(404);
  });
});
