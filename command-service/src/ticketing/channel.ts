import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import type { SourceChannel } from "@skyward/contracts/metadata";
import { type ChannelCreated, ChannelEvent, GateEvent, type GateName } from "@skyward/contracts/ticketing";
import type { ChannelCommand } from "@skyward/contracts/ticketing-commands";
import { refuse } from "@skyward/infra/refusal";

export const channelStream = (channelId: string) => `channel-${channelId}`;
export const GATES_STREAM = "ticketing-gates";

export type ChannelState =
  | { status: "none" }
  | ({ status: "active" | "deleted" } & ChannelCreated & {
        active_by_admin: boolean;
        active_by_supervisor: boolean;
        /** Companies of the agency the channel is switched off for. */
        companies_off: string[];
        nego_code: string | null;
        resident_fares_code: string | null;
        /** Cards attached to the channel; one of them may pay its tickets. */
        card_ids: string[];
        ticketing_card: { id: string; token: string } | null;
        /** Credentials were stored for it (the seeded sandbox channels sign in with the sandbox's own). */
        credential_set: boolean;
      });

type LiveChannel = Exclude<ChannelState, { status: "none" }>;

/** Folds a channel stream's event, checked against ChannelEvent (a stored event is read as it comes). */
export function evolveChannel(state: ChannelState, stored: { type: string; data: unknown }): ChannelState {
  const event = parseEvent(ChannelEvent, stored);
  if (event.type === "ChannelCreated") {
    return {
      status: "active",
      ...event.data,
      active_by_admin: event.data.active_by_admin ?? true,
      active_by_supervisor: true,
      companies_off: [],
      nego_code: null,
      resident_fares_code: null,
      card_ids: [],
      ticketing_card: null,
      credential_set: false,
    };
  }
  if (state.status === "none") return state;
  switch (event.type) {
    case "ChannelToggledByAdmin":
      return { ...state, active_by_admin: event.data.active };
    case "ChannelToggledBySupervisor":
      return { ...state, active_by_supervisor: event.data.active };
    case "ChannelCredentialChecked":
      return { ...state, credential_active: event.data.active };
    case "ChannelCredentialsReplaced":
      return { ...state, credential_set: true };
    case "ChannelSourceToggled":
      return { ...state, sources: { ...state.sources, [event.data.source]: event.data.active } };
    case "ChannelCompanyToggled": {
      const others = state.companies_off.filter((id) => id !== event.data.company_id);
      return { ...state, companies_off: event.data.active ? others : [...others, event.data.company_id] };
    }
    case "ChannelFormOfPaymentSet":
      return { ...state, form_of_payment: event.data.form_of_payment };
    case "ChannelTicketingCardSet":
      return {
        ...state,
        ticketing_card:
          event.data.credit_card_id && event.data.token
            ? { id: event.data.credit_card_id, token: event.data.token }
            : null,
      };
    case "ChannelNegoCodeSet":
      return { ...state, nego_code: event.data.code };
    case "ChannelResidentFaresCodeSet":
      return { ...state, resident_fares_code: event.data.code };
    case "ChannelCardAttached":
      return { ...state, card_ids: [...state.card_ids, event.data.credit_card_id] };
    case "ChannelCardDetached":
      return { ...state, card_ids: state.card_ids.filter((id) => id !== event.data.credit_card_id) };
    case "ChannelDeleted":
      return { ...state, status: "deleted" };
    default:
      return unhandledEvent(event);
  }
}

export const initialChannel: ChannelState = { status: "none" };

const missing = () => refuse.missing("No such ticketing channel", "channel_not_found");

/**
 * The channel decider. A command that changes nothing appends nothing, so two administrators flipping the same
 * switch at once leave one event, and every audited change has a real before and after.
 */
