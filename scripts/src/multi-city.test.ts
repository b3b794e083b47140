import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { bookingPage, confirmRefund, refundQuote, startAfterSalesApp } from "./testing/after-sales.ts";
import { balanceFromEvents, contacts, inDays, moneyOf, passenger } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import type { TestApp } from "./testing/test-app.ts";

/** Multi-city and open-jaw journeys over real HTTP and PostgreSQL: search, filters, book, issue, void, cancel, refund. */

let t: TestApp;
let agent: HttpClient;
let companyId: string;

beforeAll(async () => {
  ({ t, agent, companyId } = await startAfterSalesApp());
});
afterAll(() => t.stop());

/** Kyiv to Warsaw, then Warsaw to Paris (any of its airports), back to Kyiv: three slices. */
const journey = (days = [20, 23, 28]) => [
  { origin: "KBP", destination: "WAW", departure_date: inDays(days[0] ?? 20) },
  { origin: "WAW", destination: "PAR", departure_date: inDays(days[1] ?? 23) },
  { origin: "PAR", destination: "KBP", departure_date: inDays(days[2] ?? 28) },
];

async function searchJourney(client: HttpClient, adults = 1, slices = journey()) {
  const res = await client.post("/offers", {
    slices,
    passengers: { adults, children: 0, infants: 0 },
    carriers: ["PS", "LO", "LH", "OS", "AF"],
  });
  if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.result as Json;
}

