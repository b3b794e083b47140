// The bookings read model from booking events in a real PostgreSQL, as the deciders' tests fold events with evolve:
// given a stream, then this row (its status and list as the lifecycle table says, its operation, its details and
// history); and the events applied one by one give the rows one batch of them gives.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { BookingEventInput } from "@skyward/contracts/booking-events";
import { BOOKING_STATUS_RULES } from "@skyward/contracts/booking-lifecycle";
import { EventStore } from "@skyward/infra/event-store/event-store";
import { eventFixtures } from "@skyward/infra/event-store/fixtures";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import { rebuildProjection } from "@skyward/infra/projections/runtime";
import { createTestDatabase, type TestDatabase } from "@skyward/infra/testing";
import { bookings } from "./bookings.ts";

let db: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  store = new EventStore(db.pool);
});
afterAll(() => db.drop());

const uah = (amount: number) => ({ amount, currency: "UAH" });
const AT = "2026-11-20T11:00:00.000Z";

/** The current-shape golden BookingHeld (one adult, 535.00 UAH), with two adults here so refunds can be partial. */
function held(change: Record<string, unknown> = {}): BookingEventInput {
  const data = eventFixtures("BookingHeld").at(-1)?.data as Record<string, unknown>;
  const passengers = data.passengers as Record<string, unknown>[];
  const second = { ...passengers[0], first_name: "Petro" };
  return { type: "BookingHeld", data: { ...data, passengers: [...passengers, second], ...change } as never };
}

const ticket = (index: number, name: string) => ({
  ticket_number: `566000000000${index + 1}`,
  passenger_index: index,
  passenger_name: name,
  validating_carrier: "PS",
  base_fare: uah(400_00),
  taxes: uah(100_00),
  total: uah(500_00),
});
const tickets = [ticket(0, "KOVAL/OLENA"), ticket(1, "KOVAL/PETRO")];

const started = (id = "op-issue"): BookingEventInput => ({
  type: "TicketingStarted",
  data: { operation_id: id, at: AT, charged: uah(1070_00), paid_by: { method: "balance" } },
});
const issued = (id = "op-issue"): BookingEventInput => ({
  type: "TicketsIssued",
  data: {
    operation_id: id,
    tickets,
    issued_at: "2026-11-20T11:00:05.000Z",
    void_until: "2026-11-20T23:59:59.000Z",
    supplier_booking: null,
  },
});
const refundLine = (index: number) => ({
  passenger_index: index,
  ticket_number: tickets[index]?.ticket_number ?? "",
  fare_refund: uah(400_00),
  taxes_refund: uah(100_00),
  penalty: uah(0),
  non_refundable: uah(35_00),
  refundable: uah(500_00),
});
const refunded = (id: string, index: number): BookingEventInput[] => [
  { type: "RefundStarted", data: { operation_id: id, at: AT, quote_id: `q-${id}` } },
  {
    type: "TicketsRefunded",
    data: {
      operation_id: id,
      at: AT,
      quote_id: `q-${id}`,
      lines: [refundLine(index)],
      credited: uah(500_00),
      supplier_booking: null,
    },
  },
];

/** A stream appended event by event (each its own append, as commands append them). */
async function given(...events: BookingEventInput[]): Promise<string> {
  const locator = `R${randomUUID().slice(0, 7).toUpperCase()}`;
  for (const e of events)
    await store.append({
      streamId: `booking-${locator}`,
      expected: "any",
      events: [{ ...e, metadata: systemMetadata() } as never],
    });
  return locator;
}

type Row = Record<string, unknown> & { history: Record<string, unknown>[] };

/** The booking's row after a rebuild of the projection (batchSize 1: event by event; large: all at once). */
async function row(locator: string, batchSize = 1000): Promise<Row> {
  await rebuildProjection(db.pool, store, bookings, { batchSize });
  const { rows } = await db.pool.query<{ row: Row }>(
    "SELECT to_jsonb(b) - 'created_at' - 'updated_at' AS row FROM read.bookings b WHERE locator = $1",
    [locator],
  );
  expect(rows).toHaveLength(1);
  return rows[0]?.row as Row;
}

const statusOf = (r: Row) => ({
  status: r.status,
  list: r.list,
  operation_id: r.operation_id,
  operation_kind: r.operation_kind,
});

