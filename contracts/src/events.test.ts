// The event unions of the balance, agency, company, channel and gate streams, and parseEvent over them.
import { describe, expect, it } from "@jest/globals";
import { BALANCE_EVENT_TYPES, BalanceEvent } from "./balances.ts";
import { BookingEvent, StoredBookingEvent, upcastBookingEvent } from "./booking-events.ts";
import { AgencyEvent, CompanyEvent, DIRECTORY_EVENT_TYPES } from "./directory.ts";
import { parseEvent } from "./events.ts";
import { CHANNEL_EVENT_TYPES, ChannelEvent, GateEvent } from "./ticketing.ts";

const uah = (amount: number) => ({ amount, currency: "UAH" });

describe("BalanceEvent", () => {
  it("when each balance event is parsed, then it comes back as written", () => {
    const events = [
      { type: "BalanceToppedUp", data: { company_id: "c1", amount: uah(100_00), comment: "Opening" } },
      {
        type: "BalanceCharged",
        data: { company_id: "c1", amount: uah(40_00), locator: "AB12CD", reason: "issue" },
      },
      {
        type: "BalanceCredited",
        data: { company_id: "c1", amount: uah(40_00), locator: "AB12CD", reason: "void" },
      },
      { type: "BalanceCorrected", data: { company_id: "c1", amount: uah(-5_00), reason: "Wire returned" } },
      { type: "BalanceCreditLimitSet", data: { company_id: "c1", credit_limit: uah(500_00) } },
      { type: "BalanceClosed", data: { company_id: "c1" } },
    ];
    for (const event of events) expect(BalanceEvent.parse(event)).toEqual(event);
    expect(BALANCE_EVENT_TYPES).toEqual([
      "BalanceToppedUp",
      "BalanceCharged",
      "BalanceCredited",
      "BalanceCorrected",
      "BalanceCreditLimitSet",
      "BalanceClosed",
    ]);
  });

  it("when a charge has no locator, a fractional amount or an unknown type, then it is refused", () => {
    const charge = { company_id: "c1", amount: uah(40_00), locator: "AB12CD", reason: "issue" };
    expect(
      BalanceEvent.safeParse({ type: "BalanceCharged", data: { ...charge, locator: undefined } }).success,
    ).toBe(false);
    expect(
      BalanceEvent.safeParse({ type: "BalanceCharged", data: { ...charge, amount: uah(0.5) } }).success,
    ).toBe(false);
    expect(BalanceEvent.safeParse({ type: "BalanceRefunded", data: charge }).success).toBe(false);
  });
});

describe("agency, company, channel and gate events", () => {
  it("when a valid event of each stream is parsed, then it comes back as written", () => {
    const percent = { carrier: null, charge: { kind: "percent", bps: 150 } };
    expect(
      AgencyEvent.parse({
        type: "AgencyPricingSet",
        data: { agency_id: "a1", markups: [percent], transaction_fee: null },
      }),
    ).toMatchObject({ type: "AgencyPricingSet" });
    expect(CompanyEvent.parse({ type: "CompanyGateToggled", data: { active: false } })).toEqual({
      type: "CompanyGateToggled",
      data: { active: false },
    });
    expect(ChannelEvent.parse({ type: "ChannelDeleted", data: {} })).toEqual({
      type: "ChannelDeleted",
      data: {},
    });
    expect(GateEvent.parse({ type: "GateToggled", data: { gate: "main", active: false } }).data.gate).toBe(
      "main",
    );
  });

  it("when an event names a gate, a markup or a switch that does not exist, then it is refused", () => {
    expect(GateEvent.safeParse({ type: "GateToggled", data: { gate: "side", active: false } }).success).toBe(
      false,
    );
    expect(
      CompanyEvent.safeParse({
        type: "CompanyMarkupsSet",
        data: { company_id: "c1", markups: [{ carrier: null, charge: { kind: "percent", bps: -1 } }] },
      }).success,
    ).toBe(false);
    expect(ChannelEvent.safeParse({ type: "ChannelToggledByAdmin", data: { active: "yes" } }).success).toBe(
      false,
    );
    expect(AgencyEvent.safeParse({ type: "CompanyRegistered", data: {} }).success).toBe(false);
  });

  it("when the directory's event types are listed, then every agency and company event is among them", () => {
    for (const o of [...AgencyEvent.options, ...CompanyEvent.options])
      expect(DIRECTORY_EVENT_TYPES).toContain(o.shape.type.value);
    expect(CHANNEL_EVENT_TYPES).toContain("ChannelCredentialChecked");
  });
});

