import { describe, expect, it } from "@jest/globals";
import { BookingEvent, type BookingEventInput, type BookingHeld } from "@skyward/contracts/booking-events";
import type { ClaimCard, PaymentChoice } from "@skyward/contracts/cards";
import type { PriceDetail } from "@skyward/contracts/offers";
import type { SupplierBooking } from "@skyward/contracts/supplier";
import { heldBooking } from "../testing/booking-fixture.ts";
import { deciderKit } from "../testing/decider-kit.ts";
import {
  type BookingCommand,
  type BookingState,
  decide,
  evolve,
  initialBooking,
  voidUntil,
} from "./booking.ts";

const price = { amount: 250_00, currency: "UAH" };
const held = heldBooking();
const now = new Date("2026-11-21T13:00:00.000Z");
const at = now.toISOString();
const op = "op-1";

const Held = (data: Partial<BookingHeld> = {}): BookingEvent => ({
  type: "BookingHeld",
  data: { ...held, ...data },
});
const Started = (charged = price): BookingEvent => ({
  type: "TicketingStarted",
  data: { operation_id: op, at, charged, paid_by: { method: "balance" } },
});
/** The channel's card as a claim reads it; `now` is 2026-11-21, so 11/2026 is its last valid month. */
const card = (extra: Partial<ClaimCard> = {}): ClaimCard => ({
  card_id: "card-1",
  status: "active",
  brand: "visa",
  last4: "4242",
  exp_month: 11,
  exp_year: 2026,
  ...extra,
});
const byCard = { method: "card", card_id: "card-1", brand: "visa", last4: "4242" } as const;
const Issued = (void_until: string | null = "2026-11-21T23:59:59.000Z"): BookingEvent => ({
  type: "TicketsIssued",
  data: { operation_id: op, tickets: [], issued_at: at, void_until, supplier_booking: null },
});

/** given events, when a command, thenEvents: these events (each valid by the contract) or this error code. */
const { given } = deciderKit<BookingCommand, BookingState, BookingEvent, BookingEventInput>({
  decide,
  evolve,
  initial: initialBooking,
  // The fixture's fare and price detail are left empty: those two are checked where they are built.
  check: (e) => {
    if (e.type !== "BookingHeld" && e.type !== "BookingRepriced") BookingEvent.parse(e);
  },
});

const startIssue = (
  extra: Partial<Extract<BookingCommand, { type: "StartIssue" }>> = {},
): BookingCommand => ({
  type: "StartIssue",
  operation_id: op,
  now,
  payment: { method: "balance" },
  accept_pending_price: false,
  ...extra,
});

describe("holding", () => {
  it("given no booking, when held, then BookingHeld; given one, the locator is taken", () => {
    given()
      .when({ type: "HoldBooking", held })
      .thenEvents([{ type: "BookingHeld", data: held }]);
    given(Held()).when({ type: "HoldBooking", held }).thenRefused("locator_taken", 409);
  });
});

