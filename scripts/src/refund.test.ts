import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { SandboxSupplier } from "@skyward/command-service/suppliers/sandbox/sandbox-supplier";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import {
  bookingPage,
  confirmRefund,
  holdFamily,
  issuedFamily,
  refundQuote,
  startAfterSalesApp,
} from "./testing/after-sales.ts";
import { balanceFromEvents, moneyOf } from "./testing/bookings.ts";
import type { HttpClient, Json } from "./testing/http-client.ts";
import type { TestApp } from "./testing/test-app.ts";

/** Refunds over real HTTP and PostgreSQL: quote, confirm, money, the booking page, and every way a client can err. */

let t: TestApp;
let agent: HttpClient;
let companyId: string;
/** The app's clock runs this far ahead of the wall clock: a test moves it to expire a quote. */
let clockAhead = 0;

/** The sandbox airline, counting the refund quotes it is asked for (a stale confirm must ask none). */
class CountingSandbox extends SandboxSupplier {
  refundQuotes = 0;
  override refundQuote(...args: Parameters<SandboxSupplier["refundQuote"]>) {
    this.refundQuotes++;
    return super.refundQuote(...args);
  }
}
const airline = new CountingSandbox();

beforeAll(async () => {
  ({ t, agent, companyId } = await startAfterSalesApp({
    now: () => new Date(Date.now() + clockAhead),
    supplier: airline,
  }));
});
afterAll(() => t.stop());

const sum = (lines: Json[], key: string) => lines.reduce((s, l) => s + l[key].amount, 0);

describe("refund quote", () => {
  it("when a standard ticket is quoted, then the penalty is kept, the taxes come back, and our markups show as kept", async () => {
    const locator = await issuedFamily(agent, "standard");
    const quote = await refundQuote(agent, locator);
    expect(quote.status).toBe(201);
    const q = quote.body.quote;
    expect(q.lines).toHaveLength(1);
    const [line] = q.lines;
    const issued = (await t.events(`booking-${locator}`)).find((e) => e.type === "TicketsIssued");
    if (!issued) throw new Error(`no TicketsIssued on booking ${locator}`);
    const [ticket] = issued.data.tickets as Json[];
    expect(line.ticket_number).toBe(ticket.ticket_number);
    expect(line.penalty.amount).toBeGreaterThan(0);
    expect(line.taxes_refund).toEqual(ticket.taxes);
    expect(line.refundable.amount).toBe(
      line.fare_refund.amount - line.penalty.amount + line.taxes_refund.amount,
    );
    expect(q.refundable.amount).toBe(sum(q.lines, "refundable"));
    expect(line.non_refundable.currency).toBe("UAH");
    expect(Date.parse(q.expires_at)).toBeGreaterThan(Date.now());
  });

  it("when a light (non-refundable) ticket is quoted, then only its taxes come back", async () => {
    const locator = await issuedFamily(agent, "light");
    const { body } = await refundQuote(agent, locator);
    const [line] = body.quote.lines;
    expect(line.fare_refund.amount).toBe(0);
    expect(line.penalty.amount).toBe(0);
    expect(line.refundable).toEqual(line.taxes_refund);
  });

  it("when a held booking, an unknown passenger or a bad body is quoted, then it is refused and nothing is written", async () => {
    const held = await holdFamily(agent, "flex");
    const before = await t.countEventsButBackground();
    expect((await refundQuote(agent, held)).body.errors[0]).toMatchObject({ code: "not_issued" });
    const issued = await issuedFamily(agent, "flex");
    const afterIssue = await t.countEventsButBackground();
    expect((await refundQuote(agent, issued, [3])).body.errors[0]).toMatchObject({ code: "no_such_ticket" });
    const bad = await agent.post(`/orders/${issued}/refund_requests/create`, { passengers: ["x\u0000"] });
    expect([400, 422]).toContain(bad.status);
    expect((await agent.post("/orders/NOPE!!/refund_requests/create", {})).status).toBe(404);
    expect(afterIssue - before).toBeGreaterThan(0);
    expect(await t.countEventsButBackground()).toBe(afterIssue);
  });
});

