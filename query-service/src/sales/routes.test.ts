import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AnalyticsResponse, SalesListResponse } from "@skyward/contracts/sales";
import { contacts, passenger, search } from "@skyward/scripts/testing/bookings";
import { clearOfUtcMidnight } from "@skyward/scripts/testing/clock";
import type { HttpClient, Json } from "@skyward/scripts/testing/http-client";
import { demo, type Roles, signInRoles } from "@skyward/scripts/testing/roles";
import { startTestApp, type TestApp } from "@skyward/scripts/testing/test-app";

/** The UTC day the lines are sold on (the test keeps clear of midnight, so it stays the day it reads). */
let today: string;

/** Books and issues (one sales line per passenger); returns the locator and the position to read after. */
async function sell(client: HttpClient, lastNames: string[]) {
  const result = await search(client, lastNames.length);
  const fare = result.origin_destinations[0].fares.find((f: Json) => !f.instant_payment);
  const booked = await client.post("/bookings", {
    search_result_id: result.id,
    fare_id: fare.fare_id,
    passengers: lastNames.map((last, i) => passenger(`Ivan${"ABCDEFGHI"[i]}`, last)),
    contacts,
  });
  if (booked.status !== 201) throw new Error(`book: ${booked.status} ${JSON.stringify(booked.body)}`);
  const issued = await client.post("/bookings/issue", { locator: booked.body.locator });
  if (issued.status !== 201) throw new Error(`issue: ${issued.status} ${JSON.stringify(issued.body)}`);
  return { locator: booked.body.locator as string, position: String(issued.body.position) };
}