/** A held multi-city booking on a network carrier's fare of this family. */
async function holdJourney(family: string, lastNames: string[]) {
  const result = await searchJourney(agent, lastNames.length);
  const fare = (result.origin_destinations as Json[])
    .flatMap((od) => od.fares as Json[])
    .find((f) => f.family === family && !f.instant_payment);
  if (!fare) throw new Error(`no ${family} fare on the journey`);
  const res = await agent.post("/bookings", {
    search_result_id: result.id,
    fare_id: fare.fare_id,
    passengers: lastNames.map((last, i) => passenger(`Ivan${"ABCDEFGHI"[i]}`, last)),
    contacts,
  });
  if (res.status !== 201) throw new Error(`booking answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { locator: res.body.locator as string, position: res.body.position as string, fare, result };
}

const PARIS = ["CDG", "ORY", "BVA"];

describe("multi-city search", () => {
  it("when an agent searches three slices, then every offer flies them in order on one carrier, the later slices onward, and its fares add up exactly", async () => {
    const result = await searchJourney(agent, 2);
    expect(result.origin_destinations.length).toBeGreaterThan(0);
    for (const od of result.origin_destinations as Json[]) {
      expect(od.flights.map((f: Json) => f.direction)).toEqual(["outbound", "onward", "onward"]);
      const ends = od.flights.map((f: Json) => [f.segments[0].from.code, f.segments.at(-1).to.code]);
      expect(ends[0]).toEqual(["KBP", "WAW"]);
      expect(ends[1][0]).toBe("WAW");
      expect(PARIS).toContain(ends[1][1]);
      expect(PARIS).toContain(ends[2][0]);
      expect(ends[2][1]).toBe("KBP");
      expect(od.flights.map((f: Json) => f.departure_at.slice(0, 10))).toEqual(
        journey().map((s) => s.departure_date),
      );
      for (const [i, f] of (od.flights as Json[]).entries()) {
        if (i > 0)
          expect(Date.parse(f.departure_at)).toBeGreaterThan(Date.parse(od.flights[i - 1].arrival_at));
      }
      for (const fare of od.fares as Json[]) {
        const d = fare.price_detail;
        expect(Number.isInteger(d.total.amount)).toBe(true);
        expect(d.total.amount).toBe(
          d.base_fare.amount +
            d.taxes.amount +
            d.agency_markup.amount +
            d.company_markup.amount +
            d.transaction_fee.amount,
        );
        expect(fare.price.amount).toBe(d.total.amount);
        expect(fare.fare_segments.length).toBe(od.flights.flatMap((f: Json) => f.segments).length);
      }
    }
    // Fare families per itinerary, with connections on some slices.
    const families = new Set(
      (result.origin_destinations as Json[]).flatMap((od) => od.fares.map((f: Json) => f.family)),
    );
    expect(families.has("standard")).toBe(true);
  });

  it("when an agent searches an open jaw (out to Warsaw, back from Paris), then each offer flies out to WAW and home from a Paris airport", async () => {
    const result = await searchJourney(agent, 1, [
      { origin: "KBP", destination: "WAW", departure_date: inDays(20) },
      { origin: "PAR", destination: "KBP", departure_date: inDays(27) },
    ]);
    expect(result.origin_destinations.length).toBeGreaterThan(0);
    for (const od of result.origin_destinations as Json[]) {
      expect(od.flights).toHaveLength(2);
      expect(od.flights[0].segments.at(-1).to.code).toBe("WAW");
      expect(PARIS).toContain(od.flights[1].segments[0].from.code);
      expect(od.flights[1].segments.at(-1).to.code).toBe("KBP");
      for (const fare of od.fares as Json[]) expect(fare.fare_segments[0].fare_basis).toMatch(/MC/);
    }
  });

  it("when the offer details and fare rules of a multi-city fare are read, then they show its three flights; another agency's agent gets 404", async () => {
    const result = await searchJourney(agent);
    const fare = result.origin_destinations[0].fares[0];
    const details = await agent.get(`/offers/${encodeURIComponent(fare.fare_id)}/details`, {
      query: { search_result_id: result.id },
    });
    expect(details.status).toBe(200);
    expect(details.body.data.flights).toHaveLength(3);
    expect(details.body.data.fare.price).toEqual(fare.price);
    const rules = await agent.get(`/offers/${encodeURIComponent(fare.fare_id)}/fare_rules`, {
      query: { search_result_id: result.id },
    });
    expect(rules.status).toBe(200);
    expect(rules.body.data.fare_segments.length).toBe(fare.fare_segments.length);

    const stranger = t.client();
    await stranger.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const theirs = await stranger.get(`/offers/${encodeURIComponent(fare.fare_id)}/details`, {
      query: { search_result_id: result.id },
    });
    expect(theirs.status).toBe(404);
    const booked = await stranger.post("/bookings", {
      search_result_id: result.id,
      fare_id: fare.fare_id,
      passengers: [passenger("Ivan", "Petrenko")],
      contacts,
    });
    expect(booked.status).toBe(404);
  });

  it("when a filter names one slice, then only that slice's flights must match it", async () => {
    const result = await searchJourney(agent);
    const direct = (result.origin_destinations as Json[]).filter((od) => od.flights[1].stops === 0);
    const filtered = await agent.post("/search_results", {
      search_result_id: result.id,
      filters: { slices: [{ slice: 1, stops: [0] }] },
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.result.origin_destinations.map((od: Json) => od.id)).toEqual(
      direct.map((od) => od.id),
    );
    expect(filtered.body.filters).toEqual({ slices: [{ slice: 1, stops: [0] }] });
    const cleared = await agent.delete(`/search_results/${result.id}`, undefined, {
      query: { filter_key: "slices" },
    });
    expect(cleared.body.result.origin_destinations).toHaveLength(result.origin_destinations.length);
  });

  it("when a city code is searched, then offers leave from more than one of its airports", async () => {
    const res = await agent.post("/offers", {
      origin: "LON",
      destination: "KBP",
      departure_date: inDays(30),
      passengers: { adults: 1, children: 0, infants: 0 },
    });
    expect(res.status).toBe(200);
    const from = new Set(
      (res.body.result.origin_destinations as Json[]).map((od) => od.flights[0].segments[0].from.code),
    );
    expect(from.size).toBeGreaterThan(1);
    for (const code of from) expect(["LHR", "LGW", "STN", "LTN", "LCY", "SEN"]).toContain(code);
  });

  it.each([
    ["seven slices", { slices: [...journey(), ...journey([29, 30, 31]), journey([32])[0]] }, "/slices"],
    ["dates out of order", { slices: journey([20, 25, 22]) }, "/slices/2/departure_date"],
    [
      "an unknown airport",
      { slices: [journey()[0], { origin: "WAW", destination: "QQQ", departure_date: inDays(23) }] },
      "/slices/1/destination",
    ],
    [
      "a slice to where it starts",
      { slices: [{ origin: "WAW", destination: "WAW", departure_date: inDays(23) }] },
      "/slices/0/destination",
    ],
    ["no slices", { slices: [] }, "/slices"],
    ["slices beside an origin", { slices: journey(), origin: "KBP" }, "/origin"],
  ])("when the search has %s, then 422 names the field and nothing is kept", async (_name, body, pointer) => {
    const before = await t.db.pool.query("SELECT count(*)::int AS n FROM app.search_results");
    const events = await t.countEvents();
    const res = await agent.post("/offers", { passengers: { adults: 1, children: 0, infants: 0 }, ...body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: Json) => e.source?.pointer)).toContain(pointer);
    const after = await t.db.pool.query("SELECT count(*)::int AS n FROM app.search_results");
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect(await t.countEvents()).toBe(events);
  });
});

describe("multi-city in the text search", () => {
  it("when an agent types a three-slice journey, then the answer holds the three slices (not a round trip), and they search as typed", async () => {
    const res = await agent.post("/text_search", {
      text: "Kyiv to Warsaw on 20 December, then Warsaw to Paris on the 23rd, back to Kyiv on the 28th",
      language: "en",
      today: new Date().toISOString().slice(0, 10),
    });
    expect(res.status).toBe(200);
    const { search } = res.body;
    expect(search.trip).toBe("multi_city");
    expect(search.return_date).toBeUndefined();
    expect(search.slices.map((s: Json) => [s.origin, s.destination])).toEqual([
      ["KBP", "WAW"],
      ["WAW", "CDG"],
      ["CDG", "KBP"],
    ]);
    const days = search.slices.map((s: Json) => s.departure_date.slice(5));
    expect(days).toEqual(["12-20", "12-23", "12-28"]);
    const searched = await agent.post("/offers", { slices: search.slices, passengers: search.passengers });
    expect(searched.status).toBe(200);
    expect(searched.body.result.origin_destinations[0].flights).toHaveLength(3);
  });
});

describe("city codes in the airport suggestions", () => {
  it("when an agent types London, then LON (all its airports) is the first choice and Heathrow comes before Biggin Hill; signed out, 401", async () => {
    const res = await agent.get("/airports", { query: { q: "London" } });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ kind: "city", code: "LON", city: "London", country: "GB" });
    const codes = res.body.data.map((a: Json) => a.code);
    expect(codes[1]).toBe("LHR");
    expect(codes.indexOf("BQH")).toBeGreaterThan(codes.indexOf("SEN"));
    expect((await t.client().get("/airports", { query: { q: "London" } })).status).toBe(401);
  });
});

describe("multi-city booking", () => {
  it("when an agent books, issues and refunds one passenger of a multi-city journey, then the money is exact and the other passenger's ticket stands", async () => {
    const { locator, position, fare } = await holdJourney("flex", ["Shevchenko", "Kovalenko"]);
    // Read at the hold's position: without it the read model may not have the booking yet.
    const held = await bookingPage(agent, locator, position);
    expect(held.body.data.fare.flights).toHaveLength(3);
    const before = await balanceFromEvents(t.db, companyId);
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    const charged = before - (await balanceFromEvents(t.db, companyId));
    expect(charged).toBe(fare.price.amount);

    const quote = await refundQuote(agent, locator, [0]);
    expect(quote.status).toBe(201);
    expect(quote.body.quote.lines).toHaveLength(1);
    const refunded = await confirmRefund(agent, locator, quote.body.quote.quote_id);
    expect(refunded.status).toBe(200);
    expect(await balanceFromEvents(t.db, companyId)).toBe(
      before - charged + quote.body.quote.refundable.amount,
    );
    const moved = await moneyOf(t.db, locator);
    expect(moved.filter((m) => m.reason === "refund").reduce((s, m) => s + m.amount, 0)).toBe(
      quote.body.quote.refundable.amount,
    );
    const rest = await refundQuote(agent, locator);
    expect(rest.status).toBe(201);
    expect(rest.body.quote.lines).toHaveLength(1);
  });

  it("when a multi-city booking is issued then voided the same day, then the whole charge comes back", async () => {
    const { locator } = await holdJourney("standard", ["Bondarenko"]);
    const before = await balanceFromEvents(t.db, companyId);
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
    const voided = await agent.delete(`/bookings/${locator}`);
    expect(voided.status).toBe(200);
    expect(voided.body.status).toBe("voided");
    expect(await balanceFromEvents(t.db, companyId)).toBe(before);
    const page = await bookingPage(agent, locator, voided.body.position);
    expect(page.body.data.status).toBe("voided");
  });

  it("when an agent asks to exchange a multi-city ticket, then it is refused (not built yet) and nothing is written", async () => {
    const { locator } = await holdJourney("flex", ["Melnyk"]);
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
    const before = await t.countEvents();
    const res = await agent.post(`/orders/${locator}/flights_change_requests/create`, {
      departure_date: inDays(24),
      return_date: inDays(29),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].code).toBe("multi_city_exchange");
    expect(await t.countEvents()).toBe(before);
  });

  it("when a held multi-city booking is cancelled, then it is cancelled and no money moved", async () => {
    const { locator } = await holdJourney("light", ["Tkachenko"]);
    const cancelled = await agent.delete(`/bookings/${locator}`);
    expect(cancelled.status).toBe(200);
    expect(await moneyOf(t.db, locator)).toEqual([]);
    const page = await bookingPage(agent, locator, cancelled.body.position);
    expect(page.body.data.status).toBe("cancelled");
  });
});
