import { describe, expect, it } from "@jest/globals";
import type { AgencyEvent, CompanyEvent, JoinAgencyEvent } from "@skyward/contracts/directory";
import { refusal } from "../testing/decider-kit.ts";
import { decideAgency, evolve as evolveAgency, noAgency } from "./agency.ts";
import { decideCompany, evolve as evolveCompany, noCompany } from "./company.ts";
import { decideJoinRequest, evolve as evolveJoin, noJoinRequest } from "./join-request.ts";

const registered: AgencyEvent = { type: "AgencyRegistered", data: { agency_id: "a1", name: "Dnipro" } };
const agency = (...events: AgencyEvent[]) => [registered, ...events].reduce(evolveAgency, noAgency);
const companyRegistered: CompanyEvent = {
  type: "CompanyRegistered",
  data: { company_id: "c1", agency_id: "a1", name: "Kyiv", currency: "UAH", shared_bookings: false },
};
const company = (...events: CompanyEvent[]) =>
  [companyRegistered, ...events].reduce(evolveCompany, noCompany);
const fee = { kind: "fixed" as const, amount: { amount: 50_00, currency: "UAH" }, per: "passenger" as const };

describe("the partner decider", () => {
  it("given no partner, when registered with pricing and a flag, then registered, priced and flagged", () => {
    expect(
      decideAgency(
        {
          type: "RegisterAgency",
          agency_id: "a1",
          name: "Dnipro",
          markups: [],
          transaction_fee: fee,
          flags: { production_api_on: true, corporate_number_on: false },
        },
        noAgency,
      ),
    ).toEqual([
      registered,
      { type: "AgencyPricingSet", data: { agency_id: "a1", markups: [], transaction_fee: fee } },
      { type: "AgencyFlagSet", data: { agency_id: "a1", flag: "production_api_on", on: true } },
    ]);
  });

  it("given a partner, when registered again, then it is refused", () => {
    const again = {
      type: "RegisterAgency" as const,
      agency_id: "a1",
      name: "X",
      markups: [],
      transaction_fee: null,
      flags: {},
    };
    expect(refusal(() => decideAgency(again, agency()))).toMatchObject({ code: "agency_exists" });
  });

  it("given a flag off, when it is patched without a value, then it flips; with its current value, then nothing", () => {
    expect(decideAgency({ type: "SetAgencyFlag", flag: "corporate_number_on" }, agency())).toEqual([
      { type: "AgencyFlagSet", data: { agency_id: "a1", flag: "corporate_number_on", on: true } },
    ]);
    expect(decideAgency({ type: "SetAgencyFlag", flag: "corporate_number_on", on: false }, agency())).toEqual(
      [],
    );
  });

  it("given pricing, when the transaction fee is set, then the markups are kept", () => {
    const markups = [{ carrier: null, charge: { kind: "percent" as const, bps: 150 } }];
    const priced = agency({
      type: "AgencyPricingSet",
      data: { agency_id: "a1", markups, transaction_fee: null },
    });
    expect(decideAgency({ type: "SetAgencyTransactionFee", transaction_fee: fee }, priced)).toEqual([
      { type: "AgencyPricingSet", data: { agency_id: "a1", markups, transaction_fee: fee } },
    ]);
  });

  it("given a partner stored before time zones (its registration as stored then), when folded, then it writes UTC; a zone set is kept, and setting the same again decides nothing", () => {
    // The stored shape of AgencyRegistered is unchanged: an older stream folds as it did, with the default zone.
    const stored = { type: "AgencyRegistered", data: { agency_id: "a1", name: "Dnipro" } };
    expect(agency()).toMatchObject({ status: "active", time_zone: "UTC" });
    expect([stored as AgencyEvent].reduce(evolveAgency, noAgency)).toEqual(agency());
    const set: AgencyEvent = {
      type: "AgencyTimeZoneSet",
      data: { agency_id: "a1", time_zone: "Europe/Kyiv" },
    };
    expect(decideAgency({ type: "UpdateAgency", time_zone: "Europe/Kyiv" }, agency())).toEqual([set]);
    expect(agency(set)).toMatchObject({ time_zone: "Europe/Kyiv" });
    expect(decideAgency({ type: "UpdateAgency", time_zone: "Europe/Kyiv" }, agency(set))).toEqual([]);
  });

  it("given companies with money or open bookings, when the partner is deleted, then it is refused with a clear error", () => {
    expect(
      refusal(() =>
        decideAgency({ type: "DeleteAgency", companies_with_money: ["c1"], open_bookings: 0 }, agency()),
      ),
    ).toMatchObject({ code: "agency_has_money", status: 422 });
    expect(
      refusal(() =>
        decideAgency({ type: "DeleteAgency", companies_with_money: [], open_bookings: 2 }, agency()),
      ),
    ).toMatchObject({ code: "agency_has_open_bookings" });
    const deleted = decideAgency(
      { type: "DeleteAgency", companies_with_money: [], open_bookings: 0 },
      agency(),
    );
    expect(deleted).toEqual([{ type: "AgencyDeleted", data: { agency_id: "a1" } }]);
    expect(
      refusal(() => decideAgency({ type: "UpdateAgency", name: "Y" }, agency(...deleted))),
    ).toMatchObject({
      status: 404,
    });
  });
});

