import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import {
  bookingPage,
  confirmExchange,
  confirmRefund,
  refundQuote,
  startAfterSalesApp,
} from "./testing/after-sales.ts";
import { balanceFromEvents, contacts, inDays, moneyOf, passenger } from "./testing/bookings.ts";
import type { HttpClient, HttpResponse, Json } from "./testing/http-client.ts";
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
    const events = await t.countEventsButBackground();
    const res = await agent.post("/offers", { passengers: { adults: 1, children: 0, infants: 0 }, ...body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: Json) => e.source?.pointer)).toContain(pointer);
    const after = await t.db.pool.query("SELECT count(*)::int AS n FROM app.search_results");
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect(await t.countEventsButBackground()).toBe(events);
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

  it("when a held multi-city booking is cancelled, then it is cancelled and no money moved", async () => {
    const { locator } = await holdJourney("light", ["Tkachenko"]);
    const cancelled = await agent.delete(`/bookings/${locator}`);
    expect(cancelled.status).toBe(200);
    expect(await moneyOf(t.db, locator)).toEqual([]);
    const page = await bookingPage(agent, locator, cancelled.body.position);
    expect(page.body.data.status).toBe("cancelled");
  });
});

/** A flight as flown: its segments' carriers, numbers and departures. */
const flown = (flight: Json) =>
  (flight.segments as Json[]).map((s) => `${s.carrier}${s.flight_number}@${s.departure_at}`).join();

/** An issued three-slice Flex journey (changes allowed), its booked flights, and its exchange offers for one slice. */
async function pricedSliceChange(lastName: string, slice: number, departureDate: string) {
  const { locator } = await holdJourney("flex", [lastName]);
  const issued = await agent.post("/bookings/issue", { locator });
  expect(issued.status).toBe(201);
  const booked = (await bookingPage(agent, locator, issued.body.position)).body.data.fare.flights as Json[];
  const created = await agent.post(`/orders/${locator}/flights_change_requests/create`, {
    slice,
    departure_date: departureDate,
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ slice, departure_date: departureDate, return_date: null });
  const priced = await agent.post(`/orders/${locator}/reshop_offers/price`, {});
  expect(priced.status).toBe(200);
  return { locator, booked, offers: priced.body.offers as Json[], position: priced.body.position as string };
}

const dearest = (offers: Json[]) =>
  offers.reduce((a, b) => (b.total_due.amount > a.total_due.amount ? b : a), offers[0] as Json);