describe("refund confirm", () => {
  it("when an agent confirms a quote, then the airline refunds, the balance gets the quoted amount once, and the booking leaves the open lists", async () => {
    const locator = await issuedFamily(agent, "flex");
    const balanceBefore = await balanceFromEvents(t.db, companyId);
    const { body } = await refundQuote(agent, locator);
    const confirmed = await confirmRefund(agent, locator, body.quote.quote_id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "refunded", credited: body.quote.refundable });
    expect(await balanceFromEvents(t.db, companyId)).toBe(balanceBefore + body.quote.refundable.amount);
    const moved = await moneyOf(t.db, locator);
    expect(moved.filter((m) => m.reason === "refund")).toEqual([
      { type: "BalanceCredited", reason: "refund", amount: body.quote.refundable.amount },
    ]);
    // The refund never gives back more than the issue charged.
    const charged = moved.filter((m) => m.type === "BalanceCharged").reduce((s, m) => s + m.amount, 0);
    expect(body.quote.refundable.amount).toBeLessThanOrEqual(charged);

    const page = await bookingPage(agent, locator, confirmed.body.position);
    expect(page.body.data).toMatchObject({ status: "refunded", list: "refunded", refunded_passengers: [0] });
    expect(page.body.data.history.map((h: Json) => [h.kind, h.outcome])).toEqual([
      ["issue", "done"],
      ["refund", "done"],
    ]);
    expect(page.body.data.history[1].balance_effect).toEqual({
      amount: -body.quote.refundable.amount,
      currency: "UAH",
    });
    const open = await agent.get("/bookings", { query: { list: "issued", per_page: 100 } });
    expect(open.body.data.map((r: Json) => r.locator)).not.toContain(locator);
    const refunded = await agent.get("/bookings", { query: { list: "refunded", per_page: 100 } });
    expect(refunded.body.data.map((r: Json) => r.locator)).toContain(locator);
    // Confirming it again changes nothing.
    const again = await confirmRefund(agent, locator, body.quote.quote_id);
    expect(again.body.errors[0]).toMatchObject({ status: "422", code: "not_issued" });
    expect((await moneyOf(t.db, locator)).filter((m) => m.reason === "refund")).toHaveLength(1);
  });

  it("when one of two passengers is refunded, then the other keeps the ticket, the booking stays issued, and void is no longer offered", async () => {
    const locator = await issuedFamily(agent, "standard", ["Kovalenko", "Melnyk"]);
    const first = await refundQuote(agent, locator, [1]);
    expect(first.body.quote.lines.map((l: Json) => l.passenger_index)).toEqual([1]);
    const done = await confirmRefund(agent, locator, first.body.quote.quote_id);
    expect(done.body).toMatchObject({ status: "issued", refunded_passengers: [1] });
    const page = await bookingPage(agent, locator, done.body.position);
    expect(page.body.data).toMatchObject({ status: "issued", list: "issued", refunded_passengers: [1] });
    const actions = Object.fromEntries(page.body.data.actions.map((a: Json) => [a.action, a]));
    expect(actions.void).toMatchObject({ allowed: false, reason_code: "partly_refunded" });
    expect(actions.refund).toMatchObject({ allowed: true, estimate: true });
    expect((await agent.delete(`/bookings/${locator}`)).body.errors[0]).toMatchObject({
      code: "partly_refunded",
    });

    const rest = await refundQuote(agent, locator);
    expect(rest.body.quote.lines.map((l: Json) => l.passenger_index)).toEqual([0]);
    const last = await confirmRefund(agent, locator, rest.body.quote.quote_id);
    expect(last.body).toMatchObject({ status: "refunded", refunded_passengers: [1, 0] });
    const moved = await moneyOf(t.db, locator);
    const credited = moved.filter((m) => m.reason === "refund").reduce((s, m) => s + m.amount, 0);
    const charged = moved.filter((m) => m.type === "BalanceCharged").reduce((s, m) => s + m.amount, 0);
    expect(credited).toBe(first.body.quote.refundable.amount + rest.body.quote.refundable.amount);
    expect(credited).toBeLessThanOrEqual(charged);
  });

  it("when a quote has expired, then confirm answers why with a fresh quote, which can be confirmed", async () => {
    const locator = await issuedFamily(agent, "flex");
    const { body } = await refundQuote(agent, locator);
    clockAhead = 31 * 60_000;
    try {
      const stale = await confirmRefund(agent, locator, body.quote.quote_id);
      expect(stale.status).toBe(409);
      expect(stale.body.errors[0]).toMatchObject({ code: "refund_quote_expired" });
      expect(stale.body.quote.quote_id).not.toBe(body.quote.quote_id);
      expect(Date.parse(stale.body.quote.expires_at)).toBeGreaterThan(Date.now() + clockAhead);
      expect(await moneyOf(t.db, locator)).toHaveLength(1);
      const confirmed = await confirmRefund(agent, locator, stale.body.quote.quote_id);
      expect(confirmed.status).toBe(200);
    } finally {
      clockAhead = 0;
    }
  });

  it("when the older of two quotes is confirmed, then 409 with the current quote unchanged, no airline call and no event, and the current quote still confirms; with no quote held, 422 refund_quote_not_found", async () => {
    const locator = await issuedFamily(agent, "flex");
    const older = (await refundQuote(agent, locator)).body.quote;
    const second = await refundQuote(agent, locator);
    const current = second.body.quote;
    expect(current.quote_id).not.toBe(older.quote_id);
    const events = await t.countEventsButBackground();
    const asked = airline.refundQuotes;

    for (const quoteId of [older.quote_id, "no-such-quote"]) {
      const stale = await confirmRefund(agent, locator, quoteId);
      expect(stale.status).toBe(409);
      expect(stale.body.errors[0]).toMatchObject({ code: "refund_quote_changed" });
      expect(stale.body.quote).toEqual(current);
    }
    expect(airline.refundQuotes).toBe(asked);
    expect(await t.countEventsButBackground()).toBe(events);
    expect((await bookingPage(agent, locator, second.body.position)).body.data.refund_quote).toEqual(current);

    const confirmed = await confirmRefund(agent, locator, current.quote_id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "refunded", credited: current.refundable });
    const afterRefund = await t.countEventsButBackground();
    const gone = await confirmRefund(agent, locator, older.quote_id);
    expect(gone.status).toBe(422);
    expect(gone.body.errors[0].code).toMatch(/^(refund_quote_not_found|not_issued)$/);

    // An issued booking never quoted: nothing to confirm.
    const unquoted = await issuedFamily(agent, "flex");
    const before = await t.countEventsButBackground();
    const none = await confirmRefund(agent, unquoted, "no-such-quote");
    expect(none.status).toBe(422);
    expect(none.body.errors[0]).toMatchObject({ code: "refund_quote_not_found" });
    expect(none.body.quote).toBeUndefined();
    expect(await t.countEventsButBackground()).toBe(before);
    expect(afterRefund).toBeGreaterThan(events);
  });

  it("when the airline fails the refund (FAILREFUND), then 502, nothing is credited, and the tickets stay open", async () => {
    const locator = await issuedFamily(agent, "flex", ["FAILREFUND"]);
    const { body } = await refundQuote(agent, locator);
    const failed = await confirmRefund(agent, locator, body.quote.quote_id);
    expect(failed.status).toBe(502);
    expect(failed.body.errors[0]).toMatchObject({ code: "supplier_unavailable" });
    expect((await moneyOf(t.db, locator)).filter((m) => m.type === "BalanceCredited")).toEqual([]);
    const types = (await t.events(`booking-${locator}`)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(["RefundStarted", "RefundFailed"]);
    expect((await refundQuote(agent, locator)).status).toBe(201);
  });

  it("when another company's agent quotes or confirms, then 404 and nothing is written", async () => {
    const locator = await issuedFamily(agent, "flex");
    const { body } = await refundQuote(agent, locator);
    const stranger = t.client();
    await stranger.signInWithPassword("agent@vistula.test", DEMO_PASSWORD);
    const before = await t.countEventsButBackground();
    expect((await refundQuote(stranger, locator)).status).toBe(404);
    expect((await confirmRefund(stranger, locator, body.quote.quote_id)).status).toBe(404);
    expect(await t.countEventsButBackground()).toBe(before);
  });

  it("when a demo user refunds its fake booking, then it is refunded from the fare rules and no money moves", async () => {
    const demo = t.client();
    await demo.signIn("demo@skyward.test");
    const locator = await holdFamily(demo, "standard");
    expect((await demo.post("/bookings/issue", { locator })).status).toBe(201);
    const { body } = await refundQuote(demo, locator);
    expect(body.quote.supplier_quote).toBeNull();
    expect(body.quote.lines[0].penalty.amount).toBeGreaterThan(0);
    const confirmed = await confirmRefund(demo, locator, body.quote.quote_id);
    expect(confirmed.body).toMatchObject({ status: "refunded", credited: null });
    expect(await moneyOf(t.db, locator)).toEqual([]);
  });
});