export function decideChannel(command: ChannelCommand, state: ChannelState): ChannelEvent[] {
  if (command.type === "CreateChannel") {
    if (state.status !== "none") throw refuse.notAllowed("The channel exists already", "channel_exists");
    return [
      {
        type: "ChannelCreated",
        data: {
          channel_id: command.channel_id,
          agency_id: command.agency_id,
          title: command.title,
          supplier: "sandbox",
          currency: command.currency,
          form_of_payment: "balance",
          void_window_hours: 24,
          credential_active: false,
          sources: { web: true, api: true, extension: true },
          active_by_admin: false,
        },
      },
    ];
  }
  if (state.status !== "active") throw missing();
  switch (command.type) {
    case "ToggleChannel": {
      const current = command.by === "admin" ? state.active_by_admin : state.active_by_supervisor;
      if (current === command.active) return [];
      const type = command.by === "admin" ? "ChannelToggledByAdmin" : "ChannelToggledBySupervisor";
      return [{ type, data: { active: command.active } }];
    }
    case "ToggleSource":
      if (state.sources[command.source] === command.active) return [];
      return [{ type: "ChannelSourceToggled", data: { source: command.source, active: command.active } }];
    case "ToggleCompany":
      if (!state.companies_off.includes(command.company_id) === command.active) return [];
      return [
        { type: "ChannelCompanyToggled", data: { company_id: command.company_id, active: command.active } },
      ];
    case "UpdateChannel":
      return decideUpdate(command, state);
    case "AttachCard":
      if (state.card_ids.includes(command.credit_card_id)) return [];
      return [{ type: "ChannelCardAttached", data: { credit_card_id: command.credit_card_id } }];
    case "DetachCard": {
      if (!state.card_ids.includes(command.credit_card_id))
        throw refuse.missing("The card is not attached to this channel", "card_not_found");
      const paysTickets = state.ticketing_card?.id === command.credit_card_id;
      if (paysTickets && state.form_of_payment === "card")
        throw refuse.notAllowed(
          "The channel pays tickets with this card: choose another card or the balance first",
          "card_in_use",
        );
      return [
        ...(paysTickets
          ? [
              {
                type: "ChannelTicketingCardSet" as const,
                data: { credit_card_id: null, token: null, previous: command.credit_card_id },
              },
            ]
          : []),
        { type: "ChannelCardDetached", data: { credit_card_id: command.credit_card_id } },
      ];
    }
    case "ReplaceCredentials":
      return [
        { type: "ChannelCredentialsReplaced", data: {} },
        {
          type: "ChannelCredentialChecked",
          data: { active: command.active, previous: state.credential_active },
        },
      ];
    case "DeleteChannel":
      return [{ type: "ChannelDeleted", data: {} }];
    default:
      return unhandledEvent(command);
  }
}

/**
 * A partner's copy of a channel (POST /agencies/{id}/duplicate): its title, supplier, currency, sources and codes.
 * Not its credentials (the source partner's own supplier account, which the copy must not sell on), nor its cards
 * (the source's payer), so it pays from the balance, and it starts switched off until its own credentials check.
 */
export function copyChannel(
  source: ChannelState,
  copy: { channel_id: string; agency_id: string },
): ChannelEvent[] {
  if (source.status !== "active") throw missing();
  const events: ChannelEvent[] = [];
  let state = initialChannel;
  const apply = (command: ChannelCommand) => {
    const decided = decideChannel(command, state);
    state = decided.reduce<ChannelState>(evolveChannel, state);
    events.push(...decided);
  };
  apply({ type: "CreateChannel", ...copy, title: source.title, currency: source.currency });
  for (const [name, active] of Object.entries(source.sources))
    apply({ type: "ToggleSource", source: name as keyof typeof source.sources, active });
  apply({
    type: "UpdateChannel",
    nego_code: source.nego_code,
    resident_fares_code: source.resident_fares_code,
  });
  return events;
}

