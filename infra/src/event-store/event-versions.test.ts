// Event versions (contracts/src/event-versions.ts): every older stored shape of every event type (the golden
// fixtures under contracts/test-fixtures/events) reads as its current-shape twin, step by step and at once; the
// current shape parses as it is stored.
import { describe, expect, it } from "@jest/globals";
import { BalanceEvent } from "@skyward/contracts/balances";
import { BookingEvent, StoredBookingEvent, upcastBookingEvent } from "@skyward/contracts/booking-events";
import {
  currentVersion,
  stampVersion,
  storedVersion,
  UPCASTERS,
  upcastEvent,
} from "@skyward/contracts/event-versions";
import { ChannelEvent } from "@skyward/contracts/ticketing";
import { eventExamples, eventFixture, eventFixtures, fixtureTypes } from "./fixtures.ts";

const versioned = Object.keys(UPCASTERS);
/** Each stream's union, checked in depth, by the types it holds. */
const UNIONS = [BookingEvent, BalanceEvent, ChannelEvent];
const unionOf = (type: string) => {
  const union = UNIONS.find((u) => u.options.some((o) => o.shape.type.value === type));
  if (!union) throw new Error(`no union holds ${type}`);
  return union;
};
const isBooking = (type: string) => BookingEvent.options.some((o) => o.shape.type.value === type);

describe("event versions", () => {
  it("when an event type has upcasters, then each is one step from the version before it, and each version has a golden fixture", () => {
    expect(versioned.length).toBeGreaterThan(0);
    for (const type of versioned) {
      expect(UPCASTERS[type]?.map((u) => u.from)).toEqual(
        Array.from({ length: currentVersion(type) - 1 }, (_, i) => i + 1),
      );
      expect(eventFixtures(type).map((f) => f.version)).toEqual(
        Array.from({ length: currentVersion(type) }, (_, i) => i + 1),
      );
    }
    // No fixture of a type or a version the table does not know.
    for (const type of fixtureTypes()) {
      expect(() => unionOf(type)).not.toThrow();
      for (const f of eventFixtures(type)) {
        expect(f.type).toBe(type);
        expect(f.version).toBeLessThanOrEqual(currentVersion(type));
      }
    }
  });

  it("when an older fixture is upcast from its version, then it is its current-shape twin, and each step gives the next version's fixture", () => {
    for (const type of versioned) {
      const fixtures = eventFixtures(type);
      const current = fixtures.at(-1)?.data;
      for (const old of fixtures) {
        expect(upcastEvent(type, old.data, old.version)).toEqual(current);
        const step = UPCASTERS[type]?.find((u) => u.from === old.version);
        if (step) expect(step.up(old.data)).toEqual(eventFixture(type, old.version + 1).data);
      }
    }
  });

  it("when an older fixture is read with no version (written before versions were stamped), then it parses as its twin does", () => {
    for (const type of versioned.filter(isBooking)) {
      const fixtures = eventFixtures(type);
      const twin = fixtures.at(-1) as (typeof fixtures)[number];
      for (const old of fixtures) {
        const stored = { type, data: old.data };
        expect(StoredBookingEvent.parse(stored)).toEqual(StoredBookingEvent.parse({ type, data: twin.data }));
        expect(upcastBookingEvent(stored)).toEqual({ type, data: twin.data });
      }
    }
  });

  it("when a current-shape fixture is checked in depth, then it parses to exactly what is stored (a shape change needs a new version)", () => {
    for (const type of versioned) {
      const current = [eventFixture(type, currentVersion(type)), ...eventExamples(type)];
      for (const { version, data } of current) {
        expect(version).toBe(currentVersion(type));
        expect(unionOf(type).parse({ type, data })).toEqual({ type, data });
      }
    }
    // The examples set the fields their twins leave out.
    expect(eventExamples("BalanceCharged")[0]?.data).toHaveProperty("operation_id");
    expect(eventExamples("ChannelCredentialChecked")[0]?.data).toHaveProperty("previous");
    expect(eventExamples("ReshopOffersPriced")[0]?.data).toHaveProperty("offers.0.losses");
  });

  it("when an event is stamped, then a type past version 1 records its version and one at version 1 none; a stored event with none is version 1", () => {
    const metadata = { trace_id: "t" };
    expect(stampVersion("TicketingStarted", metadata)).toEqual({ trace_id: "t", schema_version: 3 });
    expect(stampVersion("ExchangeStarted", metadata)).toEqual({ trace_id: "t", schema_version: 2 });
    expect(stampVersion("BookingHeld", metadata)).toBe(metadata);
    expect(storedVersion(metadata)).toBe(1);
    expect(storedVersion({ schema_version: 2 })).toBe(2);
    expect(storedVersion(null)).toBe(1);
  });

  it("when an event is stored at its current version, then upcasting leaves it as it is, even a field a step would fill", () => {
    const byCard = { operation_id: "op-1", at: "x", charged: null, paid_by: null };
    // Stamped version 3: no step runs, so paid_by stays null even though a balance charge would read otherwise.
    const charged = { ...byCard, charged: { amount: 1, currency: "UAH" } };
    expect(upcastEvent("TicketingStarted", charged, 3)).toBe(charged);
    expect(upcastEvent("BookingHeld", byCard, 1)).toBe(byCard);
    expect(upcastEvent("TicketingStarted", null, 1)).toBeNull();
  });
});
