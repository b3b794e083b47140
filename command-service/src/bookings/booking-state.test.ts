// The booking's state is a union on its status (booking-state.ts): each phase (held, ticketing, issued) has the
// fields it can have, and a field of another phase does not type-check. The `@ts-expect-error` lines are the test:
// `npm run typecheck` fails when one of them type-checks (an unused directive is an error).
import { describe, expect, it } from "@jest/globals";
import type { BookingEvent, BookingHeld } from "@skyward/contracts/booking-events";
import { BOOKING_STATUS_RULES } from "@skyward/contracts/booking-lifecycle";
import type { Fare, PriceDetail } from "@skyward/contracts/offers";
import type { Ticket } from "@skyward/contracts/supplier";
import { evolve, initialBooking } from "./booking.ts";
import { type ActiveBooking, type HeldBooking, hasTickets, type IssuedBooking } from "./booking-state.ts";

const price = { amount: 250_00, currency: "UAH" };
const data: BookingHeld = {
  locator: "ABC234",
  company_id: "c1",
  agency_id: "a1",
  agent_id: "u1",
  channel_id: "ch1",
  supplier_booking: null,
  fare: { fare_id: "f1", carrier: "PS", route: "KBP-WAW", departure_at: "", fare: {} as Fare, flights: [] },
  passengers: [],
  contacts: { email: "a@b.test", phone: "+380501112233" },
  price,
  price_detail: {} as PriceDetail,
  time_limit: null,
  fake_booking: false,
  provider_status: "confirmed",
  instant_payment: false,
  held_at: "2026-11-21T12:00:00.000Z",
};
const ticket: Ticket = {
  ticket_number: "5660000000001",
  passenger_index: 0,
  passenger_name: "KOVAL/OLENA",
  validating_carrier: "PS",
  base_fare: price,
  taxes: { amount: 0, currency: "UAH" },
  total: price,
};
const events: BookingEvent[] = [
  { type: "BookingHeld", data },
  { type: "TicketingStarted", data: { operation_id: "op", at: "", charged: price, paid_by: null } },
  {
    type: "TicketsIssued",
    data: {
      operation_id: "op",
      tickets: [ticket],
      issued_at: "2026-11-21T13:00:00.000Z",
      void_until: null,
      supplier_booking: null,
    },
  },
];

function active(count: number): ActiveBooking {
  const state = events.slice(0, count).reduce(evolve, initialBooking);
  if (state.status === "none") throw new Error("no booking");
  return state;
}

describe("the booking's state, a union on its status", () => {
  it("a held booking cannot hold a ticket, an issue time or a void window; an issued one holds them", () => {
    const held = active(1);
    if (held.status !== "held") throw new Error(`held expected, got ${held.status}`);
    // @ts-expect-error a held booking has no tickets
    const ticketed: HeldBooking = { ...held, tickets: [ticket] };
    // @ts-expect-error nor an issue time
    const stamped: HeldBooking = { ...held, issued_at: "2026-11-21T13:00:00.000Z" };
    // @ts-expect-error a held status with tickets is no booking state at all
    const impossible: ActiveBooking = { ...held, tickets: [ticket] };
    expect([ticketed.tickets, stamped.issued_at, impossible.status]).toEqual([
      [ticket],
      stamped.issued_at,
      "held",
    ]);

    const issued = active(3);
    expect(hasTickets(issued)).toBe(true);
    if (!hasTickets(issued)) throw new Error("issued expected");
    const fine: IssuedBooking = { ...issued, tickets: [ticket, ticket] };
    expect(fine.tickets).toHaveLength(2);
    // @ts-expect-error an issued booking cannot be "held"
    const back: IssuedBooking = { ...issued, status: "held" };
    expect(back.status).toBe("held");
  });

  it("ticketing has its issue in flight and no tickets; each phase's statuses are the lifecycle table's", () => {
    const ticketing = active(2);
    expect(ticketing).toMatchObject({ status: "ticketing", tickets: [], operation: { kind: "issue" } });
    if (ticketing.status !== "ticketing") throw new Error("ticketing expected");
    // @ts-expect-error a booking being issued has no tickets yet
    const early: ActiveBooking = { ...ticketing, tickets: [ticket] };
    expect(early.tickets).toHaveLength(1);
    for (const [status, rule] of Object.entries(BOOKING_STATUS_RULES))
      expect(hasTickets({ ...active(1), status } as ActiveBooking)).toBe(rule.phase === "issued");
  });
});