describe("issuing a booking", () => {
  it("given a held booking, when issue starts, then TicketingStarted charges the booking price", () => {
    given(Held())
      .when(startIssue())
      .thenEvents([
        {
          type: "TicketingStarted",
          data: { operation_id: op, at, charged: price, paid_by: { method: "balance" } },
        },
      ]);
  });

  it("given a fake booking or a card form of payment, when issue starts, then no money moves and the card is recorded", () => {
    given(Held({ fake_booking: true }))
      .when(startIssue())
      .thenEvents([
        {
          type: "TicketingStarted",
          data: { operation_id: op, at, charged: null, paid_by: { method: "balance" } },
        },
      ]);
    given(Held())
      .when(startIssue({ payment: { method: "card", card: card() } }))
      .thenEvents([
        { type: "TicketingStarted", data: { operation_id: op, at, charged: null, paid_by: byCard } },
      ]);
  });

  it("given a channel paying by a card that expired, was deleted or is missing, when issue starts, then it is refused", () => {
    given(Held())
      .when(startIssue({ payment: { method: "card", card: card({ exp_month: 10 }) } }))
      .thenRefused("card_expired", 422);
    given(Held())
      .when(startIssue({ payment: { method: "card", card: card({ exp_month: 12, exp_year: 2025 }) } }))
      .thenRefused("card_expired", 422);
    given(Held())
      .when(startIssue({ payment: { method: "card", card: card({ status: "deleted" }) } }))
      .thenRefused("card_missing", 422);
    given(Held())
      .when(startIssue({ payment: { method: "card", card: null } }))
      .thenRefused("card_missing", 422);
  });

  it("given a booking being issued, when issue starts again, then it is refused as a conflict", () => {
    given(Held(), Started())
      .when(startIssue({ operation_id: "op-2" }))
      .thenRefused("issue_in_progress", 409);
  });

  it("given an issued, expired, past-limit, unconfirmed or repriced booking, when issue starts, then it is refused", () => {
    given(Held(), Started(), Issued()).when(startIssue()).thenRefused("already_issued", 422);
    given(Held(), { type: "BookingExpired", data: { at } })
      .when(startIssue())
      .thenRefused("booking_expired", 422);
    given(Held({ time_limit: "2026-11-21T12:30:00.000Z" }))
      .when(startIssue())
      .thenRefused("time_limit_passed", 422);
    given(Held({ provider_status: "in_progress" }))
      .when(startIssue())
      .thenRefused("provider_in_progress", 422);
    const newPrice = { amount: 270_00, currency: "UAH" };
    const changed: BookingEvent = {
      type: "BookingPriceChanged",
      data: {
        old_price: price,
        new_price: newPrice,
        new_price_detail: {} as PriceDetail,
        supplier_price: null,
      },
    };
    given(Held(), changed).when(startIssue()).thenRefused("price_changed", 422);
    given(Held(), changed)
      .when(startIssue({ accept_pending_price: true }))
      .thenEvents([
        {
          type: "BookingRepriced",
          data: { price: newPrice, price_detail: {} as PriceDetail, supplier_booking: null },
        },
        {
          type: "TicketingStarted",
          data: { operation_id: op, at, charged: newPrice, paid_by: { method: "balance" } },
        },
      ]);
  });

  it("given an issue in flight, when the supplier tickets, then TicketsIssued names the operation", () => {
    const done = { tickets: [], issued_at: at, void_until: null, supplier_booking: null };
    given(Held(), Started())
      .when({ type: "RecordIssueOutcome", operation_id: op, outcome: { ok: true, done } })
      .thenEvents([{ type: "TicketsIssued", data: { operation_id: op, ...done } }]);
  });

  it("given an issue in flight, when the supplier refuses, then TicketingFailed credits the charge back", () => {
    given(Held(), Started())
      .when({
        type: "RecordIssueOutcome",
        operation_id: op,
        outcome: { ok: false, code: "supplier_unavailable", reason: "timeout" },
      })
      .thenEvents([
        {
          type: "TicketingFailed",
          data: { operation_id: op, code: "supplier_unavailable", reason: "timeout", credited: price },
        },
      ]);
  });

  it("given an outcome already recorded or another operation's, when recorded again, then nothing is written", () => {
    const outcome = { ok: false as const, code: "x", reason: "y" };
    given(Held(), Started(), Issued())
      .when({ type: "RecordIssueOutcome", operation_id: op, outcome })
      .thenEvents([]);
    given(Held(), Started())
      .when({ type: "RecordIssueOutcome", operation_id: "other", outcome })
      .thenEvents([]);
  });
});

