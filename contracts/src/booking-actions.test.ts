import { describe, expect, it } from "@jest/globals";
import { type BookingFacts, bookingActions } from "./booking-actions.ts";
import { AUTO_CANCEL_BEFORE_MS } from "./deadline-events.ts";
import type { FarePenalty, Flight, PriceDetail } from "./offers.ts";

const uah = (amount: number) => ({ amount, currency: "UAH" });
const now = new Date("2026-11-21T13:00:00.000Z");
const penalty = (refundFee: number | null, changeFee: number | null): FarePenalty => ({
  change_before_departure: changeFee === null ? { allowed: false } : { allowed: true, fee: uah(changeFee) },
  change_after_departure: { allowed: false },
  refund_before_departure: refundFee === null ? { allowed: false } : { allowed: true, fee: uah(refundFee) },
  refund_after_departure: { allowed: false },
});
const ticket = (i: number) => ({
  ticket_number: `566000000000${i}`,
  passenger_index: i,
  passenger_name: `P${i}`,
  validating_carrier: "PS",
  base_fare: uah(100_00),
  taxes: uah(25_00),
  total: uah(125_00),
});
const markup = { agency_markup: uah(5_00), company_markup: uah(3_00), transaction_fee: uah(2_00) };
const facts = (over: Partial<BookingFacts> = {}): BookingFacts => ({
  status: "issued",
  fake_booking: false,
  provider_status: "confirmed",
  price: uah(270_00),
  price_detail: {
    passengers: [
      { type: "adult", count: 2, base_fare: uah(100_00), taxes: uah(25_00), ...markup, total: uah(135_00) },
    ],
    total: uah(270_00),
  } as PriceDetail,
  time_limit: "2026-11-22T12:00:00.000Z",
  auto_cancel: false,
  void_until: "2026-11-21T21:59:59.000Z",
  operation: null,
  tickets: [ticket(0), ticket(1)],
  passengers: [{ type: "adult" }, { type: "adult" }],
  refunded_passengers: [],
  fare: {
    fare: { penalty: penalty(30_00, 20_00) },
    flights: [{ segments: [{ departure_at: "2026-12-01T08:00:00+02:00" }] } as Flight],
  },
  ancillaries: [],
  ...over,
});
const byName = (f: BookingFacts, at = now) =>
  Object.fromEntries(bookingActions(f, at).map((a) => [a.action, a]));

describe("what can I do now", () => {
  it("given issued tickets inside the void window, then void gives the price back until the window closes, refund and exchange are estimated from the fare rules", () => {
    const a = byName(facts());
    expect(a.void).toMatchObject({ allowed: true, deadline: "2026-11-21T21:59:59.000Z", money: uah(270_00) });
    // Per ticket: fare 100 - penalty 30 + taxes 25; our markups are kept.
    expect(a.refund).toMatchObject({ allowed: true, estimate: true, money: uah(2 * 95_00) });
    expect(a.exchange).toMatchObject({ allowed: true, estimate: true, money: uah(2 * 20_00) });
    expect(a.exchange?.deadline).toBe("2026-12-01T08:00:00+02:00");
    expect(a.issue).toMatchObject({ allowed: false, reason_code: "not_held" });
  });

  it("given EMDs bought and one refunded, then void gives back the charge less that refund: tickets and open EMDs only", () => {
    const lines = [
      { status: "issued", price: uah(40_00) },
      { status: "refunded", price: uah(30_00) },
      { status: "pending", price: uah(7_00) },
      { status: "assigned", price: uah(0) },
      // Added while held and never issued: the issue did not charge it.
      { status: "held", price: uah(11_00) },
    ];
    expect(byName(facts({ ancillaries: lines })).void?.money).toEqual(uah(270_00 + 40_00 + 7_00));
  });

  it("given the void window has closed, then void says why and points to refund", () => {
    const a = byName(facts({ void_until: "2026-11-21T12:00:00.000Z" }));
    expect(a.void).toMatchObject({ allowed: false, reason_code: "void_window_closed" });
    expect(a.void?.reason).toMatch(/refund/);
  });

  it("given a non-refundable, unchangeable fare, then refund gives back the taxes only and exchange is refused with its reason", () => {
    const a = byName(facts({ fare: { ...facts().fare, fare: { penalty: penalty(null, null) } } }));
    expect(a.refund).toMatchObject({ allowed: true, money: uah(2 * 25_00) });
    expect(a.exchange).toMatchObject({ allowed: false, reason_code: "changes_not_permitted" });
  });

  it("given a held booking, then issue charges the price until the time limit and cancel is allowed; past the limit, issue says why", () => {
    const held = facts({ status: "held", tickets: [], void_until: null });
    const a = byName(held);
    expect(a.issue).toMatchObject({
      allowed: true,
      deadline: "2026-11-22T12:00:00.000Z",
      money: uah(270_00),
    });
    expect(a.cancel).toMatchObject({ allowed: true });
    expect(a.refund).toMatchObject({ allowed: false, reason_code: "not_issued" });
    expect(byName(held, new Date("2026-11-22T12:00:01.000Z")).issue).toMatchObject({
      allowed: false,
      reason_code: "time_limit_passed",
    });
  });

  it("given the agency cancels held bookings automatically, then issue, cancel and bags end at that moment, before the airline's time limit", () => {
    const a = byName(facts({ status: "held", tickets: [], void_until: null, auto_cancel: true }));
    const lost = new Date(Date.parse("2026-11-22T12:00:00.000Z") - AUTO_CANCEL_BEFORE_MS).toISOString();
    expect(a.issue).toMatchObject({ allowed: true, deadline: lost });
    expect(a.cancel).toMatchObject({ allowed: true, deadline: lost });
    expect(a.add_bags).toMatchObject({ allowed: true, deadline: lost });
  });

  it("given the airline failed the booking, then nothing is offered and issue and cancel say why", () => {
    const a = byName(
      facts({ status: "cancelled", provider_status: "failed", tickets: [], void_until: null }),
    );
    expect(Object.values(a).filter((x) => x.allowed)).toEqual([]);
    expect(a.issue?.reason_code).toBe("provider_failed");
    expect(a.cancel?.reason_code).toBe("provider_failed");
  });

  it("given an operation in flight, a partial refund, a departed journey or a demo booking, then each refusal names its reason", () => {
    expect(byName(facts({ operation: { kind: "refund" } })).void?.reason_code).toBe("operation_in_progress");
    const partly = byName(facts({ refunded_passengers: [1] }));
    expect(partly.void?.reason_code).toBe("partly_refunded");
    expect(partly.exchange?.reason_code).toBe("partly_refunded");
    expect(partly.refund?.money).toEqual(uah(95_00));
    expect(byName(facts(), new Date("2026-12-02T00:00:00.000Z")).refund?.reason_code).toBe("departed");
    expect(byName(facts({ fake_booking: true })).exchange?.reason_code).toBe("not_exchangeable");
    for (const action of bookingActions(facts({ status: "refunded" }), now))
      expect(action).toMatchObject({ allowed: false, reason: expect.any(String) });
  });
});
