import { describe, expect, it } from "@jest/globals";
import type { AncillaryLine } from "@skyward/contracts/ancillaries";
import { BookingEvent, type BookingEventInput, type BookingHeld } from "@skyward/contracts/booking-events";
import type { ClaimCard, PaidBy } from "@skyward/contracts/cards";
import type { Flight } from "@skyward/contracts/offers";
import type { BookingPassenger, SupplierBooking } from "@skyward/contracts/supplier";
import {
  type BookingCommand,
  type BookingState,
  decide,
  evolve,
  initialBooking,
} from "../bookings/booking.ts";
import { heldBooking } from "../testing/booking-fixture.ts";
import { deciderKit } from "../testing/decider-kit.ts";

const uah = (amount: number) => ({ amount, currency: "UAH" });
const price = uah(250_00);
const segment = { id: "PS101-20261201", departure_at: "2026-12-01T08:00:00+02:00" };
// The decider reads only segment ids and departures.
const held = heldBooking({
  fare: { ...heldBooking().fare, flights: [{ segments: [segment] } as unknown as Flight] },
  passengers: [{ type: "adult" } as BookingPassenger, { type: "infant" } as BookingPassenger],
});
const now = new Date("2026-11-21T13:00:00.000Z");
const at = now.toISOString();

const line = (extra: Partial<AncillaryLine> = {}): AncillaryLine => ({
  line_id: "l1",
  ancillary_id: `BAG-${segment.id}`,
  type: "checked_bag",
  title: "Checked bag 23 kg",
  segment_id: segment.id,
  passenger_index: 0,
  seat: null,
  weight_kg: 23,
  seat_zone: null,
  price: uah(1_200_00),
  supplier_price: uah(1_100_00),
  emd_number: null,
  status: "pending",
  ...extra,
});
const seatLine = (extra: Partial<AncillaryLine> = {}) =>
  line({
    line_id: "s1",
    ancillary_id: `SEAT-FRONT-${segment.id}`,
    type: "seat",
    title: "Seat in the front rows",
    seat: "2A",
    weight_kg: null,
    seat_zone: "front",
    price: uah(500_00),
    supplier_price: uah(450_00),
    ...extra,
  });

const Held = (data: Partial<BookingHeld> = {}): BookingEvent => ({
  type: "BookingHeld",
  data: { ...held, ...data },
});
const Issued: BookingEvent[] = [
  {
    type: "TicketingStarted",
    data: { operation_id: "op-issue", at, charged: price, paid_by: { method: "balance" } },
  },
  {
    type: "TicketsIssued",
    data: { operation_id: "op-issue", tickets: [], issued_at: at, void_until: null, supplier_booking: null },
  },
];
const start = (
  lines: AncillaryLine[],
  extra: Partial<Extract<BookingCommand, { type: "StartAncillaries" }>> = {},
) =>
  ({
    type: "StartAncillaries",
    operation_id: "op-a",
    now,
    lines,
    payment: { method: "balance" },
    ...extra,
  }) as BookingCommand;
const Started = (
  lines: AncillaryLine[],
  charged: { amount: number; currency: string } | null,
  paid_by: PaidBy | null = charged ? { method: "balance" } : null,
): BookingEvent => ({
  type: "AncillariesStarted",
  data: { operation_id: "op-a", at, lines, charged, paid_by },
});
const card: ClaimCard = {
  card_id: "card-1",
  status: "active",
  brand: "mastercard",
  last4: "5454",
  exp_month: 11,
  exp_year: 2026,
};
const EMD = "5661234567890";

/** given events, when a command, thenEvents (each valid by the contract) or thenRefused with this code. */
const { given } = deciderKit<BookingCommand, BookingState, BookingEvent, BookingEventInput>({
  decide,
  evolve,
  initial: initialBooking,
  check: (e) => BookingEvent.parse(e),
});