describe("the company decider", () => {
  it("given a company, when shared bookings are switched on, then CompanySharedBookingsSet; switching to the same, nothing", () => {
    expect(decideCompany({ type: "SetSharedBookings", shared_bookings: true }, company())).toEqual([
      { type: "CompanySharedBookingsSet", data: { company_id: "c1", shared_bookings: true } },
    ]);
    expect(decideCompany({ type: "SetSharedBookings", shared_bookings: false }, company())).toEqual([]);
  });

  it("given money or open bookings, when the company is deleted, then refused; else CompanyDeleted and it is gone", () => {
    const uah = (amount: number) => ({ amount, currency: "UAH" });
    expect(
      refusal(() => decideCompany({ type: "DeleteCompany", open_bookings: 0, balance: uah(1) }, company())),
    ).toMatchObject({ code: "company_has_money" });
    expect(
      refusal(() => decideCompany({ type: "DeleteCompany", open_bookings: 0, balance: uah(-1) }, company())),
    ).toMatchObject({ code: "company_has_money" });
    expect(
      refusal(() => decideCompany({ type: "DeleteCompany", open_bookings: 1, balance: uah(0) }, company())),
    ).toMatchObject({ code: "company_has_open_bookings" });
    const deleted = decideCompany({ type: "DeleteCompany", open_bookings: 0, balance: null }, company());
    expect(deleted).toEqual([{ type: "CompanyDeleted", data: { company_id: "c1" } }]);
    expect(
      refusal(() => decideCompany({ type: "SetCompanyMarkups", markups: [] }, company(...deleted))),
    ).toMatchObject({ status: 404 });
  });
});

describe("the connection request decider", () => {
  const send = {
    type: "SendJoinRequest" as const,
    request_id: "r1",
    user_id: "u1",
    agency_id: "a1",
    company_id: null,
  };
  const sent: JoinAgencyEvent = {
    type: "JoinAgencyRequested",
    data: { request_id: "r1", user_id: "u1", agency_id: "a1", company_id: null },
  };
  const state = (...events: JoinAgencyEvent[]) => events.reduce(evolveJoin, noJoinRequest);

  it("given none, when sent, then sent; sent again while waiting, then refused", () => {
    expect(decideJoinRequest(send, noJoinRequest)).toEqual([sent]);
    expect(refusal(() => decideJoinRequest(send, state(sent)))).toMatchObject({
      code: "join_request_pending",
    });
  });

  it("given a sent request, when accepted with a company, then accepted; when accepted again, then refused", () => {
    const accepted = decideJoinRequest({ type: "AcceptJoinRequest", company_id: "c1" }, state(sent));
    expect(accepted).toEqual([
      { type: "JoinAgencyRequestAccepted", data: { request_id: "r1", company_id: "c1" } },
    ]);
    expect(
      refusal(() => decideJoinRequest({ type: "AcceptJoinRequest", company_id: null }, state(sent))),
    ).toMatchObject({ code: "invalid_input" });
    expect(
      refusal(() => decideJoinRequest({ type: "RejectJoinRequest" }, state(sent, ...accepted))),
    ).toMatchObject({ code: "join_request_decided" });
  });

  it("given an accepted request, when the agent is disconnected, then it resets and a new request may be sent", () => {
    const accepted: JoinAgencyEvent = {
      type: "JoinAgencyRequestAccepted",
      data: { request_id: "r1", company_id: "c1" },
    };
    const reset = decideJoinRequest({ type: "ResetJoinRequest" }, state(sent, accepted));
    expect(reset).toEqual([{ type: "JoinAgencyRequestReset", data: { request_id: "r1" } }]);
    expect(refusal(() => decideJoinRequest(send, state(sent, accepted)))).toMatchObject({
      code: "already_connected",
    });
    expect(decideJoinRequest(send, state(sent, accepted, ...reset))).toEqual([sent]);
  });
});
