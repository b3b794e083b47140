import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { BookingDetails, BookingListPage } from "@skyward/contracts/bookings";
import { holdOneAdult, topUp } from "@skyward/scripts/testing/bookings";
import { clearOfUtcMidnight } from "@skyward/scripts/testing/clock";
import type { HttpClient, Json } from "@skyward/scripts/testing/http-client";
import { demo, type Roles, signInRoles } from "@skyward/scripts/testing/roles";
import { startTestApp, type TestApp } from "@skyward/scripts/testing/test-app";

/** GET /bookings and GET /bookings/:locator, from outside, as each role (query-service/src/bookings/routes.ts). */
describe("the booking reads", () => {
  let t: TestApp;
  let r: Roles;
  /** Locators by who booked them: two in Kyiv (shared), one in Lviv (not shared), one at Vistula, one demo. */
  const booked: Record<"kyiv1" | "kyiv2" | "lviv" | "vistula" | "demo", string> = {
    kyiv1: "",
    kyiv2: "",
    lviv: "",
    vistula: "",
    demo: "",
  };
  let wait: { "x-min-position": string };

  beforeAll(async () => {
    // The day filter reads the UTC day the bookings were made: made and read the same day.
    await clearOfUtcMidnight(120_000);
    t = await startTestApp();
    r = await signInRoles(t);
    const hold = async (client: HttpClient, lastName: string) =>
      (await holdOneAdult(client, lastName)) as Json;
    const made = [
      await hold(r.agent, "Melnyk"),
      await hold(r.agent, "Shevchenko"),
      await hold(r.lvivAgent, "Bondarenko"),
      await hold(r.otherAgent, "Kowalski"),
      await hold(r.demoUser, "Tkachenko"),
    ];
    [booked.kyiv1, booked.kyiv2, booked.lviv, booked.vistula, booked.demo] = made.map((b) => b.locator);
    wait = { "x-min-position": String(made.at(-1).position) };
  });
  afterAll(() => t.stop());

  const list = async (client: HttpClient, query: Record<string, string | number | undefined> = {}) => {
    const res = await client.get("/bookings", { query, headers: wait });
    expect(res.status).toBe(200);
    expect(BookingListPage.safeParse(res.body).error).toBeUndefined();
    return res.body as BookingListPage;
  };
  const locators = (page: BookingListPage) => page.data.map((b) => b.locator).sort();

  it("shows each role the bookings it may see, and no others", async () => {
    const all = Object.values(booked);
    const expected: [keyof Roles, string[]][] = [
      // Kyiv shares its bookings: its agent sees the colleague's (the demo user's fake one too, as today).
      ["agent", [booked.kyiv1, booked.kyiv2, booked.demo]],
      ["lvivAgent", [booked.lviv]],
      ["supervisor", [booked.kyiv1, booked.kyiv2, booked.lviv, booked.demo]],
      ["otherSupervisor", [booked.vistula]],
      ["otherAgent", [booked.vistula]],
      ["admin", all],
      ["auditor", all],
      ["demoUser", [booked.demo]],
    ];
    for (const [role, mine] of expected) {
      const page = await list(r[role]);
      expect({ role, locators: locators(page) }).toEqual({ role, locators: [...mine].sort() });
      expect(page.meta.total).toBe(mine.length);
    }
  });

  it("answers a booking's page to those who may see it, and 404 to the others (another agency, a colleague's unshared one)", async () => {
    const page = await r.agent.get(`/bookings/${booked.kyiv1}`, { headers: wait });
    expect(page.status).toBe(200);
    expect(BookingDetails.safeParse(page.body.data).error).toBeUndefined();
    expect(page.body.data).toMatchObject({
      locator: booked.kyiv1,
      status: "held",
      company_id: demo.kyiv,
      tickets_present: false,
      issue_paid_by: "balance",
      operation: null,
    });
    expect(typeof page.body.data.cancel_before).toBe("string");
    for (const client of [r.supervisor, r.admin, r.auditor])
      expect((await client.get(`/bookings/${booked.kyiv1}`, { headers: wait })).status).toBe(200);
    for (const client of [r.otherSupervisor, r.otherAgent, r.lvivAgent, r.demoUser]) {
      const refused = await client.get(`/bookings/${booked.kyiv1}`, { headers: wait });
      expect(refused.status).toBe(404);
      expect(refused.body.errors[0].code).toBe("booking_not_found");
    }
    expect((await r.admin.get("/bookings/not-a-locator")).status).toBe(404);
    // The demo user's booking is fake and nobody's money: it says so and pays with nothing.
    const fake = await r.demoUser.get(`/bookings/${booked.demo}`, { headers: wait });
    expect(fake.body.data).toMatchObject({ fake_booking: true, issue_paid_by: null });
  });

  it("pages the list: per_page lines of page, with the total of all", async () => {
    const first = await list(r.admin, { per_page: 2, page: 1 });
    const second = await list(r.admin, { per_page: 2, page: 2 });
    const third = await list(r.admin, { per_page: 2, page: 3 });
    expect(first.meta).toMatchObject({ page: 1, per_page: 2, total: 5, list: "new" });
    expect(first.data).toHaveLength(2);
    expect(second.data).toHaveLength(2);
    expect(third.data).toHaveLength(1);
    expect(third.meta.total).toBe(5);
    const seen = [...first.data, ...second.data, ...third.data].map((b) => b.locator);
    expect(new Set(seen).size).toBe(5);
    // Newest first.
    const created = seen
      .map((l) => [...first.data, ...second.data, ...third.data].find((b) => b.locator === l))
      .map((b) => Date.parse(b?.created_at ?? ""));
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it("filters by text, list, days and the time-limit queue", async () => {
    const byLocator = await list(r.supervisor, { q: booked.kyiv2.toLowerCase() });
    expect(locators(byLocator)).toEqual([booked.kyiv2]);
    expect(byLocator.meta.list).toBeNull();
    const byName = await list(r.supervisor, { q: "bondarenko" });
    expect(locators(byName)).toEqual([booked.lviv]);
    // Text of another agency's booking finds nothing for the supervisor.
    expect((await list(r.supervisor, { q: "kowalski" })).data).toEqual([]);
    const queue = await list(r.supervisor, { sort: "time_limit" });
    const limits = queue.data.map((b) => Date.parse(b.time_limit ?? ""));
    expect(limits).toEqual([...limits].sort((a, b) => a - b));
    const row = queue.data.find((b) => b.locator === booked.kyiv1);
    expect(row).toMatchObject({
      booked_by: "Taras Shevchuk",
      company_name: "Dnipro Travel Kyiv",
      price: { currency: "UAH" },
    });
    expect(typeof row?.price.amount).toBe("number");
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(r.agent, { created_from: today, created_to: today })).meta.total).toBe(3);
  });

  it("answers an empty page, total 0, when nothing matches", async () => {
    for (const query of [{ list: "issued" }, { created_to: "2020-01-01" }, { q: "ZZZZZZ" }]) {
      const page = await list(r.admin, query);
      expect(page.data).toEqual([]);
      expect(page.meta.total).toBe(0);
    }
    const bad = await r.agent.get("/bookings", { query: { per_page: 0 } });
    expect(bad.status).toBe(422);
    expect((await t.client().get("/bookings")).status).toBe(401);
  });

  // Last: it issues a booking, which the empty "issued" list above must not see.
  it("gives an issued booking's row the end of its void window as cancel_before, as its page does", async () => {
    const { locator } = (await holdOneAdult(r.agent, "Kravets")) as Json;
    const companyId = (await t.events(`booking-${locator}`))[0]?.data.company_id as string;
    await topUp(t.db, t.app.store, companyId, 10_000_000_00);
    const issued = await r.agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    const after = { "x-min-position": String(issued.body.position) };
    const page = await r.agent.get(`/bookings/${locator}`, { headers: after });
    const row = (
      await r.agent.get("/bookings", { query: { list: "issued" }, headers: after })
    ).body.data.find((b: Json) => b.locator === locator);
    expect(page.body.data.cancel_before).toBe(issued.body.void_until);
    expect(row.cancel_before).toBe(issued.body.void_until);
    expect(row).not.toHaveProperty("void_until");
  });
});
