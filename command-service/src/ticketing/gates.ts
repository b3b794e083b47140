import type { AgencyGateToggled, CompanyGateToggled } from "@skyward/contracts/directory";
import type { GateName, GateToggled } from "@skyward/contracts/ticketing";
import type { GateCommand } from "@skyward/contracts/ticketing-commands";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { refuse } from "@skyward/infra/refusal";
import type { GlobalGates } from "./channel.ts";

/** A global gate: closing an open one or opening a closed one is an event; asking for what is already so is not. */
export function decideGlobalGate(
  gate: GateName,
  command: GateCommand,
  state: GlobalGates,
): { type: "GateToggled"; data: GateToggled }[] {
  if (state[gate] === command.active) return [];
  return [{ type: "GateToggled", data: { gate, active: command.active } }];
}

/** An agency's or a company's gate, as its stream tells it: whether the partner exists and its gate is open. */
export interface PartnerGate {
  exists: boolean;
  active: boolean;
  /** A company's agency (null for an agency). */
  agency_id: string | null;
}

export const initialPartnerGate: PartnerGate = { exists: false, active: true, agency_id: null };

/**
 * Folds only what the gate needs from an agency or company stream (the directory's own decider owns the rest, and
 * may add events this fold has no use for): registered, gate switched, deleted.
 */
export function evolvePartnerGate(kind: "Agency" | "Company") {
  return (state: PartnerGate, event: StoredEvent): PartnerGate => {
    if (event.type === `${kind}Registered`) {
      const agencyId = kind === "Company" ? (event.data as { agency_id: string }).agency_id : null;
      return { ...state, exists: true, agency_id: agencyId };
    }
    if (event.type === `${kind}GateToggled`)
      return { ...state, active: (event.data as { active: boolean }).active };
    if (event.type === `${kind}Deleted`) return { ...state, exists: false };
    return state;
  };
}

export function decidePartnerGate(
  kind: "Agency" | "Company",
  command: GateCommand,
  state: PartnerGate,
): { type: "AgencyGateToggled" | "CompanyGateToggled"; data: AgencyGateToggled | CompanyGateToggled }[] {
  if (!state.exists) throw refuse.missing(`No such ${kind.toLowerCase()}`, `${kind.toLowerCase()}_not_found`);
  if (state.active === command.active) return [];
  return [{ type: `${kind}GateToggled`, data: { active: command.active } }];
}