describe("bookings projection: the lifecycle", () => {
  it("given a hold, then a held row in the new list with its passengers, price and no operation", async () => {
    const r = await row(await given(held()));
    expect(statusOf(r)).toEqual({ status: "held", list: "new", operation_id: null, operation_kind: null });
    expect(r).toMatchObject({
      provider_status: "confirmed",
      route: "KBP-WAW",
      carrier: "PS",
      passenger_names: "KOVAL/OLENA, KOVAL/PETRO",
      price_amount: 535_00,
      currency: "UAH",
      tickets: [],
      ticket_numbers: "",
      history: [],
    });
  });

  it("given a hold the airline failed at once, then it is cancelled with the airline's reason", async () => {
    const r = await row(
      await given(
        held({
          provider_status: "failed",
          supplier_booking: null,
        }),
      ),
    );
    expect(statusOf(r)).toEqual({
      status: "cancelled",
      list: "cancelled",
      operation_id: null,
      operation_kind: null,
    });
  });

  it("given an issue claimed, then ticketing with the issue in flight, its charge in the history and how it pays", async () => {
    const r = await row(await given(held(), started()));
    expect(statusOf(r)).toEqual({
      status: "ticketing",
      list: "new",
      operation_id: "op-issue",
      operation_kind: "issue",
    });
    expect(r.paid_by).toEqual({ method: "balance" });
    expect(r.history).toEqual([
      expect.objectContaining({
        operation_id: "op-issue",
        kind: "issue",
        outcome: "in_flight",
        balance_effect: uah(1070_00),
        paid_by: { method: "balance" },
      }),
    ]);
  });

  it("given tickets issued, then issued with each ticket paid as its claim paid, and the operation done", async () => {
    const r = await row(await given(held(), started(), issued()));
    expect(statusOf(r)).toEqual({
      status: "issued",
      list: "issued",
      operation_id: null,
      operation_kind: null,
    });
    expect(r.ticket_numbers).toBe("5660000000001 5660000000002");
    expect(r.tickets).toEqual(tickets.map((t) => ({ ...t, paid_by: { method: "balance" } })));
    expect(r.issued_at).toBe("2026-11-20T11:00:05+00:00");
    expect(r.void_until).toBe("2026-11-20T23:59:59+00:00");
    expect(r.history).toEqual([
      expect.objectContaining({ outcome: "done", tickets: tickets.map((t) => t.ticket_number) }),
    ]);
  });

  it("given a failed issue, then held again, the failure in the history with nothing charged in the end", async () => {
    const r = await row(
      await given(held(), started(), {
        type: "TicketingFailed",
        data: {
          operation_id: "op-issue",
          code: "supplier_error",
          reason: "The airline said no",
          credited: uah(1070_00),
        },
      }),
    );
    expect(statusOf(r)).toEqual({ status: "held", list: "new", operation_id: null, operation_kind: null });
    expect(r.history).toEqual([
      expect.objectContaining({ outcome: "failed", error: "The airline said no", balance_effect: null }),
    ]);
  });

  it("given a void, then voided in the cancelled list, its credit in the history", async () => {
    const r = await row(
      await given(
        held(),
        started(),
        issued(),
        { type: "VoidStarted", data: { operation_id: "op-void", at: AT } },
        { type: "BookingVoided", data: { operation_id: "op-void", at: AT, credited: uah(1070_00) } },
      ),
    );
    expect(statusOf(r)).toEqual({
      status: "voided",
      list: "cancelled",
      operation_id: null,
      operation_kind: null,
    });
    expect(r.history.at(-1)).toMatchObject({ kind: "void", outcome: "done", balance_effect: uah(-1070_00) });
  });

  it("given a void in flight, then the booking stays issued with the void open; a failed void closes it", async () => {
    const inFlight = await given(held(), started(), issued(), {
      type: "VoidStarted",
      data: { operation_id: "op-void", at: AT },
    });
    expect(statusOf(await row(inFlight))).toEqual({
      status: "issued",
      list: "issued",
      operation_id: "op-void",
      operation_kind: "void",
    });
    await store.append({
      streamId: `booking-${inFlight}`,
      expected: "any",
      events: [
        {
          type: "VoidFailed",
          data: { operation_id: "op-void", code: "supplier_error", reason: "Too late", credited: null },
          metadata: systemMetadata(),
        } as never,
      ],
    });
    const r = await row(inFlight);
    expect(statusOf(r)).toEqual({
      status: "issued",
      list: "issued",
      operation_id: null,
      operation_kind: null,
    });
    expect(r.history.at(-1)).toMatchObject({ kind: "void", outcome: "failed", error: "Too late" });
  });

  it("given a cancel and an expiry, then each is cancelled or expired in the cancelled list", async () => {
    const cancelled = await row(
      await given(
        held(),
        { type: "CancelStarted", data: { operation_id: "op-c", at: AT } },
        { type: "BookingCancelled", data: { operation_id: "op-c", at: AT } },
      ),
    );
    expect(statusOf(cancelled)).toEqual({
      status: "cancelled",
      list: "cancelled",
      operation_id: null,
      operation_kind: null,
    });
    const expired = await row(await given(held(), { type: "BookingExpired", data: { at: AT } }));
    expect(statusOf(expired)).toEqual({
      status: "expired",
      list: "cancelled",
      operation_id: null,
      operation_kind: null,
    });
  });

  it("given a refund of one ticket of two, then the booking stays issued; with the last one it is refunded", async () => {
    const partly = await given(held(), started(), issued(), ...refunded("op-r1", 0));
    const first = await row(partly);
    expect(statusOf(first)).toEqual({
      status: "issued",
      list: "issued",
      operation_id: null,
      operation_kind: null,
    });
    expect(first.refunded_passengers).toEqual([0]);
    const all = await given(held(), started(), issued(), ...refunded("op-r1", 0), ...refunded("op-r2", 1));
    const last = await row(all);
    expect(statusOf(last)).toEqual({
      status: "refunded",
      list: "refunded",
      operation_id: null,
      operation_kind: null,
    });
    expect(last.refunded_passengers).toEqual([0, 1]);
    expect(last.history.map((h) => [h.kind, h.outcome, h.balance_effect])).toEqual([
      ["issue", "done", uah(1070_00)],
      ["refund", "done", uah(-500_00)],
      ["refund", "done", uah(-500_00)],
    ]);
  });

  it("given an exchange, then exchanged in the issued list with the new tickets, fare and price", async () => {
    const newTickets = tickets.map((t) => ({ ...t, ticket_number: t.ticket_number.replace("566", "567") }));
    const fare = {
      ...(held().data as { fare: Record<string, unknown> }).fare,
      departure_at: "2026-12-05T07:15:00+02:00",
    };
    const r = await row(
      await given(
        held(),
        started(),
        issued(),
        {
          type: "FlightsChangeRequested",
          data: { request_id: "rq1", departure_date: "2026-12-05", return_date: null, slice: null, at: AT },
        },
        {
          type: "ExchangeStarted",
          data: { operation_id: "op-x", at: AT, reshop_offer_id: "o1", charged: uah(100_00), paid_by: null },
        },
        {
          type: "TicketsExchanged",
          data: {
            operation_id: "op-x",
            reshop_offer_id: "o1",
            old_tickets: tickets.map((t) => t.ticket_number),
            tickets: newTickets,
            fare: fare as never,
            price: uah(1170_00),
            price_detail: (held().data as { price_detail: never }).price_detail,
            exchanged_at: AT,
            supplier_booking: null,
          },
        },
      ),
    );
    expect(statusOf(r)).toEqual({
      status: "exchanged",
      list: "issued",
      operation_id: null,
      operation_kind: null,
    });
    expect(r).toMatchObject({
      ticket_numbers: "5670000000001 5670000000002",
      price_amount: 1170_00,
      departure_at: "2026-12-05T07:15:00+02:00",
      void_until: null,
      change_request: null,
    });
    expect(r.history.at(-1)).toMatchObject({
      kind: "exchange",
      outcome: "done",
      balance_effect: uah(100_00),
    });
  });

  it("given comments, a contact change, a price change and a reprice, then the held booking shows them and stays held", async () => {
    const newPrice = uah(600_00);
    const r = await row(
      await given(
        held(),
        { type: "BookingCommented", data: { comment: "window seat", at: AT, by: "agent-1" } },
        { type: "BookingModified", data: { contacts: { phone: "+380509998877" } } },
        {
          type: "BookingPriceChanged",
          data: {
            old_price: uah(535_00),
            new_price: newPrice,
            new_price_detail: (held().data as { price_detail: never }).price_detail,
            supplier_price: null,
          },
        },
      ),
    );
    expect(statusOf(r)).toEqual({ status: "held", list: "new", operation_id: null, operation_kind: null });
    expect(r.comments).toEqual([{ text: "window seat", at: AT, by: "agent-1" }]);
    expect((r.held as { contacts: unknown }).contacts).toEqual({
      email: "traveller@example.com",
      phone: "+380509998877",
    });
    expect((r.pending_price as { price: unknown }).price).toEqual(newPrice);
  });

  it("given every stream above, then the events applied one by one give the rows one batch gives", async () => {
    const locators = [
      await given(held(), started(), issued(), ...refunded("op-r1", 0)),
      await given(held(), { type: "CancelStarted", data: { operation_id: "op-c", at: AT } }),
      await given(held(), started(), {
        type: "TicketingFailed",
        data: { operation_id: "op-issue", reason: "No" },
      }),
    ];
    for (const locator of locators) expect(await row(locator, 1)).toEqual(await row(locator, 1000));
  });

  it("every status's list is one of the lists the bookings page offers, as the table says", async () => {
    const lists = Object.values(BOOKING_STATUS_RULES).map((r) => r.list);
    expect(new Set(lists)).toEqual(new Set(["new", "issued", "cancelled", "refunded"]));
  });
});