describe("what may run while an operation is in flight", () => {
  it("given an issue in flight, then a comment and a contact change are accepted", () => {
    given(Held(), Started())
      .when({ type: "CommentBooking", comment: "call back", now, by: "u1" })
      .thenEvents([{ type: "BookingCommented", data: { comment: "call back", at, by: "u1" } }]);
    given(Held(), Started())
      .when({ type: "ModifyBooking", change: { contacts: { phone: "+380501112299" } } })
      .thenEvents([{ type: "BookingModified", data: { contacts: { phone: "+380501112299" } } }]);
  });

  it("given an issue in flight, then cancel, reprice, a document change and expiry are refused with 409", () => {
    const inFlight = () => given(Held({ time_limit: "2026-11-21T12:30:00.000Z" }), Started());
    inFlight().when({ type: "StartCancel", operation_id: "op-2", now }).thenRefused("issue_in_progress", 409);
    inFlight()
      .when({ type: "RepriceBooking", price, price_detail: {} as PriceDetail, supplier_booking: null })
      .thenRefused("issue_in_progress", 409);
    const document = {
      type: "passport" as const,
      number: "AB12345",
      issuing_country: "UA",
      nationality: "UA",
      expires_on: "2030-01-01",
    };
    inFlight()
      .when({ type: "ModifyBooking", change: { passengers: [{ index: 0, document }] } })
      .thenRefused("issue_in_progress", 409);
    inFlight().when({ type: "ExpireBooking", now }).thenRefused("issue_in_progress", 409);
  });

  it("given a void in flight, then another void is refused with 409", () => {
    const voidStarted: BookingEvent = { type: "VoidStarted", data: { operation_id: "v1", at } };
    given(Held(), Started(), Issued(), voidStarted)
      .when({ type: "StartVoid", operation_id: "v2", now })
      .thenRefused("operation_in_progress", 409);
  });
});

describe("modifying a booking", () => {
  it("given a held booking, when a change carries nothing or the booking's own contacts, then it is refused with 422 nothing_to_change", () => {
    given(Held()).when({ type: "ModifyBooking", change: {} }).thenRefused("nothing_to_change", 422);
    given(Held())
      .when({ type: "ModifyBooking", change: { contacts: {}, passengers: [] } })
      .thenRefused("nothing_to_change", 422);
    given(Held())
      .when({ type: "ModifyBooking", change: { contacts: { phone: "+380501112233" } } })
      .thenRefused("nothing_to_change", 422);
    given(Held())
      .when({ type: "ModifyBooking", change: { contacts: { email: "a@b.test", phone: "+380501112299" } } })
      .thenEvents([
        { type: "BookingModified", data: { contacts: { email: "a@b.test", phone: "+380501112299" } } },
      ]);
  });
});

