import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
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

/**
 * Fare rules per slice of a multi-city journey, over real HTTP and PostgreSQL: each slice is sold in its own family
 * (a class closed on a slice sells it in the next family up), an exchange of one slice pays that slice's change fee,
 * and a refund gives back each slice's fare under its own rule.
 */

let t: TestApp;
let agent: HttpClient;
let companyId: string;

beforeAll(async () => {
  ({ t, agent, companyId } = await startAfterSalesApp());
});
afterAll(() => t.stop());

const journey = (start: number) => [
  { origin: "KBP", destination: "WAW", departure_date: inDays(start) },
  { origin: "WAW", destination: "PAR", departure_date: inDays(start + 3) },
  { origin: "PAR", destination: "KBP", departure_date: inDays(start + 8) },
];

interface Found {
  result: Json;
  fare: Json;
  slices: Json[];
  start: number;
}

/** The first network fare (held, not paid at once) of a three-slice journey whose per-slice rules fit `wanted`. */
async function findFare(wanted: (slices: Json[]) => boolean): Promise<Found> {
  for (let start = 20; start < 60; start += 2) {
    const res = await agent.post("/offers", {
      slices: journey(start),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO", "LH", "OS", "AF"],
    });
    expect(res.status).toBe(200);
    const result = res.body.result as Json;
    const fares = (result.origin_destinations as Json[])
      .flatMap((od) => od.fares as Json[])
      .filter((f) => !f.instant_payment);
    for (const fare of fares) {
      const rules = await agent.get(`/offers/${encodeURIComponent(fare.fare_id)}/fare_rules`, {
        query: { search_result_id: result.id },
      });
      expect(rules.status).toBe(200);
      const slices = rules.body.data.slices as Json[];
      if (wanted(slices)) return { result, fare, slices, start };
    }
  }
  throw new Error("no fare with these slice rules on the journeys searched");
}

const changeRule = (s: Json | undefined) => s?.penalty.change_before_departure as Json;
const refundRule = (s: Json | undefined) => s?.penalty.refund_before_departure as Json;

/** Slice 2 changeable for a fee that is not the fee of another changeable slice, or the only changeable one. */
const slice2OwnFee = (slices: Json[]) => {
  const second = changeRule(slices[1]);
  if (!second?.allowed || second.fee.amount === 0) return false;
  const others = [slices[0], slices[2]].map(changeRule);
  return others.some((r) => !r?.allowed || r.fee.amount !== second.fee.amount);
};

/** One slice not refundable, another refundable. */
const oneNonRefundable = (slices: Json[]) =>
  slices.some((s) => !refundRule(s).allowed) && slices.some((s) => refundRule(s).allowed);

async function issue(found: Found, lastName: string) {
  const held = await agent.post("/bookings", {
    search_result_id: found.result.id,
    fare_id: found.fare.fare_id,
    passengers: [passenger("Ivan", lastName)],
    contacts,
  });
  expect(held.status).toBe(201);
  const locator = held.body.locator as string;
  const issued = await agent.post("/bookings/issue", { locator });
  expect(issued.status).toBe(201);
  const page = await bookingPage(agent, locator, issued.body.position);
  return { locator, booking: page.body.data as Json };
}

const flown = (flight: Json) =>
  (flight.segments as Json[]).map((s) => `${s.carrier}${s.flight_number}@${s.departure_at}`).join();

/** What the airline charged for a priced fare: its base fare and taxes (our markups and fee apart). */
const supplierTotal = (detail: Json) => detail.base_fare.amount + detail.taxes.amount;

async function priceSlice(locator: string, slice: number, date: string) {
  const created = await agent.post(`/orders/${locator}/flights_change_requests/create`, {
    slice,
    departure_date: date,
  });
  expect(created.status).toBe(201);
  return agent.post(`/orders/${locator}/reshop_offers/price`, {});
}

describe("fare rules per slice", () => {
  it("when a multi-city fare sells its slices in different families, then its fare rules and offer details name each slice's family and rules", async () => {
    const found = await findFare((slices) => new Set(slices.map((s) => s.family)).size > 1);
    expect(found.slices.map((s) => [s.origin, s.slice])).toEqual([
      ["KBP", 0],
      ["WAW", 1],
      [expect.any(String), 2],
    ]);
    const details = await agent.get(`/offers/${encodeURIComponent(found.fare.fare_id)}/details`, {
      query: { search_result_id: found.result.id },
    });
    expect(details.status).toBe(200);
    expect(details.body.data.fare_rules.slices).toEqual(found.slices);
    // The whole fare's rule is the slices' together: refundable if any slice is, its fee the sum of theirs.
    const refundable = found.slices.map(refundRule).filter((r) => r.allowed);
    expect(found.fare.penalty.refund_before_departure).toEqual(
      refundable.length === 0
        ? { allowed: false }
        : {
            allowed: true,
            fee: {
              amount: refundable.reduce((sum, r) => sum + r.fee.amount, 0),
              currency: refundable[0]?.fee.currency,
            },
          },
    );
  });
});

