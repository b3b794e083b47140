import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { chargeBalance } from "./testing/bookings.ts";
import type { HttpClient, HttpResponse, Json } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/** Time-driven parts of the lifecycle, on an injected clock: expiry, asynchronous confirmation, instant payment. */
describe("bookings over time", () => {
  let t: TestApp;
  let agent: HttpClient;
  let clock = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ now: () => new Date(clock), scheduleEveryMs: 50 });
    agent = t.client();
    await agent.signIn("agent@dnipro.test");
  });
  afterAll(() => t.stop());

  const day = (offset: number) => new Date(clock + offset * 86_400_000).toISOString().slice(0, 10);

  async function book(lastName: string, carriers: string[]) {
    const search = await agent.post("/offers", {
      origin: "KBP",
      destination: "WAW",
      departure_date: day(21),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers,
    });
    const result = search.body.result as Json;
    return agent.post("/bookings", {
      search_result_id: result.id,
      fare_id: result.origin_destinations[0].fares[0].fare_id,
      passengers: [
        {
          type: "adult",
          gender: "F",
          first_name: "Maria",
          last_name: lastName,
          date_of_birth: "1991-03-03",
          document: {
            type: "passport",
            number: "FX998877",
            issuing_country: "UA",
            nationality: "UA",
            expires_on: "2030-05-05",
          },
        },
      ],
      contacts: { email: "maria@example.com", phone: "+380501234567" },
    });
  }

  async function until(read: () => Promise<HttpResponse>, done: (res: HttpResponse) => boolean) {
    for (let i = 0; i < 200; i++) {
      const res = await read();
      if (done(res)) return res;
      await sleep(25);
    }
    throw new Error("the schedule did not act within 5 s");
  }

  it("when a held booking's time limit passes, then the schedule expires it and opening it answers 416", async () => {
    const booked = await book("Later", ["PS", "LO", "LH"]);
    expect(booked.status).toBe(201);
    const locator = booked.body.locator as string;
    expect(
      (await agent.get(`/bookings/${locator}`, { headers: { "x-min-position": booked.body.position } }))
        .status,
    ).toBe(200);
    clock = new Date(booked.body.time_limit).getTime() + 60_000;
    const opened = await until(
      () => agent.get(`/bookings/${locator}`),
      (res) => res.status !== 200,
    );
    expect(opened.status).toBe(416);
    expect((await t.events(`booking-${locator}`)).map((e) => e.type)).toEqual([
      "BookingHeld",
      "BookingExpired",
    ]);
    const issue = await agent.post("/bookings/issue", { locator });
    expect(issue.body.errors[0].code).toBe("booking_expired");
  });

  it("when the airline confirms a booking asynchronously, then it cannot be issued until the schedule records the confirmation", async () => {
    clock = Date.now();
    const booked = await book("Asyncok", ["PS", "LO", "LH"]);
    expect(booked.body.provider_status).toBe("in_progress");
    const locator = booked.body.locator as string;
    const early = await agent.post("/bookings/issue", { locator });
    expect(early.body.errors[0].code).toBe("provider_in_progress");
    clock += 31_000;
    const confirmed = await until(
      () => agent.get(`/bookings/${locator}`),
      (res) => res.body?.data?.provider_status === "confirmed",
    );
    expect(confirmed.body.data.status).toBe("held");
    expect((await agent.post("/bookings/issue", { locator })).status).toBe(201);
  });

  it("when a low-cost fare with instant payment is booked, then it is issued at once", async () => {
    clock = Date.now();
    const booked = await book("Instant", ["PQ"]);
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ instant_payment: true, status: "issued", error: null });
    expect(booked.body.tickets[0].ticket_number).toMatch(/^\d{13}$/);
    const types = (await t.events(`booking-${booked.body.locator}`)).map((e) => e.type);
    expect(types).toEqual(["BookingHeld", "TicketingStarted", "TicketsIssued"]);
    // The hold, the claim and the charge are one append: one transaction.
    const { rows } = await t.db.pool.query<{ stream_id: string; event_type: string; tx: string }>(
      `SELECT stream_id, event_type, transaction_id::text AS tx FROM es.events
        WHERE stream_id = $1 OR (event_type = 'BalanceCharged' AND data->>'locator' = $2)`,
      [`booking-${booked.body.locator}`, booked.body.locator],
    );
    const txOf = (type: string) => rows.find((r) => r.event_type === type)?.tx;
    expect(txOf("BookingHeld")).toBeDefined();
    expect(txOf("TicketingStarted")).toBe(txOf("BookingHeld"));
    expect(txOf("BalanceCharged")).toBe(txOf("BookingHeld"));
  });

  it("when an instant-payment fare is booked but the balance cannot pay it, then it is held with the reason and nothing is charged", async () => {
    clock = Date.now();
    const balances = await agent.get("/balances");
    const { company_id: companyId, balance_amount: available } = balances.body.data[0];
    // Empty the company balance, as issues elsewhere would.
    await chargeBalance(t.app.store, companyId, available);
    const charges = async () =>
      (await t.events(`balance-${companyId}`)).filter((e) => e.type === "BalanceCharged").length;
    const chargesBefore = await charges();

    const booked = await book("Broke", ["PQ"]);
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({
      instant_payment: true,
      status: "held",
      error: "The company balance is too low to issue this booking",
    });
    const types = (await t.events(`booking-${booked.body.locator}`)).map((e) => e.type);
    expect(types).toEqual(["BookingHeld"]);
    expect(await charges()).toBe(chargesBefore);
    const page = await agent.get(`/bookings/${booked.body.locator}`, {
      headers: { "x-min-position": booked.body.position },
    });
    expect(page.body.data.status).toBe("held");
  });
});