describe("parseEvent", () => {
  const stored = {
    eventId: "e1",
    streamId: "channel-x",
    type: "ChannelToggledByAdmin",
    data: { active: false },
  };

  it("when a stored event matches its union, then its type and data are checked and the rest is kept", () => {
    const event = parseEvent(ChannelEvent, stored);
    expect(event).toEqual(stored);
    if (event.type !== "ChannelToggledByAdmin") throw new Error("narrowed to the wrong event");
    expect(event.data.active).toBe(false);
  });

  it("when a stored event is not of its stream's union, then it throws", () => {
    expect(() => parseEvent(ChannelEvent, { ...stored, type: "GateToggled" })).toThrow();
    expect(() => parseEvent(ChannelEvent, { ...stored, data: {} })).toThrow();
  });
});

describe("booking events over time: the paying claims", () => {
  // Stored before the form of payment was recorded, byte for byte as in es.events.data: TicketingStarted version 2,
  // ExchangeStarted and AncillariesStarted version 1 (event-versions.ts; "version 1/2" below name the claims' shapes
  // before and after paid_by). Read with no version known, as a reader holding the event alone reads it.
  const V1 = {
    balance: {
      type: "TicketingStarted",
      data: { operation_id: "op-1", at: "2026-11-01T10:00:00.000Z", charged: uah(1_250_00) },
    },
    unknown: {
      type: "TicketingStarted",
      data: { operation_id: "op-2", at: "2026-11-01T10:00:00.000Z", charged: null },
    },
    exchange: {
      type: "ExchangeStarted",
      data: {
        operation_id: "op-3",
        at: "2026-11-02T10:00:00.000Z",
        reshop_offer_id: "o1",
        charged: uah(70_00),
      },
    },
    emds: {
      type: "AncillariesStarted",
      data: { operation_id: "op-4", at: "2026-11-03T10:00:00.000Z", lines: [], charged: null },
    },
  };

  it("when a version 1 claim is read, then a balance charge reads as paid by the balance and anything else as not known", () => {
    expect(upcastBookingEvent(V1.balance)).toEqual({
      type: "TicketingStarted",
      data: { ...V1.balance.data, paid_by: { method: "balance" } },
    });
    expect(upcastBookingEvent(V1.unknown)).toEqual({
      type: "TicketingStarted",
      data: { ...V1.unknown.data, paid_by: null },
    });
    expect(upcastBookingEvent(V1.exchange)).toMatchObject({ data: { paid_by: { method: "balance" } } });
    expect(upcastBookingEvent(V1.emds)).toMatchObject({ data: { paid_by: null } });
    for (const stored of [V1.balance, V1.unknown, V1.exchange])
      expect(StoredBookingEvent.parse(stored)).toEqual(upcastBookingEvent(stored));
  });

  it("when a version 2 claim or any other event is read, then it is left as written", () => {
    const byCard = {
      type: "TicketingStarted",
      data: {
        operation_id: "op-5",
        at: "2026-11-04T10:00:00.000Z",
        charged: null,
        paid_by: { method: "card", card_id: "card-1", brand: "visa", last4: "4242" },
      },
    };
    expect(upcastBookingEvent(byCard)).toBe(byCard);
    expect(StoredBookingEvent.parse(byCard)).toEqual(byCard);
    const expired = { type: "BookingExpired", data: { at: "2026-11-04T10:00:00.000Z" } };
    expect(upcastBookingEvent(expired)).toBe(expired);
    // Version 2 requires the field: a decider cannot forget it.
    expect(BookingEvent.safeParse(V1.balance).success).toBe(false);
  });
});
