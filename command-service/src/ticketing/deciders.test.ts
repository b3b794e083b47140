import { describe, expect, it } from "@jest/globals";
import type { CardEvent } from "@skyward/contracts/cards";
import type { ChannelCreated, ChannelEvent } from "@skyward/contracts/ticketing";
import type { CardCommand, ChannelCommand } from "@skyward/contracts/ticketing-commands";
import { deciderKit, refusal } from "../testing/decider-kit.ts";
import { type CardState, decideCard, evolveCard, initialCard } from "./card.ts";
import {
  allGatesOpen,
  assertCanIssue,
  assertCanSell,
  type ChannelState,
  copyChannel,
  decideChannel,
  evolveChannel,
  initialChannel,
} from "./channel.ts";
import { decideGlobalGate, decidePartnerGate, evolvePartnerGate, initialPartnerGate } from "./gates.ts";

/** given(...events).when(command).thenEvents(events) | thenRefused(code), over the channel and card deciders. */
const channel = deciderKit<ChannelCommand, ChannelState, ChannelEvent>({
  decide: decideChannel,
  evolve: evolveChannel,
  initial: initialChannel,
});
const card = deciderKit<CardCommand, CardState, CardEvent>({
  decide: decideCard,
  evolve: evolveCard,
  initial: initialCard,
});

const created: ChannelCreated = {
  channel_id: "ch1",
  agency_id: "a1",
  title: "Sandbox NDC",
  supplier: "sandbox",
  currency: "UAH",
  form_of_payment: "balance",
  void_window_hours: 24,
  credential_active: true,
  sources: { web: true, api: true, extension: true },
};
const Created: ChannelEvent = { type: "ChannelCreated", data: created };
const attached: ChannelEvent = { type: "ChannelCardAttached", data: { credit_card_id: "card1" } };
const paysWithCard1: ChannelEvent = {
  type: "ChannelTicketingCardSet",
  data: { credit_card_id: "card1", token: "tok_1", previous: null },
};
const now = new Date("2026-11-24T10:00:00Z");
const facts = {
  brand: "visa" as const,
  last4: "4242",
  exp_month: 12,
  exp_year: 2028,
  holder: "OKSANA PETRENKO",
};