/** GET /sales, /sales/:id and /analytics as each role (query-service/src/sales). */
describe("the sales reads", () => {
  let t: TestApp;
  let r: Roles;
  const sold: Record<"kyiv" | "lviv" | "vistula", string> = { kyiv: "", lviv: "", vistula: "" };
  let wait: { headers: Record<string, string> };
  beforeAll(async () => {
    await clearOfUtcMidnight(120_000);
    today = new Date().toISOString().slice(0, 10);
    t = await startTestApp();
    r = await signInRoles(t);
    sold.kyiv = (await sell(r.agent, ["Melnyk", "Shevchenko"])).locator;
    sold.lviv = (await sell(r.lvivAgent, ["Bondarenko"])).locator;
    const last = await sell(r.otherAgent, ["Kowalski"]);
    sold.vistula = last.locator;
    wait = { headers: { "x-min-position": last.position } };
  });
  afterAll(() => t.stop());

  const sales = async (client: HttpClient, query: Record<string, string | number | undefined> = {}) => {
    const res = await client.get("/sales", { query, ...wait });
    expect(res.status).toBe(200);
    expect(SalesListResponse.safeParse(res.body).error).toBeUndefined();
    return res.body as SalesListResponse;
  };
  const locators = (page: SalesListResponse) => [...new Set(page.data.map((l) => l.locator))].sort();

  it("shows each role the lines it may see, with totals per currency", async () => {
    const expected: [keyof Roles, string[]][] = [
      ["agent", [sold.kyiv]],
      ["lvivAgent", [sold.lviv]],
      ["supervisor", [sold.kyiv, sold.lviv]],
      ["otherSupervisor", [sold.vistula]],
      ["otherAgent", [sold.vistula]],
      ["admin", [sold.kyiv, sold.lviv, sold.vistula]],
      ["auditor", [sold.kyiv, sold.lviv, sold.vistula]],
      ["demoUser", []],
    ];
    for (const [role, mine] of expected)
      expect({ role, locators: locators(await sales(r[role])) }).toEqual({
        role,
        locators: [...mine].sort(),
      });
    const admin = await sales(r.admin);
    expect(admin.meta.total).toBe(4);
    expect(admin.meta.totals.map((x) => [x.currency, x.lines])).toEqual([
      ["PLN", 1],
      ["UAH", 3],
    ]);
    const uah = admin.data.filter((l) => l.currency === "UAH").reduce((n, l) => n + l.total, 0);
    expect(admin.meta.totals.find((x) => x.currency === "UAH")?.total).toBe(uah);
    expect((await sales(r.supervisor)).meta.totals.map((x) => x.currency)).toEqual(["UAH"]);
    expect((await sales(r.agent)).data.every((l) => l.company_id === demo.kyiv && l.kind === "ticket")).toBe(
      true,
    );
    expect((await t.client().get("/sales")).status).toBe(401);
  });

  it("pages the lines with the total of all", async () => {
    const all = await sales(r.admin);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const one = await sales(r.admin, { per_page: 1, page });
      expect(one.meta).toMatchObject({ page, per_page: 1, total: 4 });
      expect(one.data).toHaveLength(1);
      seen.push(one.data[0]?.id ?? "");
    }
    expect(seen).toEqual(all.data.map((l) => l.id));
    expect((await sales(r.admin, { per_page: 1, page: 5 })).data).toEqual([]);
  });

  it("filters by text and days, within the caller's scope; nothing matching is an empty page with no totals", async () => {
    const byLocator = await sales(r.admin, { "ticket[text]": sold.lviv });
    expect(locators(byLocator)).toEqual([sold.lviv]);
    expect(byLocator.meta).toMatchObject({ total: 1, totals: [{ currency: "UAH", lines: 1 }] });
    const byName = await sales(r.supervisor, { "ticket[text]": "shevchenko" });
    expect(byName.data.map((l) => l.passenger_name)).toEqual([expect.stringMatching(/shevchenko/i)]);
    expect((await sales(r.supervisor, { "ticket[text]": sold.vistula })).data).toEqual([]);
    expect((await sales(r.agent, { "ticket[date_from]": today, "ticket[date_to]": today })).meta.total).toBe(
      2,
    );
    for (const query of [{ "ticket[date_to]": "2020-01-01" }, { "ticket[text]": "NOBODY" }]) {
      const empty = await sales(r.admin, query);
      expect(empty.data).toEqual([]);
      expect(empty.meta).toMatchObject({ total: 0, totals: [] });
    }
    expect((await r.admin.get("/sales", { query: { "ticket[date_from]": "2026-02-30" } })).status).toBe(422);
  });

  it("answers a line's receipt data to who may see it, and 404 to the others", async () => {
    const line = (await sales(r.agent)).data[0];
    const receipt = await r.supervisor.get(`/sales/${line?.id}`, { query: { format: "data" }, ...wait });
    expect(receipt.status).toBe(200);
    expect(receipt.body.data).toMatchObject({
      kind: "ticket",
      locator: sold.kyiv,
      ticket_number: line?.document_number,
      agency: { company: "Dnipro Travel Kyiv", agent: "Taras Shevchuk", email: "agent@dnipro.test" },
      price: { total: { amount: line?.total, currency: "UAH" }, custom: false },
    });
    expect(receipt.body.data.flights.length).toBeGreaterThan(0);
    for (const client of [r.otherSupervisor, r.otherAgent, r.lvivAgent, r.demoUser])
      expect((await client.get(`/sales/${line?.id}`, { query: { format: "data" } })).status).toBe(404);
  });

  it("answers analytics from the caller's scope, and empty lists for a period without sales", async () => {
    const analytics = async (client: HttpClient, from: string, to: string) => {
      const res = await client.get("/analytics", {
        query: { "analytics[date_from]": from, "analytics[date_to]": to },
        ...wait,
      });
      expect(res.status).toBe(200);
      expect(AnalyticsResponse.safeParse(res.body).error).toBeUndefined();
      return res.body.data as AnalyticsResponse["data"];
    };
    const agent = await analytics(r.agent, today, today);
    expect(agent.current).toMatchObject([{ currency: "UAH", tickets_issued: 2 }]);
    const admin = await analytics(r.admin, today, today);
    expect(admin.current.map((f) => [f.currency, f.tickets_issued])).toEqual([
      ["PLN", 1],
      ["UAH", 3],
    ]);
    expect(admin.top_agents.map((a) => a.name).sort()).toEqual([
      "Iryna Bondar",
      "Piotr Zielinski",
      "Taras Shevchuk",
    ]);
    const other = await analytics(r.otherSupervisor, today, today);
    expect(other.current.map((f) => f.currency)).toEqual(["PLN"]);
    expect(other.top_companies.map((c) => c.key)).toEqual([demo.waw]);
    const empty = await analytics(r.admin, "2020-01-01", "2020-01-31");
    expect(empty).toMatchObject({ current: [], previous: [], by_day: [], top_routes: [], top_agents: [] });
  });
});