describe("exchange of one slice under its own rule", () => {
  it("when slice 2 of a 3-slice booking is exchanged, then every offer charges slice 2's change fee and the fare difference only, and the balance is charged exactly that", async () => {
    const found = await findFare(slice2OwnFee);
    const { locator, booking } = await issue(found, "Slicenko");
    const fee = changeRule(found.slices[1]).fee as Json;
    const priced = await priceSlice(locator, 1, inDays(found.start + 4));
    expect(priced.status).toBe(200);
    expect(priced.body.slice_rule).toEqual(found.slices[1]);
    const offers = priced.body.offers as Json[];
    expect(offers.length).toBeGreaterThan(0);
    const bookedSupplier = supplierTotal(booking.price_detail);
    for (const o of offers) {
      expect(o.change_fee).toEqual(fee);
      expect(o.fare_difference.amount).toBe(Math.max(0, supplierTotal(o.price_detail) - bookedSupplier));
      expect(o.total_due.amount).toBe(o.fare_difference.amount + fee.amount + o.markup.amount);
      expect(flown(o.flights[0])).toBe(flown(booking.fare.flights[0]));
      expect(flown(o.flights[2])).toBe(flown(booking.fare.flights[2]));
    }
    const offer = offers.reduce((a, b) => (b.total_due.amount > a.total_due.amount ? b : a));
    const before = await balanceFromEvents(t.db, companyId);
    const confirmed = await confirmExchange(agent, locator, offer.reshop_offer_id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.charged).toEqual(offer.total_due);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before - offer.total_due.amount);
    expect((await moneyOf(t.db, locator)).filter((m) => m.reason === "exchange")).toEqual([
      { type: "BalanceCharged", reason: "exchange", amount: offer.total_due.amount },
    ]);
  });

  it("when a slice whose fare allows no change is exchanged, then the slice field answers slice_not_changeable and no offer is kept", async () => {
    const found = await findFare((slices) => slices.some((s) => !changeRule(s).allowed));
    const { locator } = await issue(found, "Nezminenko");
    const fixed = found.slices.findIndex((s) => !changeRule(s).allowed);
    const date = found.slices[fixed] ? inDays(found.start + (fixed === 0 ? 1 : fixed === 1 ? 4 : 8)) : "";
    const priced = await priceSlice(locator, fixed, date);
    expect(priced.status).toBe(422);
    expect(priced.body.errors).toEqual([
      expect.objectContaining({ code: "slice_not_changeable", source: { pointer: "/slice" } }),
    ]);
    const page = await bookingPage(agent, locator, null);
    expect(page.body.data.change_request?.offers ?? []).toEqual([]);
  });

  it("when two exchange confirms of slice 2 race, then exactly one exchanges and slice 2's fee is charged once", async () => {
    const found = await findFare(slice2OwnFee);
    const { locator } = await issue(found, "Perehonenko");
    const priced = await priceSlice(locator, 1, inDays(found.start + 4));
    expect(priced.status).toBe(200);
    const offers = priced.body.offers as Json[];
    const [first] = offers;
    if (!first) throw new Error("no exchange offer");
    const second = offers[1] ?? first;
    const before = await balanceFromEvents(t.db, companyId);
    const answers: HttpResponse[] = await Promise.all([
      confirmExchange(agent, locator, first.reshop_offer_id),
      confirmExchange(agent, locator, second.reshop_offer_id),
    ]);
    for (const a of answers) expect(a.status).toBeLessThan(500);
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    const events = await t.events(`booking-${locator}`);
    expect(events.filter((e) => e.type === "TicketsExchanged")).toHaveLength(1);
    const charged = won[0]?.body.charged.amount as number;
    expect([first.total_due.amount, second.total_due.amount]).toContain(charged);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before - charged);
  });
});