describe("the channel decider", () => {
  it("given no channel, when created, then it starts switched off for the administrator and without credentials", () => {
    channel
      .given()
      .when({ type: "CreateChannel", channel_id: "ch2", agency_id: "a1", title: "GDS", currency: "PLN" })
      .thenEvents([
        {
          type: "ChannelCreated",
          data: {
            channel_id: "ch2",
            agency_id: "a1",
            title: "GDS",
            supplier: "sandbox",
            currency: "PLN",
            form_of_payment: "balance",
            void_window_hours: 24,
            credential_active: false,
            sources: { web: true, api: true, extension: true },
            active_by_admin: false,
          },
        },
      ]);
  });

  it("given an active channel, when the supervisor switches it off, then one event; switching it off again changes nothing", () => {
    const off: ChannelEvent = { type: "ChannelToggledBySupervisor", data: { active: false } };
    channel.given(Created).when({ type: "ToggleChannel", by: "supervisor", active: false }).thenEvents([off]);
    channel
      .given(Created, off)
      .when({ type: "ToggleChannel", by: "supervisor", active: false })
      .thenEvents([]);
    channel
      .given(Created, off)
      .when({ type: "ToggleChannel", by: "admin", active: false })
      .thenEvents([{ type: "ChannelToggledByAdmin", data: { active: false } }]);
  });

  it("given a channel, when a source or a company is switched, then the event names it and repeats change nothing", () => {
    channel
      .given(Created)
      .when({ type: "ToggleSource", source: "api", active: false })
      .thenEvents([{ type: "ChannelSourceToggled", data: { source: "api", active: false } }]);
    const companyOff: ChannelEvent = {
      type: "ChannelCompanyToggled",
      data: { company_id: "c1", active: false },
    };
    channel
      .given(Created)
      .when({ type: "ToggleCompany", company_id: "c1", active: false })
      .thenEvents([companyOff]);
    channel
      .given(Created, companyOff)
      .when({ type: "ToggleCompany", company_id: "c1", active: false })
      .thenEvents([]);
    channel.given(Created).when({ type: "ToggleCompany", company_id: "c1", active: true }).thenEvents([]);
  });

  it("given a channel, when a card is chosen and paying by card asked in one update, then attach, card, then form of payment", () => {
    channel
      .given(Created)
      .when({
        type: "UpdateChannel",
        form_of_payment: "card",
        ticketing_card: { id: "card1", token: "tok_1" },
      })
      .thenEvents([
        attached,
        paysWithCard1,
        { type: "ChannelFormOfPaymentSet", data: { form_of_payment: "card", previous: "balance" } },
      ]);
  });

  it("given no card, when paying by card is asked, then it is refused", () => {
    channel
      .given(Created)
      .when({ type: "UpdateChannel", form_of_payment: "card" })
      .thenRefused("card_required");
  });

  it("given codes, when they are set to what they are, then nothing; when changed, then before and after", () => {
    const nego: ChannelEvent = { type: "ChannelNegoCodeSet", data: { code: "NEGO1", previous: null } };
    channel.given(Created).when({ type: "UpdateChannel", nego_code: "NEGO1" }).thenEvents([nego]);
    channel.given(Created, nego).when({ type: "UpdateChannel", nego_code: "NEGO1" }).thenEvents([]);
    channel
      .given(Created, nego)
      .when({ type: "UpdateChannel", nego_code: null, resident_fares_code: "RES" })
      .thenEvents([
        { type: "ChannelNegoCodeSet", data: { code: null, previous: "NEGO1" } },
        { type: "ChannelResidentFaresCodeSet", data: { code: "RES", previous: null } },
      ]);
  });

  it("given the card that pays by card, when it is detached, then refused; paying from the balance, then it is cleared and detached", () => {
    const byCard: ChannelEvent = {
      type: "ChannelFormOfPaymentSet",
      data: { form_of_payment: "card", previous: "balance" },
    };
    channel
      .given(Created, attached, paysWithCard1, byCard)
      .when({ type: "DetachCard", credit_card_id: "card1" })
      .thenRefused("card_in_use");
    channel
      .given(Created, attached, paysWithCard1)
      .when({ type: "DetachCard", credit_card_id: "card1" })
      .thenEvents([
        { type: "ChannelTicketingCardSet", data: { credit_card_id: null, token: null, previous: "card1" } },
        { type: "ChannelCardDetached", data: { credit_card_id: "card1" } },
      ]);
    channel
      .given(Created)
      .when({ type: "DetachCard", credit_card_id: "card9" })
      .thenRefused("card_not_found");
  });

  it("given a channel, when credentials are replaced, then the replacement and the check's outcome, never the secret", () => {
    const events = decideChannel(
      { type: "ReplaceCredentials", active: false },
      [Created].reduce(evolveChannel, initialChannel),
    );
    expect(events).toEqual([
      { type: "ChannelCredentialsReplaced", data: {} },
      { type: "ChannelCredentialChecked", data: { active: false, previous: true } },
    ]);
  });

  it("given a deleted channel, when anything is asked, then it is not found", () => {
    channel
      .given(Created, { type: "ChannelDeleted", data: {} })
      .when({ type: "ToggleChannel", by: "admin", active: false })
      .thenRefused("channel_not_found");
    channel.given().when({ type: "DeleteChannel" }).thenRefused("channel_not_found");
  });
});

describe("a partner's copy of a channel", () => {
  it("given a channel with codes, a source off, credentials, a card paying its tickets, when copied, then settings only: off, unchecked, paid from the balance", () => {
    const source = [
      Created,
      { type: "ChannelSourceToggled", data: { source: "api", active: false } },
      { type: "ChannelNegoCodeSet", data: { code: "NEGO1", previous: null } },
      { type: "ChannelResidentFaresCodeSet", data: { code: "RES", previous: null } },
      { type: "ChannelCredentialsReplaced", data: {} },
      attached,
      paysWithCard1,
      { type: "ChannelFormOfPaymentSet", data: { form_of_payment: "card", previous: "balance" } },
    ] satisfies ChannelEvent[];
    const events = copyChannel(source.reduce(evolveChannel, initialChannel), {
      channel_id: "ch2",
      agency_id: "a2",
    });
    expect(events.map((e) => e.type)).toEqual([
      "ChannelCreated",
      "ChannelSourceToggled",
      "ChannelNegoCodeSet",
      "ChannelResidentFaresCodeSet",
    ]);
    const copy = events.reduce(evolveChannel, initialChannel);
    expect(copy).toMatchObject({
      status: "active",
      channel_id: "ch2",
      agency_id: "a2",
      title: "Sandbox NDC",
      currency: "UAH",
      sources: { web: true, api: false, extension: true },
      nego_code: "NEGO1",
      resident_fares_code: "RES",
      active_by_admin: false,
      credential_active: false,
      credential_set: false,
      form_of_payment: "balance",
      card_ids: [],
      ticketing_card: null,
    });
  });

  it("given a deleted channel, when copied, then refused as missing", () => {
    const deleted = [Created, { type: "ChannelDeleted", data: {} }] satisfies ChannelEvent[];
    expect(
      refusal(() =>
        copyChannel(deleted.reduce(evolveChannel, initialChannel), { channel_id: "c", agency_id: "a" }),
      ),
    ).toMatchObject({ code: "channel_not_found" });
  });
});