describe("voiding and cancelling", () => {
  it("given issued tickets inside the void window, when voided and the supplier voids, then the charge is credited", () => {
    given(Held(), Started(), Issued())
      .when({ type: "StartVoid", operation_id: "v1", now })
      .thenEvents([{ type: "VoidStarted", data: { operation_id: "v1", at } }]);
    given(Held(), Started(), Issued(), { type: "VoidStarted", data: { operation_id: "v1", at } })
      .when({ type: "RecordVoidOutcome", operation_id: "v1", now, outcome: { ok: true, done: null } })
      .thenEvents([{ type: "BookingVoided", data: { operation_id: "v1", at, credited: price } }]);
  });

  it("given a void the supplier refused, then VoidFailed and the tickets stay issued and voidable", () => {
    const started: BookingEvent = { type: "VoidStarted", data: { operation_id: "v1", at } };
    given(Held(), Started(), Issued(), started)
      .when({
        type: "RecordVoidOutcome",
        operation_id: "v1",
        now,
        outcome: { ok: false, code: "void_window_closed", reason: "closed" },
      })
      .thenEvents([
        { type: "VoidFailed", data: { operation_id: "v1", code: "void_window_closed", reason: "closed" } },
      ]);
    const failed: BookingEvent = {
      type: "VoidFailed",
      data: { operation_id: "v1", code: "void_window_closed", reason: "closed", credited: null },
    };
    given(Held(), Started(), Issued(), started, failed)
      .when({ type: "StartVoid", operation_id: "v2", now })
      .thenEvents([{ type: "VoidStarted", data: { operation_id: "v2", at } }]);
  });

  it("given issued tickets after the void window, or held ones, when voided, then it is refused", () => {
    given(Held(), Started(), Issued("2026-11-21T12:59:00.000Z"))
      .when({ type: "StartVoid", operation_id: "v1", now })
      .thenRefused("void_window_closed", 422);
    given(Held()).when({ type: "StartVoid", operation_id: "v1", now }).thenRefused("not_issued", 422);
  });

  it("given the supplier's booking recorded at issue, then the booking keeps it for a later void", () => {
    const supplierBooking = { supplier_locator: "SUP123", status: "issued" } as SupplierBooking;
    const issued: BookingEvent = {
      type: "TicketsIssued",
      data: {
        operation_id: op,
        tickets: [],
        issued_at: at,
        void_until: null,
        supplier_booking: supplierBooking,
      },
    };
    const state = [Held(), Started(), issued].reduce(evolve, initialBooking);
    expect(state.status === "issued" && state.supplier_booking).toEqual(supplierBooking);
  });

  it("given a low-cost carrier, then there is no void window", () => {
    expect(voidUntil(now, 24, true)).toBeNull();
    expect(voidUntil(now, 24, false)?.toISOString()).toBe("2026-11-21T23:59:59.000Z");
    expect(voidUntil(now, 2, false)?.toISOString()).toBe("2026-11-21T15:00:00.000Z");
  });

  it("given a held booking, when cancelled, then CancelStarted then BookingCancelled; an issued one is refused", () => {
    given(Held())
      .when({ type: "StartCancel", operation_id: "c1", now })
      .thenEvents([{ type: "CancelStarted", data: { operation_id: "c1", at } }]);
    given(Held(), { type: "CancelStarted", data: { operation_id: "c1", at } })
      .when({ type: "RecordCancelOutcome", operation_id: "c1", now, outcome: { ok: true, done: null } })
      .thenEvents([{ type: "BookingCancelled", data: { operation_id: "c1", at } }]);
    given(Held(), Started(), Issued())
      .when({ type: "StartCancel", operation_id: "c1", now })
      .thenRefused("not_held", 422);
  });

  it("given a held booking past its time limit, when the expiry runs, then it expires; before it, nothing", () => {
    given(Held({ time_limit: "2026-11-21T12:30:00.000Z" }))
      .when({ type: "ExpireBooking", now })
      .thenEvents([{ type: "BookingExpired", data: { at } }]);
    given(Held()).when({ type: "ExpireBooking", now }).thenEvents([]);
  });
});

