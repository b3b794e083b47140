import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { BookingListPage } from "@skyward/contracts/bookings";
import { contacts, inDays, passenger } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

async function bookOne(client: HttpClient, lastName: string): Promise<{ locator: string; position: string }> {
  const offers = await client.post("/offers", {
    origin: "KBP",
    destination: "WAW",
    departure_date: inDays(21),
    passengers: { adults: 1, children: 0, infants: 0 },
    carriers: ["PS", "LO"],
  });
  expect(offers.status).toBe(200);
  const fare = offers.body.result.origin_destinations[0].fares[0];
  const res = await client.post("/bookings", {
    search_result_id: offers.body.result.id,
    fare_id: fare.fare_id,
    passengers: [passenger("Ivan", lastName)],
    contacts,
  });
  expect(res.status).toBe(201);
  return { locator: res.body.locator, position: res.body.position };
}

const today = () => new Date().toISOString().slice(0, 10);

describe("the team views of the booking lists", () => {
  let t: TestApp;
  let agent: HttpClient;
  let supervisor: HttpClient;
  beforeAll(async () => {
    t = await startTestApp();
    agent = t.client();
    await agent.signIn("agent@dnipro.test");
    supervisor = t.client();
    await supervisor.signIn("supervisor@dnipro.test");
  });
  afterAll(() => t.stop());

  it("names who booked and for which company, for the agent and the supervisor", async () => {
    const { locator, position } = await bookOne(agent, "Melnyk");
    for (const client of [agent, supervisor]) {
      const list = await client.get("/bookings", { headers: { "x-min-position": position } });
      expect(list.status).toBe(200);
      expect(BookingListPage.safeParse(list.body).error).toBeUndefined();
      const row = list.body.data.find((b: Json) => b.locator === locator);
      expect(row).toMatchObject({ booked_by: "Taras Shevchuk", company_name: "Dnipro Travel Kyiv" });
    }
  });

  it("filters by the day of creation, and refuses a day that is not a date", async () => {
    const { locator, position } = await bookOne(agent, "Shevchenko");
    const headers = { "x-min-position": position };
    const on = await agent.get("/bookings", {
      query: { created_from: today(), created_to: today() },
      headers,
    });
    expect(on.body.data.map((b: Json) => b.locator)).toContain(locator);
    const before = await agent.get("/bookings", { query: { created_to: "2020-01-01" }, headers });
    expect(before.body.data.map((b: Json) => b.locator)).not.toContain(locator);
    expect(before.body.meta.total).toBe(0);
    const after = await agent.get("/bookings", { query: { created_from: inDays(2) }, headers });
    expect(after.body.data).toEqual([]);
    const bad = await agent.get("/bookings", { query: { created_from: "2026-02-30" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.length).toBeGreaterThan(0);
  });

  it("sorts the queue by the time limit, the nearest first", async () => {
    const first = await bookOne(agent, "Bondarenko");
    const second = await bookOne(agent, "Tkachenko");
    const queue = await agent.get("/bookings", {
      query: { list: "new", sort: "time_limit" },
      headers: { "x-min-position": second.position },
    });
    expect(queue.status).toBe(200);
    const limits = queue.body.data.map((b: Json) => Date.parse(b.time_limit));
    expect(limits.length).toBeGreaterThanOrEqual(2);
    expect([...limits].sort((a, b) => a - b)).toEqual(limits);
    expect(queue.body.data.map((b: Json) => b.locator)).toEqual(
      expect.arrayContaining([first.locator, second.locator]),
    );
  });

  it("keeps a text search to the list asked for, and searches every list only when none is named", async () => {
    const { locator } = await bookOne(agent, "Kovalenko");
    const cancelled = await agent.delete(`/bookings/${locator}`);
    expect(cancelled.body.status).toBe("cancelled");
    const headers = { "x-min-position": cancelled.body.position };
    const read = async (query: Record<string, string>) => {
      const res = await agent.get("/bookings", { query, headers });
      expect(res.status).toBe(200);
      expect(BookingListPage.safeParse(res.body).error).toBeUndefined();
      return res.body as { data: Json[]; meta: { list: string | null } };
    };
    const locators = (page: { data: Json[] }) => page.data.map((b: Json) => b.locator);
    const inCancelled = await read({ list: "cancelled", q: locator });
    expect(locators(inCancelled)).toEqual([locator]);
    expect(inCancelled.meta.list).toBe("cancelled");
    for (const list of ["new", "issued", "refunded"])
      expect(locators(await read({ list, q: locator }))).toEqual([]);
    const everywhere = await read({ q: locator });
    expect(locators(everywhere)).toEqual([locator]);
    expect(everywhere.meta.list).toBeNull();
    // No text and no list: the new list, as before.
    expect((await read({})).meta.list).toBe("new");
  });
});