describe("the gates", () => {
  it("given an open gate, when closed, then GateToggled; when closed again, then nothing", () => {
    expect(decideGlobalGate("main", { type: "ToggleGate", active: false }, allGatesOpen)).toEqual([
      { type: "GateToggled", data: { gate: "main", active: false } },
    ]);
    expect(
      decideGlobalGate("channel", { type: "ToggleGate", active: false }, { ...allGatesOpen, channel: false }),
    ).toEqual([]);
  });

  it("given an agency, when its gate is closed, then AgencyGateToggled; given none, then not found", () => {
    const registered = evolvePartnerGate("Agency")(initialPartnerGate, {
      type: "AgencyRegistered",
      data: {},
    } as never);
    expect(decidePartnerGate("Agency", { type: "ToggleGate", active: false }, registered)).toEqual([
      { type: "AgencyGateToggled", data: { active: false } },
    ]);
    expect(
      refusal(() => decidePartnerGate("Company", { type: "ToggleGate", active: false }, initialPartnerGate)),
    ).toMatchObject({ code: "company_not_found", status: 404 });
  });

  it("given each gate closed in turn, when an issue is checked, then it is refused with a code naming that gate", () => {
    const live = [Created].reduce(evolveChannel, initialChannel);
    for (const [gate, code] of [
      ["main", "gate_main_off"],
      ["consolidator", "gate_consolidator_off"],
      ["channel", "gate_channel_off"],
      ["agency", "gate_agency_off"],
      ["company", "gate_company_off"],
      ["company_channel", "channel_company_off"],
    ] as const)
      expect(refusal(() => assertCanIssue({ ...allGatesOpen, [gate]: false }, live, "web"))).toMatchObject({
        code,
      });
    expect(refusal(() => assertCanIssue(allGatesOpen, live, "web"))).toBeNull();
    const apiOff = [
      Created,
      { type: "ChannelSourceToggled", data: { source: "api", active: false } } as ChannelEvent,
    ];
    expect(
      refusal(() => assertCanSell(allGatesOpen, apiOff.reduce(evolveChannel, initialChannel), "api")),
    ).toMatchObject({
      code: "source_channel_off",
    });
  });

  it("given a channel that pays by card, when issuing, then the card it pays with is there", () => {
    const state = [Created, attached, paysWithCard1].reduce(evolveChannel, initialChannel);
    expect(state).toMatchObject({ ticketing_card: { id: "card1", token: "tok_1" } });
  });
});

describe("the card decider", () => {
  const registered: CardEvent = {
    type: "CardRegistered",
    data: { card_id: "card1", agency_id: "a1", ...facts, token: "tok_1" },
  };

  it("given no card, when registered with a future expiry, then the facts and the token, no number", () => {
    card
      .given()
      .when({ type: "RegisterCard", card_id: "card1", agency_id: "a1", facts, token: "tok_1", now })
      .thenEvents([registered]);
  });

  it("given no card, when registered expired, then refused", () => {
    card
      .given()
      .when({
        type: "RegisterCard",
        card_id: "card1",
        agency_id: null,
        facts: { ...facts, exp_month: 10, exp_year: 2026 },
        token: "t",
        now,
      })
      .thenRefused("invalid_input");
    // The expiry month itself still counts.
    card
      .given()
      .when({
        type: "RegisterCard",
        card_id: "c",
        agency_id: null,
        facts: { ...facts, exp_month: 11, exp_year: 2026 },
        token: "t",
        now,
      })
      .thenEvents([
        {
          type: "CardRegistered",
          data: { card_id: "c", agency_id: null, ...facts, exp_month: 11, exp_year: 2026, token: "t" },
        },
      ]);
  });

  it("given a card attached to a channel, when deleted, then refused; detached, then deleted", () => {
    const attachedTo: CardEvent = { type: "CardAttachedToChannel", data: { channel_id: "ch1" } };
    card.given(registered, attachedTo).when({ type: "DeleteCard" }).thenRefused("card_in_use");
    card
      .given(registered, attachedTo, { type: "CardDetachedFromChannel", data: { channel_id: "ch1" } })
      .when({ type: "DeleteCard" })
      .thenEvents([{ type: "CardDeleted", data: {} }]);
  });

  it("given a card, when renewed, then CardUpdated with the new expiry; the same values change nothing", () => {
    card
      .given(registered)
      .when({ type: "UpdateCard", exp_year: 2030, now })
      .thenEvents([
        { type: "CardUpdated", data: { exp_month: 12, exp_year: 2030, holder: "OKSANA PETRENKO" } },
      ]);
    card.given(registered).when({ type: "UpdateCard", holder: "OKSANA PETRENKO", now }).thenEvents([]);
  });
});