describe("after sales: refund", () => {
  const uah = (amount: number) => ({ amount, currency: "UAH" });
  const ticket = (i: number) => ({
    ticket_number: `566000000000${i}`,
    passenger_index: i,
    passenger_name: `P${i}`,
    validating_carrier: "PS",
    base_fare: uah(100_00),
    taxes: uah(25_00),
    total: uah(125_00),
  });
  const paxLine = {
    type: "adult" as const,
    count: 2,
    base_fare: uah(100_00),
    taxes: uah(25_00),
    agency_markup: uah(0),
    company_markup: uah(0),
    transaction_fee: uah(0),
    total: uah(125_00),
  };
  const two = {
    price: uah(250_00),
    price_detail: { passengers: [paxLine] } as PriceDetail,
    passengers: [{ type: "adult" }, { type: "adult" }] as BookingHeld["passengers"],
    fare: { ...held.fare, flights: [] },
  };
  const IssuedTwo: BookingEvent = {
    type: "TicketsIssued",
    data: {
      operation_id: op,
      tickets: [ticket(0), ticket(1)],
      issued_at: at,
      void_until: null,
      supplier_booking: null,
    },
  };
  const line = (i: number, refundable = 110_00) => ({
    passenger_index: i,
    ticket_number: ticket(i).ticket_number,
    fare_refund: uah(100_00),
    taxes_refund: uah(25_00),
    penalty: uah(15_00),
    non_refundable: uah(0),
    refundable: uah(refundable),
  });
  const quote = (lines = [line(1)], expires_at = "2026-11-21T13:30:00.000Z") => ({
    quote_id: "q1",
    lines,
    penalty: uah(15_00 * lines.length),
    non_refundable: uah(0),
    refundable: uah(lines.reduce((s, l) => s + l.refundable.amount, 0)),
    created_at: at,
    expires_at,
    supplier_quote: null,
  });
  const Quoted = (q = quote()): BookingEvent => ({ type: "RefundQuoted", data: q });
  const RefundStarted: BookingEvent = {
    type: "RefundStarted",
    data: { operation_id: "r1", at, quote_id: "q1" },
  };
  const refunded = { ok: true as const, done: { supplier_booking: null } };

  it("given issued tickets, when a quote is recorded, then RefundQuoted; a quote above what was paid is refused", () => {
    given(Held(two), Started(uah(250_00)), IssuedTwo)
      .when({ type: "QuoteRefund", quote: quote(), now })
      .thenEvents([{ type: "RefundQuoted", data: quote() }]);
    given(Held(two), Started(uah(250_00)), IssuedTwo)
      .when({ type: "QuoteRefund", quote: quote([line(1, 126_00)]), now })
      .thenRefused("refund_exceeds_charge", 422);
    given(Held(two)).when({ type: "QuoteRefund", quote: quote(), now }).thenRefused("not_issued", 422);
  });

  it("given a quote, when confirmed, then RefundStarted; then the outcome credits the quoted amount once", () => {
    given(Held(two), Started(uah(250_00)), IssuedTwo, Quoted())
      .when({ type: "StartRefund", operation_id: "r1", quote_id: "q1", now })
      .thenEvents([RefundStarted]);
    given(Held(two), Started(uah(250_00)), IssuedTwo, Quoted(), RefundStarted)
      .when({ type: "RecordRefundOutcome", operation_id: "r1", now, outcome: refunded })
      .thenEvents([
        {
          type: "TicketsRefunded",
          data: {
            operation_id: "r1",
            at,
            quote_id: "q1",
            lines: [line(1)],
            credited: uah(110_00),
            supplier_booking: null,
          },
        },
      ]);
  });

  it("given a refund being confirmed, when confirmed again or voided, then refused as in progress; recorded twice, once", () => {
    const state = [Held(two), Started(uah(250_00)), IssuedTwo, Quoted(), RefundStarted] as const;
    given(...state)
      .when({ type: "StartRefund", operation_id: "r2", quote_id: "q1", now })
      .thenRefused("operation_in_progress", 409);
    given(...state)
      .when({ type: "StartVoid", operation_id: "v1", now })
      .thenRefused("operation_in_progress", 409);
    given(...state)
      .when({ type: "CommentBooking", comment: "meanwhile", now, by: null })
      .thenEvents([{ type: "BookingCommented", data: { comment: "meanwhile", at, by: null } }]);
    const done = [...state, evolveOutcome(state)];
    given(...done)
      .when({ type: "RecordRefundOutcome", operation_id: "r1", now, outcome: refunded })
      .thenEvents([]);
    given(...done)
      .when({ type: "StartRefund", operation_id: "r3", quote_id: "q1", now })
      .thenRefused("refund_quote_not_found", 422);
  });

  function evolveOutcome(events: readonly BookingEvent[]): BookingEvent {
    const state = events.reduce(evolve, initialBooking);
    const [e] = decide({ type: "RecordRefundOutcome", operation_id: "r1", now, outcome: refunded }, state);
    return BookingEvent.parse(e);
  }

  it("given a partial refund, then the booking stays issued, cannot be voided, and the last ticket makes it refunded", () => {
    const partly = [Held(two), Started(uah(250_00)), IssuedTwo, Quoted(), RefundStarted];
    const afterFirst = [...partly, evolveOutcome(partly)];
    const state = afterFirst.reduce(evolve, initialBooking);
    expect(state.status).toBe("issued");
    given(...afterFirst)
      .when({ type: "StartVoid", operation_id: "v1", now })
      .thenRefused("partly_refunded", 422);
    given(...afterFirst)
      .when({ type: "QuoteRefund", quote: quote([line(1)]), now })
      .thenRefused("no_such_ticket", 422);
    const second: BookingEvent[] = [
      ...afterFirst,
      Quoted({ ...quote([line(0)]), quote_id: "q2" }),
      { type: "RefundStarted", data: { operation_id: "r2", at, quote_id: "q2" } },
    ];
    const [last] = decide(
      { type: "RecordRefundOutcome", operation_id: "r2", now, outcome: refunded },
      second.reduce(evolve, initialBooking),
    );
    expect(last).toMatchObject({ type: "TicketsRefunded", data: { credited: uah(110_00) } });
    expect([...second, BookingEvent.parse(last)].reduce(evolve, initialBooking).status).toBe("refunded");
  });

  it("given an expired quote, when confirmed, then refused as expired; a failed refund moves no money", () => {
    given(Held(two), Started(uah(250_00)), IssuedTwo, Quoted(quote([line(1)], "2026-11-21T12:59:00.000Z")))
      .when({ type: "StartRefund", operation_id: "r1", quote_id: "q1", now })
      .thenRefused("refund_quote_expired", 409);
    given(Held(two), Started(uah(250_00)), IssuedTwo, Quoted(), RefundStarted)
      .when({
        type: "RecordRefundOutcome",
        operation_id: "r1",
        now,
        outcome: { ok: false, code: "supplier_unavailable", reason: "down" },
      })
      .thenEvents([
        {
          type: "RefundFailed",
          data: { operation_id: "r1", code: "supplier_unavailable", reason: "down" },
        },
      ]);
  });

  it("given a card or demo booking, when refunded, then nothing is credited to the balance", () => {
    given(Held(two), Started(null as never), IssuedTwo, Quoted(), RefundStarted)
      .when({ type: "RecordRefundOutcome", operation_id: "r1", now, outcome: refunded })
      .thenEvents([
        {
          type: "TicketsRefunded",
          data: {
            operation_id: "r1",
            at,
            quote_id: "q1",
            lines: [line(1)],
            credited: null,
            supplier_booking: null,
          },
        },
      ]);
  });
});