describe("ancillaries on a held booking", () => {
  it("given a held booking, when a bag is asked for, then it is claimed without a charge (the issue pays it)", () => {
    given(Held())
      .when(start([line()]))
      .thenEvents([Started([line({ status: "held" })], null)]);
  });

  it("given a bag added while held, when the booking is issued, then the issue charges it and its EMD comes with the tickets", () => {
    const added: BookingEvent = {
      type: "AncillariesAdded",
      data: { operation_id: "op-a", at, lines: [line({ status: "held" })], supplier_booking: null },
    };
    given(Held(), Started([line({ status: "held" })], null), added)
      .when({
        type: "StartIssue",
        operation_id: "op-issue",
        now,
        payment: { method: "balance" },
        accept_pending_price: false,
      })
      .thenEvents([
        {
          type: "TicketingStarted",
          data: {
            operation_id: "op-issue",
            at,
            charged: uah(250_00 + 1_200_00),
            paid_by: { method: "balance" },
          },
        },
      ]);
    const supplierBooking = {
      ancillaries: [{ ancillary_id: line().ancillary_id, passenger_index: 0, seat: null, emd_number: EMD }],
    } as unknown as SupplierBooking;
    const done = { tickets: [], issued_at: at, void_until: null, supplier_booking: supplierBooking };
    const issuing = given(Held(), Started([line({ status: "held" })], null), added, {
      type: "TicketingStarted",
      data: { operation_id: "op-issue", at, charged: uah(1_450_00), paid_by: { method: "balance" } },
    });
    expect(
      decide(
        { type: "RecordIssueOutcome", operation_id: "op-issue", outcome: { ok: true, done } },
        issuing.state,
      ),
    ).toEqual([
      { type: "TicketsIssued", data: { operation_id: "op-issue", ...done } },
      {
        type: "EmdsIssued",
        data: {
          at,
          lines: [line({ status: "issued", emd_number: EMD })],
          paid_with: "issue",
          supplier_booking: null,
        },
      },
    ]);
  });

  it("given a booking past its time limit or not confirmed, when ancillaries are asked for, then they are refused", () => {
    given(Held({ time_limit: "2026-11-21T12:00:00.000Z" }))
      .when(start([line()]))
      .thenRefused("time_limit_passed", 422);
    given(Held({ provider_status: "in_progress" }))
      .when(start([line()]))
      .thenRefused("provider_in_progress", 422);
  });
});

