import { parseEvent, unhandledEvent } from "@skyward/contracts/events";
import type { SourceChannel } from "@skyward/contracts/metadata";
import { type ChannelCreated, ChannelEvent, GateEvent } from "@skyward/contracts/ticketing";
import { IllegalState } from "@skyward/infra/http/errors";

export const channelStream = (channelId: string) => `channel-${channelId}`;
export const GATES_STREAM = "ticketing-gates";

export type ChannelState =
  | { status: "none" }
  | ({ status: "active" | "deleted" } & ChannelCreated & {
        active_by_admin: boolean;
        active_by_supervisor: boolean;
      });

/** Folds a channel stream's event, checked against ChannelEvent (a stored event is read as it comes). */
export function evolveChannel(state: ChannelState, stored: { type: string; data: unknown }): ChannelState {
  const event = parseEvent(ChannelEvent, stored);
  if (event.type === "ChannelCreated") {
    return { status: "active", ...event.data, active_by_admin: true, active_by_supervisor: true };
  }
  if (state.status === "none") return state;
  switch (event.type) {
    case "ChannelToggledByAdmin":
      return { ...state, active_by_admin: event.data.active };
    case "ChannelToggledBySupervisor":
      return { ...state, active_by_supervisor: event.data.active };
    case "ChannelCredentialChecked":
      return { ...state, credential_active: event.data.active };
    case "ChannelDeleted":
      return { ...state, status: "deleted" };
    default:
      return unhandledEvent(event);
  }
}

/** On/off switches that stand between an agent and a ticket; every one must be on. */
export interface Gates {
  main: boolean;
  consolidator: boolean;
  agency: boolean;
  company: boolean;
}

export const allGatesOpen: Gates = { main: true, consolidator: true, agency: true, company: true };

export function evolveGlobalGates(
  state: Pick<Gates, "main" | "consolidator">,
  stored: { type: string; data: unknown },
): Pick<Gates, "main" | "consolidator"> {
  // GateToggled is the stream's only event: the parse rejects anything else.
  const { data } = parseEvent(GateEvent, stored);
  return { ...state, [data.gate]: data.active };
}

/** Every gate an issue passes (DESIGN.md section 5), with the reason an agent can act on. */
export function assertCanIssue(gates: Gates, channel: ChannelState, source: SourceChannel): void {
  const closed = (what: string, code: string) => new IllegalState(`Ticketing is switched off: ${what}`, code);
  if (!gates.main) throw closed("main gate", "gate_main_off");
  if (!gates.consolidator) throw closed("consolidator gate", "gate_consolidator_off");
  if (!gates.agency) throw closed("agency gate", "gate_agency_off");
  if (!gates.company) throw closed("company gate", "gate_company_off");
  if (channel.status !== "active") throw closed("the ticketing channel does not exist", "channel_missing");
  if (!channel.active_by_admin || !channel.active_by_supervisor)
    throw closed("ticketing channel", "channel_off");
  if (source !== "system" && !channel.sources[source])
    throw closed(`the ${source} source channel`, "source_channel_off");
  if (!channel.credential_active)
    throw closed("the channel's credentials are not active", "credential_inactive");
}