describe("after sales: exchange", () => {
  const uah = (amount: number) => ({ amount, currency: "UAH" });
  const offer = {
    reshop_offer_id: "o1",
    departure_at: "2026-12-05T08:00:00+02:00",
    brand_name: "Economy Standard",
    new_price: uah(300_00),
    fare_difference: uah(50_00),
    change_fee: uah(20_00),
    markup: uah(0),
    residual_value: uah(0),
    total_due: uah(70_00),
  };
  const base = [Held(), Started(), Issued(null)];
  const Requested: BookingEvent = {
    type: "FlightsChangeRequested",
    data: { request_id: "x1", departure_date: "2026-12-05", return_date: null, slice: null, at },
  };
  const Priced: BookingEvent = {
    type: "ReshopOffersPriced",
    data: { request_id: "x1", offers: [offer], expires_at: "2026-11-21T13:30:00.000Z", at },
  };
  const ExStarted: BookingEvent = {
    type: "ExchangeStarted",
    data: {
      operation_id: "e1",
      at,
      reshop_offer_id: "o1",
      charged: uah(70_00),
      paid_by: { method: "balance" },
    },
  };
  const startExchange = {
    type: "StartExchange" as const,
    operation_id: "e1",
    reshop_offer_id: "o1",
    now,
    payment: { method: "balance" } as PaymentChoice,
  };

  it("given issued tickets, when a change is requested and priced, then both are recorded; a held booking is refused", () => {
    given(...base)
      .when({
        type: "RequestFlightsChange",
        request_id: "x1",
        departure_date: "2026-12-05",
        return_date: null,
        slice: null,
        now,
      })
      .thenEvents([Requested]);
    given(...base, Requested)
      .when({
        type: "PriceReshopOffers",
        request_id: "x1",
        offers: [offer],
        expires_at: "2026-11-21T13:30:00.000Z",
        now,
      })
      .thenEvents([Priced]);
    given(Held())
      .when({
        type: "RequestFlightsChange",
        request_id: "x1",
        departure_date: "2026-12-05",
        return_date: null,
        slice: null,
        now,
      })
      .thenRefused("not_issued", 422);
  });

  it("given priced offers, when one is confirmed, then ExchangeStarted charges its total; an unknown offer is refused", () => {
    given(...base, Requested, Priced)
      .when(startExchange)
      .thenEvents([ExStarted]);
    given(...base, Requested, Priced)
      .when({ ...startExchange, reshop_offer_id: "nope" })
      .thenRefused("reshop_offer_not_found", 409);
    given(...base, Requested)
      .when(startExchange)
      .thenRefused("reshop_offer_not_found", 409);
  });

  it("given priced offers, when one is confirmed paid by the channel's card, then the card is recorded and checked", () => {
    given(...base, Requested, Priced)
      .when({ ...startExchange, payment: { method: "card", card: card() } })
      .thenEvents([
        { ...ExStarted, data: { ...ExStarted.data, charged: null, paid_by: byCard } } as BookingEvent,
      ]);
    given(...base, Requested, Priced)
      .when({ ...startExchange, payment: { method: "card", card: card({ exp_year: 2025 }) } })
      .thenRefused("card_expired", 422);
  });

  it("given an exchange that fails, then the charge goes back and the offers are emptied", () => {
    given(...base, Requested, Priced, ExStarted)
      .when({
        type: "RecordExchangeOutcome",
        operation_id: "e1",
        outcome: { ok: false, code: "supplier_unavailable", reason: "down" },
      })
      .thenEvents([
        {
          type: "ExchangeFailed",
          data: { operation_id: "e1", code: "supplier_unavailable", reason: "down", credited: uah(70_00) },
        },
      ]);
    const failed: BookingEvent = {
      type: "ExchangeFailed",
      data: { operation_id: "e1", code: "supplier_unavailable", reason: "down", credited: uah(70_00) },
    };
    const state = [...base, Requested, Priced, ExStarted, failed].reduce(evolve, initialBooking);
    expect(state.status === "issued" && state.change_request?.offers).toEqual([]);
    expect(state.status === "issued" && state.charged).toEqual(price);
  });

  it("given an exchange that succeeds, then the booking is exchanged with the new tickets and can no longer be voided", () => {
    const newTicket = {
      ticket_number: "5660000000009",
      passenger_index: 0,
      passenger_name: "P0",
      validating_carrier: "PS",
      base_fare: uah(250_00),
      taxes: uah(50_00),
      total: uah(300_00),
    };
    const done = {
      tickets: [newTicket],
      fare: held.fare,
      price: uah(300_00),
      price_detail: {} as PriceDetail,
      exchanged_at: at,
      supplier_booking: null,
    };
    const [exchanged] = decide(
      { type: "RecordExchangeOutcome", operation_id: "e1", outcome: { ok: true, done } },
      [...base, Requested, Priced, ExStarted].reduce(evolve, initialBooking),
    );
    expect(exchanged).toEqual({
      type: "TicketsExchanged",
      data: { operation_id: "e1", reshop_offer_id: "o1", old_tickets: [], ...done },
    });
    const after = [...base, Requested, Priced, ExStarted, exchanged as BookingEvent];
    const state = after.reduce(evolve, initialBooking);
    expect(state).toMatchObject({ status: "exchanged", tickets: [newTicket], charged: uah(320_00) });
    given(...after)
      .when({ type: "StartVoid", operation_id: "v1", now })
      .thenRefused("not_issued", 422);
  });
});
