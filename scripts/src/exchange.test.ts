import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import {
  bookingPage,
  confirmExchange,
  holdFamily,
  issuedFamily,
  pricedExchange,
  startAfterSalesApp,
} from "./testing/after-sales.ts";
import { balanceFromEvents, inDays, moneyOf } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import type { TestApp } from "./testing/test-app.ts";

/** Exchanges (reissue) over real HTTP and PostgreSQL: change request, priced offers, confirm, money, failures. */

let t: TestApp;
let agent: HttpClient;
let companyId: string;

beforeAll(async () => {
  ({ t, agent, companyId } = await startAfterSalesApp());
});
afterAll(() => t.stop());

describe("exchange", () => {
  it("when an agent changes a standard ticket to a later date, then the balance is charged the offer's total once and new 13-digit tickets replace the old", async () => {
    const locator = await issuedFamily(agent, "standard");
    const oldTickets = (await t.events(`booking-${locator}`)).find((e) => e.type === "TicketsIssued")?.data
      .tickets as Json[];
    const priced = await pricedExchange(agent, locator, 28);
    expect(priced.status).toBe(200);
    expect(priced.body.offers.length).toBeGreaterThan(0);
    for (const o of priced.body.offers) {
      expect(o.total_due.amount).toBe(o.fare_difference.amount + o.change_fee.amount + o.markup.amount);
      expect(o.change_fee.amount).toBeGreaterThan(0);
      expect(o.flights[0].departure_at.slice(0, 10)).toBe(inDays(28));
    }
    const [offer] = priced.body.offers;
    const before = await balanceFromEvents(t.db, companyId);
    const confirmed = await confirmExchange(agent, locator, offer.reshop_offer_id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "exchanged", charged: offer.total_due });
    expect(confirmed.body.old_tickets).toEqual(oldTickets.map((x) => x.ticket_number));
    const numbers = confirmed.body.tickets.map((x: Json) => x.ticket_number);
    for (const n of numbers) expect(n).toMatch(/^\d{13}$/);
    expect(numbers).not.toContain(oldTickets[0]?.ticket_number);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before - offer.total_due.amount);
    expect((await moneyOf(t.db, locator)).filter((m) => m.reason === "exchange")).toEqual([
      { type: "BalanceCharged", reason: "exchange", amount: offer.total_due.amount },
    ]);

    const page = await bookingPage(agent, locator, confirmed.body.position);
    expect(page.body.data).toMatchObject({ status: "exchanged", list: "issued", change_request: null });
    expect(page.body.data.tickets.map((x: Json) => x.ticket_number)).toEqual(numbers);
    expect(page.body.data.fare.flights[0].departure_at.slice(0, 10)).toBe(inDays(28));
    expect(page.body.data.history.map((h: Json) => [h.kind, h.outcome])).toEqual([
      ["issue", "done"],
      ["exchange", "done"],
    ]);
    const issuedList = await agent.get("/bookings", { query: { list: "issued", per_page: 100 } });
    expect(issuedList.body.data.find((r: Json) => r.locator === locator)).toMatchObject({
      status: "exchanged",
    });
    // Exchanged tickets can still be refunded, never voided.
    const actions = Object.fromEntries(page.body.data.actions.map((a: Json) => [a.action, a]));
    expect(actions.void).toMatchObject({ allowed: false, reason_code: "not_issued" });
    expect(actions.refund.allowed).toBe(true);
    expect((await agent.post(`/orders/${locator}/refund_requests/create`, {})).status).toBe(201);
  });

  it("when a Flex ticket is priced for an exchange, then each offer names its flights and what its fare loses against Flex (a Light fare: the refund and the changes), on the answer and the booking page", async () => {
    const locator = await issuedFamily(agent, "flex");
    const priced = await pricedExchange(agent, locator, 28);
    expect(priced.status).toBe(200);
    const page = await bookingPage(agent, locator, priced.body.position);
    const kept = page.body.data.change_request.offers as Json[];
    expect(kept.map((o) => o.reshop_offer_id)).toEqual(
      priced.body.offers.map((o: Json) => o.reshop_offer_id),
    );
    for (const offer of kept) {
      const segment = offer.flights[0].segments[0];
      expect(`${segment.carrier} ${segment.flight_number}`).toMatch(/^[A-Z0-9]{2} \d{1,4}$/);
      expect(offer.flights[0].departure_at.slice(0, 10)).toBe(inDays(28));
      const answered = priced.body.offers.find((o: Json) => o.reshop_offer_id === offer.reshop_offer_id);
      expect(answered.losses).toEqual(offer.losses);
    }
    const byBrand = (family: RegExp) => kept.filter((o) => family.test(o.brand_name));
    expect(byBrand(/light/i).length).toBeGreaterThan(0);
    for (const light of byBrand(/light/i))
      expect(light.losses).toEqual([{ kind: "no_refund" }, { kind: "no_changes" }]);
    for (const flex of byBrand(/flex/i)) expect(flex.losses).toEqual([]);
    for (const standard of byBrand(/standard/i))
      expect(standard.losses.map((l: Json) => l.kind)).toEqual(["refund_fee", "change_fee"]);
  });

  it("when the airline fails the reissue (FAILEXCHANGE), then 502, the charge goes back, the old tickets stand and the offers are emptied", async () => {
    const locator = await issuedFamily(agent, "flex", ["FAILEXCHANGE"]);
    const priced = await pricedExchange(agent, locator, 28);
    const offer = priced.body.offers.find((o: Json) => o.total_due.amount > 0) ?? priced.body.offers[0];
    const before = await balanceFromEvents(t.db, companyId);
    const failed = await confirmExchange(agent, locator, offer.reshop_offer_id);
    expect(failed.status).toBe(502);
    expect(await balanceFromEvents(t.db, companyId)).toBe(before);
    const moved = await moneyOf(t.db, locator);
    const exchangeCharges = moved.filter((m) => m.reason === "exchange").reduce((s, m) => s + m.amount, 0);
    const creditsBack = moved.filter((m) => m.reason === "exchange_failed").reduce((s, m) => s + m.amount, 0);
    expect(exchangeCharges).toBe(creditsBack);
    const types = (await t.events(`booking-${locator}`)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(["ExchangeStarted", "ExchangeFailed"]);
    let page = await bookingPage(agent, locator, null);
    for (let i = 0; i < 40 && page.body.data?.change_request?.offers.length !== 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      page = await bookingPage(agent, locator, null);
    }
    expect(page.body.data).toMatchObject({ status: "issued", change_request: { offers: [] } });
    // The offers are gone: confirming the same offer again is refused.
    expect((await confirmExchange(agent, locator, offer.reshop_offer_id)).body.errors[0]).toMatchObject({
      code: "reshop_offer_not_found",
    });
  });

  it("when a light (unchangeable) ticket is priced, then the airline's refusal is answered and the offers are empty", async () => {
    const locator = await issuedFamily(agent, "light");
    const priced = await pricedExchange(agent, locator, 28);
    expect(priced.status).toBe(422);
    expect(priced.body.errors[0]).toMatchObject({ code: "changes_not_permitted" });
    const last = (await t.events(`booking-${locator}`)).at(-1);
    expect(last).toMatchObject({ type: "ReshopOffersPriced", data: { offers: [] } });
  });

  it("when the request is wrong (held booking, no request yet, a return date on a one-way trip, bad dates), then it is refused and 404 for a bad locator", async () => {
    const held = await holdFamily(agent, "flex");
    const create = (locator: string, body: unknown) =>
      agent.post(`/orders/${locator}/flights_change_requests/create`, body);
    expect((await create(held, { departure_date: inDays(28) })).body.errors[0]).toMatchObject({
      code: "not_issued",
    });
    const issued = await issuedFamily(agent, "flex");
    expect((await agent.post(`/orders/${issued}/reshop_offers/price`, {})).body.errors[0]).toMatchObject({
      code: "no_change_request",
    });
    expect((await create(issued, { departure_date: inDays(28), return_date: inDays(30) })).status).toBe(422);
    expect((await create(issued, { departure_date: "2026-02-30" })).status).toBe(422);
    expect((await create(issued, { departure_date: "\u0000" })).status).toBeLessThan(500);
    expect((await create("0OOOOO", { departure_date: inDays(28) })).status).toBe(404);
    expect((await confirmExchange(agent, issued, "nope")).body.errors[0]).toMatchObject({
      code: "reshop_offer_not_found",
    });
  });
});
