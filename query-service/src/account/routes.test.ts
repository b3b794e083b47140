import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AccountDetailsResponse } from "@skyward/contracts/account";
import type { Json } from "@skyward/scripts/testing/http-client";
import { demo, type Roles, signInRoles } from "@skyward/scripts/testing/roles";
import { startTestApp, type TestApp } from "@skyward/scripts/testing/test-app";

/** GET /account/details: each caller reads its own account only (query-service/src/account/routes.ts). */
describe("the account read", () => {
  let t: TestApp;
  let r: Roles;
  beforeAll(async () => {
    t = await startTestApp();
    r = await signInRoles(t);
  });
  afterAll(() => t.stop());

  const details = async (client: Roles[keyof Roles]) => {
    const res = await client.get("/account/details");
    expect(res.status).toBe(200);
    expect(AccountDetailsResponse.safeParse(res.body).error).toBeUndefined();
    return res.body as AccountDetailsResponse;
  };

  it("answers each role its own account, companies and partner", async () => {
    const agent = await details(r.agent);
    expect(agent.account).toMatchObject({
      skyward_id: demo.user("dnipro-agent"),
      email: "agent@dnipro.test",
      user_type: "Agent",
      company: { id: demo.kyiv, name: "Dnipro Travel Kyiv" },
      companies: [{ id: demo.kyiv, name: "Dnipro Travel Kyiv" }],
      agencies: [{ id: demo.dnipro, name: "Dnipro Travel" }],
      demo_user: false,
    });
    const supervisor = await details(r.supervisor);
    expect(supervisor.account.companies.map((c) => c.id)).toEqual([demo.kyiv, demo.lviv]);
    const other = await details(r.otherSupervisor);
    expect(other.account).toMatchObject({
      email: "supervisor@vistula.test",
      agencies: [{ id: demo.vistula }],
    });
    expect((await details(r.demoUser)).account).toMatchObject({
      email: "demo@skyward.test",
      demo_user: true,
    });
    // Administrators and auditors work for no partner: empty lists, no company, no channels.
    for (const [client, email] of [
      [r.admin, "admin@skyward.test"],
      [r.auditor, "auditor@skyward.test"],
    ] as const) {
      const body = await details(client);
      expect(body.account).toMatchObject({ email, company: null, companies: [], agencies: [] });
      expect(body.settings.channels).toEqual([]);
    }
    expect((await t.client().get("/account/details")).status).toBe(401);
  });

  it("lists the partner's ticketing channels as the channel read model has them, without its internal columns", async () => {
    const channels = (await details(r.agent)).settings.channels as Json[];
    expect(channels).toHaveLength(1);
    const channel = channels[0];
    expect(channel).toMatchObject({
      id: demo.dniproChannel,
      active_by_admin: true,
      active_by_supervisor: true,
      active: true,
      form_of_payment: expect.any(String),
    });
    for (const hidden of ["agency_id", "created_at", "deleted"]) expect(channel).not.toHaveProperty(hidden);
    const theirs = (await details(r.otherAgent)).settings.channels as Json[];
    expect(theirs.map((c) => c.id)).toEqual([demo.vistulaChannel]);
  });
});