describe("EMDs after issue", () => {
  it("given issued tickets, when a bag is bought, then its price is charged in the claim", () => {
    given(Held(), ...Issued)
      .when(start([line()]))
      .thenEvents([Started([line()], uah(1_200_00))]);
  });

  it("given a card form of payment, a demo booking or a free seat, then nothing is charged", () => {
    given(Held(), ...Issued)
      .when(start([line()], { payment: { method: "card", card } }))
      .thenEvents([
        Started([line()], null, { method: "card", card_id: "card-1", brand: "mastercard", last4: "5454" }),
      ]);
    given(Held({ fake_booking: true }), ...Issued)
      .when(start([line()]))
      .thenEvents([Started([line()], null, { method: "balance" })]);
    given(Held(), ...Issued)
      .when(start([seatLine({ price: uah(0), supplier_price: uah(0) })]))
      .thenEvents([Started([seatLine({ price: uah(0), supplier_price: uah(0) })], null)]);
  });

  it("given a channel paying by a card that expired or was deleted, when an EMD is bought, then it is refused", () => {
    given(Held(), ...Issued)
      .when(start([line()], { payment: { method: "card", card: { ...card, exp_month: 10 } } }))
      .thenRefused("card_expired", 422);
    given(Held(), ...Issued)
      .when(start([line()], { payment: { method: "card", card: { ...card, status: "deleted" } } }))
      .thenRefused("card_missing", 422);
  });

  it("given an EMD purchase in flight, when the airline issues, then the lines carry their numbers; when it refuses, the charge goes back", () => {
    const taken = [
      {
        ancillary_id: line().ancillary_id,
        passenger_index: 0,
        seat: null,
        emd_number: EMD,
        status: "issued" as const,
      },
    ];
    given(Held(), ...Issued, Started([line()], uah(1_200_00)))
      .when({
        type: "RecordAncillariesOutcome",
        operation_id: "op-a",
        now,
        outcome: { ok: true, done: { taken, supplier_booking: null } },
      })
      .thenEvents([
        {
          type: "AncillariesAdded",
          data: {
            operation_id: "op-a",
            at,
            lines: [line({ status: "issued", emd_number: EMD })],
            supplier_booking: null,
          },
        },
      ]);
    given(Held(), ...Issued, Started([line()], uah(1_200_00)))
      .when({
        type: "RecordAncillariesOutcome",
        operation_id: "op-a",
        now,
        outcome: { ok: false, code: "emd_refused", reason: "refused" },
      })
      .thenEvents([
        {
          type: "AncillariesFailed",
          data: { operation_id: "op-a", code: "emd_refused", reason: "refused", credited: uah(1_200_00) },
        },
      ]);
  });

  it("given an EMD purchase in flight, when void or another purchase starts, then it is refused; a comment is taken", () => {
    const inFlight = given(Held(), ...Issued, Started([line()], uah(1_200_00)));
    inFlight.when(start([seatLine()])).thenRefused("operation_in_progress", 409);
    inFlight.when({ type: "StartVoid", operation_id: "op-v", now }).thenRefused("operation_in_progress", 409);
    inFlight
      .when({ type: "CommentBooking", comment: "hi", now, by: null })
      .thenEvents([{ type: "BookingCommented", data: { comment: "hi", at, by: null } }]);
  });

  it("given a bag or seat already held, when the same is asked again, then it is refused by name", () => {
    const added: BookingEvent = {
      type: "AncillariesAdded",
      data: {
        operation_id: "op-a",
        at,
        lines: [
          line({ status: "issued", emd_number: EMD }),
          seatLine({ status: "issued", emd_number: "5669999999999" }),
        ],
        supplier_booking: null,
      },
    };
    const after = given(Held(), ...Issued, Started([line(), seatLine()], uah(1_700_00)), added);
    after.when(start([line({ line_id: "l2" })])).thenRefused("ancillary_already_booked", 409);
    after.when(start([seatLine({ line_id: "s2", seat: "3C" })])).thenRefused("seat_already_assigned", 409);
    after
      .when(start([seatLine({ line_id: "s3", passenger_index: 0, seat: "2A" })]))
      .thenRefused("seat_taken", 409);
    given(Held(), ...Issued)
      .when(start([line({ passenger_index: 1 })]))
      .thenRefused("no_such_passenger", 422);
    given(Held(), ...Issued)
      .when(start([line({ segment_id: "XX1-20261201" })]))
      .thenRefused("no_such_segment", 422);
  });

  it("given pending (asynchronous) EMDs, when the job records their numbers, then EmdsIssued once; again, nothing", () => {
    const pending: BookingEvent = {
      type: "AncillariesAdded",
      data: { operation_id: "op-a", at, lines: [line({ status: "pending" })], supplier_booking: null },
    };
    const record: BookingCommand = {
      type: "RecordEmdsIssued",
      now,
      emds: [{ line_id: "l1", emd_number: EMD }],
      supplier_booking: null,
    };
    const issuedLine = line({ status: "issued", emd_number: EMD });
    given(Held(), ...Issued, Started([line()], uah(1_200_00)), pending)
      .when(record)
      .thenEvents([
        {
          type: "EmdsIssued",
          data: { at, lines: [issuedLine], paid_with: "ancillaries", supplier_booking: null },
        },
      ]);
    given(Held(), ...Issued, Started([line()], uah(1_200_00)), pending, {
      type: "EmdsIssued",
      data: { at, lines: [issuedLine], paid_with: "ancillaries", supplier_booking: null },
    })
      .when(record)
      .thenEvents([]);
  });
});

