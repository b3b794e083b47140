// The event unions of the balance, agency, company, channel and gate streams, and parseEvent over them.
import { describe, expect, it } from "@jest/globals";
import { BALANCE_EVENT_TYPES, BalanceEvent } from "./balances.ts";
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
