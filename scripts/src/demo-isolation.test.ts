import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { demoId } from "@skyward/command-service/world/seed";
import type { HttpClient, HttpResponse, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/**
 * The demo agent (demo@skyward.test, "fake bookings, no money moves") works in Dnipro Travel Kyiv, a real company
 * whose agents share bookings. It must see and touch only the fake bookings it made itself: a colleague's real
 * booking answers 404 as if it did not exist (DESIGN.md: outside scope answers 404), and nothing it does moves the
 * company's balance or reaches the supplier.
 */

const kyivBalance = `balance-${demoId("company", "dnipro-kyiv")}`;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const passenger = (lastName: string, passport: string) => ({
  type: "adult",
  gender: "F",
  first_name: "Olena",
  last_name: lastName,
  date_of_birth: "1988-03-04",
  document: {
    type: "passport",
    number: passport,
    issuing_country: "UA",
    nationality: "UA",
    expires_on: "2033-01-01",
  },
});

/** Searches KBP-WAW on full-service carriers (they allow a void) and books the first fare for the passengers. */
async function book(client: HttpClient, passengers: ReturnType<typeof passenger>[]): Promise<HttpResponse> {
  const search = await client.post("/offers", {
    origin: "KBP",
    destination: "WAW",
    departure_date: inDays(30),
    passengers: { adults: passengers.length, children: 0, infants: 0 },
    carriers: ["PS", "LO", "LH", "OS", "TK"],
  });
  expect(search.status).toBe(200);
  const result = search.body.result;
  return client.post("/bookings", {
    search_result_id: result.id,
    fare_id: result.origin_destinations[0].fares[0].fare_id,
    passengers,
    contacts: { email: "olena@example.com", phone: "+380501234567" },
  });
}

/** Every read and command a booking has, as the caller: each answer, named. */
async function everyCallOn(client: HttpClient, locator: string): Promise<[string, HttpResponse][]> {
  return [
    ["GET /bookings/:locator", await client.get(`/bookings/${locator}`)],
    ["POST /bookings/issue", await client.post("/bookings/issue", { locator })],
    ["POST /bookings/reprice", await client.post("/bookings/reprice", { locator })],
    ["POST /bookings/reshop", await client.post("/bookings/reshop", { locator })],
    ["POST /bookings/comment", await client.post("/bookings/comment", { locator, comment: "mine now" })],
    [
      "POST /bookings/modify",
      await client.post("/bookings/modify", { locator, contacts: { email: "demo@example.com" } }),
    ],
    ["DELETE /bookings/:locator", await client.delete(`/bookings/${locator}`)],
  ];
}

describe("a demo user", () => {
  let t: TestApp;
  let agent: HttpClient;
  let demo: HttpClient;
  /** Real bookings of the demo user's colleague in the same company: one held, one issued. */
  const real = { held: "", issued: "", position: "" };
  const realMarkers = ["KOVALENKO", "Kovalenko", "RP1234567", "SHEVCHENKO", "Shevchenko", "RP7654321"];

  beforeAll(async () => {
    t = await startTestApp();
    agent = t.client();
    await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD);
    demo = t.client();
    await demo.signIn("demo@skyward.test");

    const held = await book(agent, [passenger("Kovalenko", "RP1234567")]);
    const toIssue = await book(agent, [passenger("Shevchenko", "RP7654321")]);
    expect([held.status, toIssue.status]).toEqual([201, 201]);
    expect(held.body.fake_booking).toBe(false);
    const issued = await agent.post("/bookings/issue", { locator: toIssue.body.locator });
    expect(issued.status).toBe(201);
    Object.assign(real, {
      held: held.body.locator,
      issued: toIssue.body.locator,
      position: issued.body.position,
    });
  });
  afterAll(() => t.stop());

  const balanceSeenByAgent = async (position: string) => {
    const res = await agent.get("/balances", { headers: { "x-min-position": position } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-stale")).toBeNull();
    return res.body.data as Json[];
  };

  it("when it reads or acts on a colleague's real bookings, then every call answers 404 and nothing is written", async () => {
    // The colleague (same company, shared bookings) sees both, so the 404s below are the demo user's scope alone.
    for (const locator of [real.held, real.issued]) {
      const seen = await agent.get(`/bookings/${locator}`, { headers: { "x-min-position": real.position } });
      expect(seen.status).toBe(200);
    }
    const eventsBefore = await t.countEventsButBackground();
    const balanceBefore = await balanceSeenByAgent(real.position);

    const wrong: string[] = [];
    for (const locator of [real.held, real.issued]) {
      for (const [call, res] of await everyCallOn(demo, locator)) {
        const error = res.body?.errors?.[0];
        if (res.status !== 404 || error?.status !== "404" || error?.code !== "booking_not_found")
          wrong.push(`${call} on ${locator}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);

    expect(await t.countEventsButBackground()).toBe(eventsBefore);
    const held = await agent.get(`/bookings/${real.held}`);
    const issued = await agent.get(`/bookings/${real.issued}`);
    expect([held.body.data.status, issued.body.data.status]).toEqual(["held", "issued"]);
    expect([held.body.data.comments, issued.body.data.comments]).toEqual([[], []]);
    expect(await balanceSeenByAgent(real.position)).toEqual(balanceBefore);
  });

  it("when it books, issues, voids and cancels its own bookings, then they are fake, no balance moves and the supplier is never asked", async () => {
    // The sandbox's scripted names: the supplier refuses to book FAILBOOK and to ticket FAILISSUE. A real agent
    // gets the refusal, so the demo user's success below means the supplier was never reached.
    const names = [passenger("Failbook", "DM0000001"), passenger("Failissue", "DM0000002")];
    const refused = await book(agent, names);
    expect(refused.status).toBe(502);
    const balanceEventsBefore = (await t.events(kyivBalance)).length;
    const balanceBefore = await balanceSeenByAgent(real.position);

    const booked = await book(demo, names);
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ fake_booking: true, error: null });
    const issued = await demo.post("/bookings/issue", { locator: booked.body.locator });
    expect(issued.status).toBe(201);
    expect(issued.body.tickets).toHaveLength(2);
    const page = await demo.get(`/bookings/${booked.body.locator}`, {
      headers: { "x-min-position": issued.body.position },
    });
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ status: "issued", fake_booking: true });
    const commented = await demo.post("/bookings/comment", { locator: booked.body.locator, comment: "try" });
    expect(commented.status).toBe(200);
    const voided = await demo.delete(`/bookings/${booked.body.locator}`);
    expect(voided.status).toBe(200);
    expect(voided.body.status).toBe("voided");

    const second = await book(demo, [passenger("Failbook", "DM0000003")]);
    expect(second.status).toBe(201);
    const cancelled = await demo.delete(`/bookings/${second.body.locator}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");

    // No event on the company balance, the same balance read, and no supplier booking behind either booking.
    expect((await t.events(kyivBalance)).length).toBe(balanceEventsBefore);
    expect(await balanceSeenByAgent(cancelled.body.position)).toEqual(balanceBefore);
    for (const locator of [booked.body.locator, second.body.locator]) {
      const events = await t.events(`booking-${locator}`);
      expect(events[0]?.type).toBe("BookingHeld");
      expect(events[0]?.data).toMatchObject({ fake_booking: true, supplier_booking: null });
    }
  });

  it("when it reads lists and balances, then only its own fake bookings show and no colleague's data", async () => {
    const own = await book(demo, [passenger("Demchenko", "DM0000004")]);
    expect(own.status).toBe(201);
    const position = own.body.position as string;

    const shown: Json[] = [];
    for (const list of ["new", "issued", "cancelled", "refunded"]) {
      const page = await demo.get("/bookings", { query: { list }, headers: { "x-min-position": position } });
      expect(page.status).toBe(200);
      expect(page.body.meta.total).toBe(page.body.data.length);
      shown.push(...page.body.data);
    }
    expect(shown.length).toBeGreaterThanOrEqual(1);
    expect(shown.map((b) => b.locator)).toContain(own.body.locator);
    for (const row of shown)
      expect(row).toMatchObject({ fake_booking: true, agent_id: demoId("user", "demo-agent") });

    // Searching by a colleague's locator, passenger name or ticket finds nothing.
    const issuedByAgent = await agent.get(`/bookings/${real.issued}`);
    const ticket = issuedByAgent.body.data.tickets[0].ticket_number as string;
    for (const q of [real.held, real.issued, "Kovalenko", "shevchenko", ticket]) {
      const found = await demo.get("/bookings", { query: { q } });
      expect([q, found.status, found.body.data, found.body.meta.total]).toEqual([q, 200, [], 0]);
    }

    // Balances: the company's real money is not shown to a demo user (its bookings never touch it).
    const balances = await demo.get("/balances", { headers: { "x-min-position": position } });
    expect(balances.status).toBe(200);
    expect(balances.body.data).toEqual([]);

    const everything = JSON.stringify([shown, balances.body]);
    expect(realMarkers.filter((marker) => everything.includes(marker))).toEqual([]);
    expect(everything).not.toContain(demoId("user", "dnipro-agent"));
  });
});