describe("refunding an unused EMD", () => {
  const bought = [
    Held(),
    ...Issued,
    Started([line()], uah(1_200_00)),
    {
      type: "AncillariesAdded",
      data: {
        operation_id: "op-a",
        at,
        lines: [line({ status: "issued", emd_number: EMD })],
        supplier_booking: null,
      },
    } as BookingEvent,
  ];
  const refundStarted: BookingEvent = {
    type: "EmdRefundStarted",
    data: { operation_id: "op-r", at, emd_number: EMD },
  };
  const record = (ok: boolean): BookingCommand => ({
    type: "RecordEmdRefundOutcome",
    operation_id: "op-r",
    now,
    outcome: ok
      ? { ok: true, done: { supplier_booking: null } }
      : { ok: false, code: "supplier_unavailable", reason: "down" },
  });

  it("given an issued EMD, when refunded, then its price is credited once; a second refund is refused", () => {
    given(...bought)
      .when({ type: "StartEmdRefund", operation_id: "op-r", now, emd_number: EMD })
      .thenEvents([refundStarted]);
    given(...bought, refundStarted)
      .when(record(true))
      .thenEvents([
        {
          type: "EmdRefunded",
          data: {
            operation_id: "op-r",
            at,
            emd_number: EMD,
            line_id: "l1",
            refunded: uah(1_200_00),
            credited: uah(1_200_00),
            supplier_booking: null,
          },
        },
      ]);
    const refunded: BookingEvent = {
      type: "EmdRefunded",
      data: {
        operation_id: "op-r",
        at,
        emd_number: EMD,
        line_id: "l1",
        refunded: uah(1_200_00),
        credited: uah(1_200_00),
        supplier_booking: null,
      },
    };
    given(...bought, refundStarted, refunded)
      .when({ type: "StartEmdRefund", operation_id: "op-r2", now, emd_number: EMD })
      .thenRefused("emd_not_refundable", 422);
    given(...bought, refundStarted, refunded)
      .when(record(true))
      .thenEvents([]);
  });

  it("given the airline refuses, then nothing is credited and the EMD stays open", () => {
    given(...bought, refundStarted)
      .when(record(false))
      .thenEvents([
        {
          type: "EmdRefundFailed",
          data: { operation_id: "op-r", code: "supplier_unavailable", reason: "down" },
        },
      ]);
  });

  it("given a departed flight, when its EMD is refunded, then it is refused as used", () => {
    given(...bought)
      .when({
        type: "StartEmdRefund",
        operation_id: "op-r",
        now: new Date("2026-12-02T00:00:00Z"),
        emd_number: EMD,
      })
      .thenRefused("emd_used", 422);
  });

  it("given a refunded EMD, when the booking is voided, then the void credits only what is left", () => {
    const refunded: BookingEvent = {
      type: "EmdRefunded",
      data: {
        operation_id: "op-r",
        at,
        emd_number: EMD,
        line_id: "l1",
        refunded: uah(1_200_00),
        credited: uah(1_200_00),
        supplier_booking: null,
      },
    };
    const voidable = [
      Held(),
      {
        type: "TicketingStarted",
        data: { operation_id: "op-issue", at, charged: price, paid_by: { method: "balance" } },
      } as BookingEvent,
      {
        type: "TicketsIssued",
        data: {
          operation_id: "op-issue",
          tickets: [],
          issued_at: at,
          void_until: "2026-11-21T23:59:59.000Z",
          supplier_booking: null,
        },
      } as BookingEvent,
      ...bought.slice(3),
      refundStarted,
      refunded,
      { type: "VoidStarted", data: { operation_id: "op-v", at } } as BookingEvent,
    ];
    given(...voidable)
      .when({ type: "RecordVoidOutcome", operation_id: "op-v", now, outcome: { ok: true, done: null } })
      .thenEvents([{ type: "BookingVoided", data: { operation_id: "op-v", at, credited: price } }]);
  });
});