describe("exchange of one slice", () => {
  it("when an agent changes the second slice of a multi-city journey to another date, then every offer keeps the other slices' flights, the balance is charged the offer's total once and the booking flies the new slice", async () => {
    // The sandbox's fares move with the date: on some days every fare of the new date costs no more than the one
    // booked, and a Flex change then costs nothing. The first date between the neighbours with an offer that costs
    // something is taken, so the money is checked to the unit whatever today is.
    let change: Awaited<ReturnType<typeof pricedSliceChange>> | undefined;
    let date = "";
    for (const days of [24, 25, 26, 22, 27, 21]) {
      date = inDays(days);
      change = await pricedSliceChange("Savchenko", 1, date);
      if (change.offers.some((o) => o.total_due.amount > 0)) break;
    }
    if (!change) throw new Error("no slice change was priced");
    const { locator, booked, offers, position } = change;
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) {
      expect(o.flights).toHaveLength(3);
      expect(flown(o.flights[0])).toBe(flown(booked[0] as Json));
      expect(flown(o.flights[2])).toBe(flown(booked[2] as Json));
      expect(o.flights[1].departure_at.slice(0, 10)).toBe(date);
      expect(o.flights.map((f: Json) => f.direction)).toEqual(["outbound", "onward", "onward"]);
      expect(o.total_due.amount).toBe(o.fare_difference.amount + o.change_fee.amount + o.markup.amount);
      expect(o.change_fee.amount).toBeGreaterThanOrEqual(0);
    }
    const page = await bookingPage(agent, locator, position);
    expect(page.body.data.change_request).toMatchObject({ slice: 1, departure_date: date });

    // The dearest offer costs something: its money is checked to the unit.
    const offer = dearest(offers);
    expect(offer.total_due.amount).toBeGreaterThan(0);
    const before = await balanceFromEvents(t.db, companyId);
    const confirmed = await confirmExchange(agent, locator, offer.reshop_offer_id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "exchanged", charged: offer.total_due });
    expect(await balanceFromEvents(t.db, companyId)).toBe(before - offer.total_due.amount);
    expect((await moneyOf(t.db, locator)).filter((m) => m.reason === "exchange")).toEqual([
      { type: "BalanceCharged", reason: "exchange", amount: offer.total_due.amount },
    ]);
    const after = (await bookingPage(agent, locator, confirmed.body.position)).body.data;
    expect(after.status).toBe("exchanged");
    expect((after.fare.flights as Json[]).map(flown)).toEqual([
      flown(booked[0] as Json),
      flown(offer.flights[1]),
      flown(booked[2] as Json),
    ]);
  });

  it("when the return slice of a round trip is changed alone, then every offer keeps the way out and flies home on the new date", async () => {
    const search = await agent.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: inDays(30),
      return_date: inDays(35),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO"],
    });
    const fare = (search.body.result.origin_destinations as Json[])
      .flatMap((od) => od.fares as Json[])
      .find((f) => f.family === "flex" && !f.instant_payment);
    const held = await agent.post("/bookings", {
      search_result_id: search.body.result.id,
      fare_id: fare?.fare_id,
      passengers: [passenger("Olena", "Hrytsenko")],
      contacts,
    });
    expect(held.status).toBe(201);
    const locator = held.body.locator as string;
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    const booked = (await bookingPage(agent, locator, issued.body.position)).body.data.fare.flights as Json[];
    const created = await agent.post(`/orders/${locator}/flights_change_requests/create`, {
      slice: 1,
      departure_date: inDays(37),
    });
    expect(created.status).toBe(201);
    const priced = await agent.post(`/orders/${locator}/reshop_offers/price`, {});
    expect(priced.status).toBe(200);
    expect(priced.body.offers.length).toBeGreaterThan(0);
    for (const o of priced.body.offers as Json[]) {
      expect(flown(o.flights[0])).toBe(flown(booked[0] as Json));
      expect(o.flights[1].departure_at.slice(0, 10)).toBe(inDays(37));
    }
  });

  it("when the slice named does not exist, is missing on a multi-city journey, or its date passes a neighbour's, then the field answers a clear error and nothing is written", async () => {
    const { locator } = await holdJourney("flex", ["Lysenko"]);
    const issued = await agent.post("/bookings/issue", { locator });
    expect(issued.status).toBe(201);
    await bookingPage(agent, locator, issued.body.position);
    const before = await t.countEventsButBackground();
    const ask = (body: Json) => agent.post(`/orders/${locator}/flights_change_requests/create`, body);
    const outOfRange = await ask({ slice: 3, departure_date: inDays(29) });
    expect(outOfRange.status).toBe(422);
    expect(outOfRange.body.errors).toEqual([
      expect.objectContaining({ source: { pointer: "/slice" }, detail: expect.stringContaining("3 slices") }),
    ]);
    const tooBig = await ask({ slice: 6, departure_date: inDays(29) });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors[0].source).toEqual({ pointer: "/slice" });
    const missing = await ask({ departure_date: inDays(24), return_date: inDays(29) });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ source: { pointer: "/slice" } });
    const pastNeighbour = await ask({ slice: 1, departure_date: inDays(29) });
    expect(pastNeighbour.status).toBe(422);
    expect(pastNeighbour.body.errors[0]).toMatchObject({ source: { pointer: "/departure_date" } });
    const both = await ask({ slice: 1, departure_date: inDays(24), return_date: inDays(27) });
    expect(both.status).toBe(422);
    expect(both.body.errors[0]).toMatchObject({ source: { pointer: "/return_date" } });
    expect(await t.countEventsButBackground()).toBe(before);
  });

  it("when two exchange confirms of one slice race on the same booking, then exactly one exchanges, the balance is charged once and nothing stays in flight", async () => {
    const { locator, offers } = await pricedSliceChange("Kovalchuk", 2, inDays(29));
    expect(offers.length).toBeGreaterThan(0);
    const first = dearest(offers);
    const second = offers.find((o) => o !== first) ?? first;
    expect(first.total_due.amount).toBeGreaterThan(0);
    const before = await balanceFromEvents(t.db, companyId);
    const answers: HttpResponse[] = await Promise.all([
      confirmExchange(agent, locator, first.reshop_offer_id),
      confirmExchange(agent, locator, second.reshop_offer_id),
    ]);
    for (const a of answers) expect(a.status).toBeLessThan(500);
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    const lost = answers.find((a) => a.status !== 200);
    expect(lost?.body.errors[0].code).toEqual(expect.any(String));
    const events = await t.events(`booking-${locator}`);
    expect(events.filter((e) => e.type === "TicketsExchanged")).toHaveLength(1);
    const charged = events
      .filter((e) => e.type === "ExchangeStarted")
      .map((e) => (e.data.charged as Json | null)?.amount ?? 0);
    expect(charged).toHaveLength(1);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before - (charged[0] ?? 0));
    expect((await moneyOf(t.db, locator)).filter((m) => m.reason === "exchange")).toEqual([
      { type: "BalanceCharged", reason: "exchange", amount: won[0]?.body.charged.amount },
    ]);
  });
});