describe("refund of a multi-city booking slice by slice", () => {
  it("when a booking with one non-refundable slice is refunded, then that slice gives none of its fare back, each other slice its fare less its own penalty, and the taxes come back", async () => {
    const found = await findFare(oneNonRefundable);
    const { locator, booking } = await issue(found, "Povernenko");
    const ticket = booking.tickets[0] as Json;
    const quoted = await refundQuote(agent, locator);
    expect(quoted.status).toBe(201);
    const quote = quoted.body.quote as Json;
    const slices = quote.supplier_quote.slices as Json[];
    expect(slices.map((s) => s.slice)).toEqual([0, 1, 2]);
    // The ticket's fare split over the slices, to the unit.
    expect(slices.reduce((sum, s) => sum + s.fare_part.amount, 0)).toBe(ticket.base_fare.amount);
    let fareBack = 0;
    let penalty = 0;
    slices.forEach((s, i) => {
      const rule = refundRule(found.slices[i]);
      expect(s.refundable).toBe(rule.allowed);
      expect(s.brand_name).toBe(found.slices[i]?.brand_name);
      if (!rule.allowed) {
        expect(s.fare_refund.amount).toBe(0);
        expect(s.penalty.amount).toBe(0);
      } else {
        expect(s.fare_refund.amount).toBe(s.fare_part.amount);
        expect(s.penalty.amount).toBe(Math.min(rule.fee.amount, s.fare_part.amount));
      }
      fareBack += s.fare_refund.amount;
      penalty += s.penalty.amount;
    });
    expect(fareBack).toBeLessThan(ticket.base_fare.amount);
    const [line] = quote.lines as Json[];
    expect(line).toMatchObject({
      fare_refund: { amount: fareBack },
      penalty: { amount: penalty },
      taxes_refund: { amount: ticket.taxes.amount },
    });
    expect(line?.refundable.amount).toBe(fareBack - penalty + ticket.taxes.amount);
    expect(quote.penalty.amount).toBe(penalty);

    const before = await balanceFromEvents(t.db, companyId);
    const refunded = await confirmRefund(agent, locator, quote.quote_id);
    expect(refunded.status).toBe(200);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before + quote.refundable.amount);
  });

  it("when two confirms of one slice-by-slice quote race, then one refunds, the other is refused, and the credit is made once", async () => {
    const found = await findFare(oneNonRefundable);
    const { locator } = await issue(found, "Dvichenko");
    const quoted = await refundQuote(agent, locator);
    expect(quoted.status).toBe(201);
    const quote = quoted.body.quote as Json;
    const before = await balanceFromEvents(t.db, companyId);
    const answers: HttpResponse[] = await Promise.all([
      confirmRefund(agent, locator, quote.quote_id),
      confirmRefund(agent, locator, quote.quote_id),
    ]);
    for (const a of answers) expect(a.status).toBeLessThan(500);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const events = await t.events(`booking-${locator}`);
    expect(events.filter((e) => e.type === "TicketsRefunded")).toHaveLength(1);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before + quote.refundable.amount);
  });
});

describe("airline filter of one slice", () => {
  it("when a filter names one slice's airlines, then only that slice must be flown by them; an unknown code answers on its field and changes nothing", async () => {
    const res = await agent.post("/offers", {
      slices: journey(20),
      passengers: { adults: 1, children: 0, infants: 0 },
      carriers: ["PS", "LO", "LH", "OS", "AF"],
    });
    expect(res.status).toBe(200);
    const result = res.body.result as Json;
    const carriersOf = (flight: Json) => new Set((flight.segments as Json[]).map((s) => s.carrier as string));
    const onLot = (od: Json) => [...carriersOf(od.flights[1])].every((c) => c === "LO");
    const expected = (result.origin_destinations as Json[]).filter(onLot).map((od) => od.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(result.origin_destinations.length);
    const filtered = await agent.post("/search_results", {
      search_result_id: result.id,
      filters: { slices: [{ slice: 1, carriers: ["LO"] }] },
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.result.origin_destinations.map((od: Json) => od.id)).toEqual(expected);
    expect(filtered.body.filters).toEqual({ slices: [{ slice: 1, carriers: ["LO"] }] });

    const bad = await agent.post("/search_results", {
      search_result_id: result.id,
      filters: { slices: [{ slice: 1, carriers: ["L0T"] }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toMatch(/^\/filters\/slices\/0\/carriers/);
    const kept = await agent.post("/search_results", { search_result_id: result.id, filters: {} });
    expect(kept.body.filters).toEqual({ slices: [{ slice: 1, carriers: ["LO"] }] });
  });
});
