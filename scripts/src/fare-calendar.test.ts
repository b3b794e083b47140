import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { inDays } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/** The fare calendar (issue 23.2) over real HTTP and PostgreSQL: the grid, its prices against searches, its keeping. */

let t: TestApp;
let agent: HttpClient;

beforeAll(async () => {
  t = await startTestApp();
  agent = t.client();
  await agent.signIn("agent@dnipro.test");
});
afterAll(() => t.stop());

const passengers = { adults: 1, children: 0, infants: 0 };

/** The cheapest total a search for these dates answers, as the results page shows it. */
async function cheapestOfSearch(departure: string, ret: string | null): Promise<number | null> {
  const res = await agent.post("/offers", {
    origin: "KBP",
    destination: "WAW",
    departure_date: departure,
    ...(ret ? { return_date: ret } : {}),
    passengers,
  });
  expect(res.status).toBe(200);
  const totals = (res.body.result.origin_destinations as Json[]).flatMap((od) =>
    od.fares.map((f: Json) => f.price.amount as number),
  );
  return totals.length > 0 ? Math.min(...totals) : null;
}

describe("fare calendar", () => {
  it("when an agent asks a one-way calendar, then 7 days around the date each carry the cheapest total a search for that day shows", async () => {
    const res = await agent.post("/fare_calendar", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(30),
      passengers,
    });
    expect(res.status).toBe(200);
    const { calendar } = res.body;
    expect(calendar.departure_dates).toEqual([27, 28, 29, 30, 31, 32, 33].map(inDays));
    expect(calendar.return_dates).toBeNull();
    expect(calendar.cells).toHaveLength(7);
    for (const cell of calendar.cells as Json[]) {
      expect(cell.return_date).toBeNull();
      expect(cell.total?.amount ?? null).toBe(await cheapestOfSearch(cell.departure_date, null));
      if (cell.total) expect(cell.total.currency).toBe("UAH");
    }
    const priced = (calendar.cells as Json[]).flatMap((c) => (c.total ? [c.total.amount as number] : []));
    expect(calendar.cheapest.amount).toBe(Math.min(...priced));

    // Kept like a search page: its owner opens it again, another agency's agent gets 404.
    const again = await agent.get(`/fare_calendar/${calendar.id}`);
    expect(again.status).toBe(200);
    expect(again.body.calendar).toEqual(calendar);
    const stranger = t.client();
    await stranger.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    expect((await stranger.get(`/fare_calendar/${calendar.id}`)).status).toBe(404);
    expect((await t.client().get(`/fare_calendar/${calendar.id}`)).status).toBe(401);
  });

  it("when an agent asks a round-trip calendar, then it is a 7 × 7 grid in one request, returns before departures unpriced", async () => {
    const res = await agent.post("/fare_calendar", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(30),
      return_date: inDays(32),
      passengers,
    });
    expect(res.status).toBe(200);
    const { calendar } = res.body;
    expect(calendar.return_dates).toEqual([29, 30, 31, 32, 33, 34, 35].map(inDays));
    expect(calendar.cells).toHaveLength(49);
    const cell = (d: number, r: number) =>
      (calendar.cells as Json[]).find((c) => c.departure_date === inDays(d) && c.return_date === inDays(r));
    expect(cell(33, 29)).toMatchObject({ total: null, reason: "not_on_sale" });
    const asked = cell(30, 32);
    expect(asked?.total?.amount).toBe(await cheapestOfSearch(inDays(30), inDays(32)));
    expect((calendar.cells as Json[]).filter((c) => c.total).length).toBeGreaterThan(30);
  });

  it("when the calendar's first days are already past, then they are unpriced and the rest priced", async () => {
    const res = await agent.post("/fare_calendar", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(1),
      passengers,
    });
    expect(res.status).toBe(200);
    const [first, second] = res.body.calendar.cells as Json[];
    expect(first).toMatchObject({ departure_date: inDays(-2), total: null, reason: "not_on_sale" });
    expect(second).toMatchObject({ reason: "not_on_sale" });
  });

  it.each([
    ["an unknown airport", { origin: "QQQ" }, "/origin"],
    ["a past date", { departure_date: inDays(-5) }, "/departure_date"],
    ["a return before the departure", { return_date: inDays(20) }, "/return_date"],
    ["slices (a calendar is for one-way or round trips)", { slices: [] }, "/slices"],
  ])(
    "when the calendar asks %s, then 422 names the field and nothing is kept",
    async (_name, change, pointer) => {
      const before = await t.db.pool.query("SELECT count(*)::int AS n FROM app.fare_calendars");
      const res = await agent.post("/fare_calendar", {
        origin: "KBP",
        destination: "WAW",
        departure_date: inDays(30),
        passengers,
        ...change,
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: Json) => e.source?.pointer)).toContain(pointer);
      const after = await t.db.pool.query("SELECT count(*)::int AS n FROM app.fare_calendars");
      expect(after.rows[0].n).toBe(before.rows[0].n);
    },
  );
});