/** Card first, then form of payment: one request may choose a card and start paying with it. */
function decideUpdate(
  command: Extract<ChannelCommand, { type: "UpdateChannel" }>,
  state: LiveChannel,
): ChannelEvent[] {
  const events: ChannelEvent[] = [];
  let card = state.ticketing_card;
  if (command.ticketing_card !== undefined && command.ticketing_card?.id !== card?.id) {
    const next = command.ticketing_card;
    if (next && !state.card_ids.includes(next.id))
      events.push({ type: "ChannelCardAttached", data: { credit_card_id: next.id } });
    events.push({
      type: "ChannelTicketingCardSet",
      data: { credit_card_id: next?.id ?? null, token: next?.token ?? null, previous: card?.id ?? null },
    });
    card = next;
  }
  const fop = command.form_of_payment ?? state.form_of_payment;
  if (fop === "card" && !card)
    throw refuse.notAllowed(
      "Choose the card that pays this channel's tickets (ticketing_credit_card_id) to pay by card",
      "card_required",
    );
  if (fop !== state.form_of_payment)
    events.push({
      type: "ChannelFormOfPaymentSet",
      data: { form_of_payment: fop, previous: state.form_of_payment },
    });
  if (command.nego_code !== undefined && command.nego_code !== state.nego_code)
    events.push({ type: "ChannelNegoCodeSet", data: { code: command.nego_code, previous: state.nego_code } });
  if (command.resident_fares_code !== undefined && command.resident_fares_code !== state.resident_fares_code)
    events.push({
      type: "ChannelResidentFaresCodeSet",
      data: { code: command.resident_fares_code, previous: state.resident_fares_code },
    });
  return events;
}

/** On/off switches that stand between an agent and a ticket; every one must be on. */
export interface Gates {
  main: boolean;
  consolidator: boolean;
  /** Every ticketing channel at once (`PATCH /ticketing/channel_gate`). */
  channel: boolean;
  agency: boolean;
  company: boolean;
  /** The channel is on for the company sold for (`PATCH /ticketing/company_channels/{id}`). */
  company_channel: boolean;
}

export type GlobalGates = Pick<Gates, GateName>;
export const openGlobalGates: GlobalGates = { main: true, consolidator: true, channel: true };
export const allGatesOpen: Gates = { ...openGlobalGates, agency: true, company: true, company_channel: true };

export function evolveGlobalGates(state: GlobalGates, stored: { type: string; data: unknown }): GlobalGates {
  // GateToggled is the stream's only event: the parse rejects anything else.
  const { data } = parseEvent(GateEvent, stored);
  return { ...state, [data.gate]: data.active };
}

/** Every gate an issue passes (DESIGN.md section 5), with the reason an agent can act on. */
export function assertCanIssue(gates: Gates, channel: ChannelState, source: SourceChannel): void {
  assertCanSell(gates, channel, source);
  if (channel.status !== "active") return;
  if (!channel.credential_active)
    throw refuse.notAllowed(
      "Ticketing is switched off: the channel's credentials are not active",
      "credential_inactive",
    );
  if (channel.form_of_payment === "card" && !channel.ticketing_card)
    throw refuse.notAllowed("Ticketing is switched off: the channel has no card to pay with", "card_missing");
}

/** The gates a search passes too: a closed gate refuses selling altogether, naming itself. */
export function assertCanSell(gates: Gates, channel: ChannelState, source: SourceChannel): void {
  const closed = (what: string, code: string) =>
    refuse.notAllowed(`Ticketing is switched off: ${what}`, code);
  if (!gates.main) throw closed("main gate", "gate_main_off");
  if (!gates.consolidator) throw closed("consolidator gate", "gate_consolidator_off");
  if (!gates.channel) throw closed("channel gate", "gate_channel_off");
  if (!gates.agency) throw closed("agency gate", "gate_agency_off");
  if (!gates.company) throw closed("company gate", "gate_company_off");
  if (channel.status !== "active") throw closed("the ticketing channel does not exist", "channel_missing");
  if (!channel.active_by_admin || !channel.active_by_supervisor)
    throw closed(`ticketing channel ${channel.title}`, "channel_off");
  if (!gates.company_channel)
    throw closed(`ticketing channel ${channel.title} for this company`, "channel_company_off");
  if (source !== "system" && source !== "assistant" && !channel.sources[source])
    throw closed(`the ${source} source channel`, "source_channel_off");
}
