import { describe, expect, it } from "@jest/globals";
import type { Fare, PriceDetail } from "@skyward/contracts/offers";
import { systemMetadata } from "@skyward/infra/event-store/metadata";
import type { NewEvent, StoredEvent } from "@skyward/infra/event-store/types";
import {
  type BookingHeld,
  type BookingState,
  decideCancel,
  decideExpire,
  decideStartIssue,
  decideVoid,
  evolveBooking,
  initialBooking,
  voidUntil,
} from "./booking.ts";

const metadata = systemMetadata("test");
const held: BookingHeld = {
  locator: "ABC234",
  company_id: "c1",
  agency_id: "a1",
  agent_id: "u1",
  channel_id: "ch1",
  supplier_booking: null,
  fare: {
    fare_id: "f1",
    carrier: "PS",
    route: "KBP-WAW",
    departure_at: "2026-12-01T08:00:00+02:00",
    fare: {} as Fare,
    flights: [],
  },
  passengers: [],
  contacts: { email: "a@b.test", phone: "+380501112233" },
  price: { amount: 250_00, currency: "UAH" },
  price_detail: {} as PriceDetail,
  time_limit: "2026-11-22T12:00:00.000Z",
  fake_booking: false,
  provider_status: "confirmed",
  instant_payment: false,
  held_at: "2026-11-21T12:00:00.000Z",
};

let position = 0;
const stored = (e: NewEvent): StoredEvent => ({
  globalPosition: BigInt(++position),
  transactionId: 1n,
  streamId: "booking-ABC234",
  streamPosition: position,
  eventId: String(position),
  type: e.type,
  data: e.data,
  metadata: e.metadata,
  recordedAt: new Date(),
});
const given = (...events: NewEvent[]): BookingState =>
  events.map(stored).reduce(evolveBooking, initialBooking);
const ev = (type: string, data: unknown = {}): NewEvent => ({ type, data, metadata });
const now = new Date("2026-11-21T13:00:00.000Z");

describe("issuing a booking", () => {
  it("given a held booking, when issue starts, then TicketingStarted charges the booking price", () => {
    const { events, charge } = decideStartIssue(
      given(ev("BookingHeld", held)),
      { now, pays_by_card: false },
      metadata,
    );
    expect(events.map((e) => e.type)).toEqual(["TicketingStarted"]);
    expect(charge).toEqual({ amount: 250_00, currency: "UAH" });
  });

  it("given a fake booking, when issue starts, then no money moves", () => {
    const { charge } = decideStartIssue(
      given(ev("BookingHeld", { ...held, fake_booking: true })),
      { now, pays_by_card: false },
      metadata,
    );
    expect(charge).toBeNull();
  });

  it("given a booking already being issued, when issue starts again, then it is refused as a conflict", () => {
    const state = given(ev("BookingHeld", held), ev("TicketingStarted", { charged: held.price }));
    expect(() => decideStartIssue(state, { now, pays_by_card: false }, metadata)).toThrow("being issued");
  });

  it("given an issued booking, when issue starts, then it is refused", () => {
    const state = given(
      ev("BookingHeld", held),
      ev("TicketingStarted", {}),
      ev("TicketsIssued", { tickets: [], issued_at: now.toISOString(), void_until: null }),
    );
    expect(() => decideStartIssue(state, { now, pays_by_card: false }, metadata)).toThrow("already issued");
  });

  it("given a booking past its time limit, when issue starts, then it is refused", () => {
    const state = given(ev("BookingHeld", { ...held, time_limit: "2026-11-21T12:30:00.000Z" }));
    expect(() => decideStartIssue(state, { now, pays_by_card: false }, metadata)).toThrow("time limit");
  });

  it("given a booking the airline has not confirmed, when issue starts, then it is refused", () => {
    const state = given(ev("BookingHeld", { ...held, provider_status: "in_progress" }));
    expect(() => decideStartIssue(state, { now, pays_by_card: false }, metadata)).toThrow("not confirmed");
  });

  it("given a pending price change, when issue starts, then the agent must reprice first", () => {
    const state = given(
      ev("BookingHeld", held),
      ev("BookingPriceChanged", { new_price: { amount: 1, currency: "UAH" } }),
    );
    expect(() => decideStartIssue(state, { now, pays_by_card: false }, metadata)).toThrow("reprice");
  });
});

describe("voiding and cancelling", () => {
  const issued = (voidUntilAt: string | null) =>
    given(
      ev("BookingHeld", held),
      ev("TicketingStarted", { charged: held.price }),
      ev("TicketsIssued", { tickets: [], issued_at: now.toISOString(), void_until: voidUntilAt }),
    );

  it("given issued tickets inside the void window, when voided, then the charge is credited back", () => {
    const { events, credit } = decideVoid(issued("2026-11-21T23:59:59.000Z"), { now }, metadata);
    expect(events.map((e) => e.type)).toEqual(["BookingVoided"]);
    expect(credit).toEqual(held.price);
  });

  it("given issued tickets after the void window, when voided, then it is refused", () => {
    expect(() => decideVoid(issued("2026-11-21T12:59:00.000Z"), { now }, metadata)).toThrow("void window");
  });

  it("given a low-cost carrier, then there is no void window", () => {
    expect(voidUntil(now, 24, true)).toBeNull();
    expect(voidUntil(now, 24, false)?.toISOString()).toBe("2026-11-21T23:59:59.000Z");
    expect(voidUntil(now, 2, false)?.toISOString()).toBe("2026-11-21T15:00:00.000Z");
  });

  it("given a held booking, when cancelled, then BookingCancelled; an issued one cannot be cancelled", () => {
    expect(decideCancel(given(ev("BookingHeld", held)), { now }, metadata).map((e) => e.type)).toEqual([
      "BookingCancelled",
    ]);
    expect(() => decideCancel(issued(null), { now }, metadata)).toThrow("Only held");
  });

  it("given a held booking past its time limit, when the expiry runs, then it expires; before it, nothing", () => {
    const state = given(ev("BookingHeld", { ...held, time_limit: "2026-11-21T12:30:00.000Z" }));
    expect(decideExpire(state, { now }, metadata).map((e) => e.type)).toEqual(["BookingExpired"]);
    expect(decideExpire(given(ev("BookingHeld", held)), { now }, metadata)).toEqual([]);
  });
});
