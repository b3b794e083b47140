import { assertNever } from "@skyward/contracts/assert-never";
import {
  type AgencyEvent,
  AgencyEvent as AgencyEventSchema,
  type AgencyFlag,
} from "@skyward/contracts/directory";
import type { AgencyCommand } from "@skyward/contracts/directory-commands";
import type { Charge, MarkupRule } from "@skyward/contracts/pricing";
import { DEFAULT_TIME_ZONE } from "@skyward/contracts/time-zone";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { refuse } from "@skyward/infra/refusal";

export const agencyStream = (agencyId: string) => `agency-${agencyId}`;

export type AgencyFlags = Record<AgencyFlag, boolean>;
export const noFlags: AgencyFlags = {
  production_api_on: false,
  corporate_number_on: false,
  ghost_segments_remarks_on: false,
  auto_cancel_held_on: false,
};

export interface ActiveAgency {
  status: "active";
  agency_id: string;
  name: string;
  flags: AgencyFlags;
  markups: MarkupRule[];
  transaction_fee: Charge | null;
  gate: boolean;
  time_zone: string;
}
export type AgencyState = { status: "none" } | ActiveAgency | { status: "deleted"; agency_id: string };
export const noAgency: AgencyState = { status: "none" };

export function evolveAgency(state: AgencyState, stored: StoredEvent): AgencyState {
  return evolve(state, AgencyEventSchema.parse({ type: stored.type, data: stored.data }));
}

export function evolve(state: AgencyState, event: AgencyEvent): AgencyState {
  if (event.type === "AgencyRegistered")
    return {
      status: "active",
      agency_id: event.data.agency_id,
      name: event.data.name,
      flags: noFlags,
      markups: [],
      transaction_fee: null,
      gate: true,
      time_zone: DEFAULT_TIME_ZONE,
    };
  if (state.status !== "active") return state;
  switch (event.type) {
    case "AgencyUpdated":
      return { ...state, name: event.data.name };
    case "AgencyPricingSet":
      return { ...state, markups: event.data.markups, transaction_fee: event.data.transaction_fee };
    case "AgencyFlagSet":
      return { ...state, flags: { ...state.flags, [event.data.flag]: event.data.on } };
    case "AgencyGateToggled":
      return { ...state, gate: event.data.active };
    case "AgencyTimeZoneSet":
      return { ...state, time_zone: event.data.time_zone };
    case "AgencyDeleted":
      return { status: "deleted", agency_id: state.agency_id };
    default:
      return assertNever(event);
  }
}

/** The partner, or a 404 when it never existed or was deleted. */
export function activeAgency(state: AgencyState): ActiveAgency {
  if (state.status !== "active") throw refuse.missing("No such partner", "agency_not_found");
  return state;
}

/** The partner decider: registration once, settings and pricing as full replacements, deletion only when empty. */
export function decideAgency(command: AgencyCommand, state: AgencyState): AgencyEvent[] {
  if (command.type === "RegisterAgency") {
    if (state.status !== "none") throw refuse.conflict("This partner already exists", "agency_exists");
    const { agency_id } = command;
    const events: AgencyEvent[] = [
      {
        type: "AgencyRegistered",
        data: {
          agency_id,
          name: command.name,
          ...(command.duplicated_from ? { duplicated_from: command.duplicated_from } : {}),
        },
      },
    ];
    if (command.markups.length > 0 || command.transaction_fee)
      events.push({
        type: "AgencyPricingSet",
        data: { agency_id, markups: command.markups, transaction_fee: command.transaction_fee },
      });
    for (const [flag, on] of Object.entries(command.flags) as [AgencyFlag, boolean | undefined][])
      if (on) events.push({ type: "AgencyFlagSet", data: { agency_id, flag, on } });
    if (command.time_zone && command.time_zone !== DEFAULT_TIME_ZONE)
      events.push({ type: "AgencyTimeZoneSet", data: { agency_id, time_zone: command.time_zone } });
    return events;
  }
  const agency = activeAgency(state);
  const { agency_id } = agency;
  switch (command.type) {
    case "UpdateAgency": {
      const events: AgencyEvent[] = [];
      if (command.name !== undefined && command.name !== agency.name)
        events.push({ type: "AgencyUpdated", data: { agency_id, name: command.name } });
      if (command.markups !== undefined)
        events.push({
          type: "AgencyPricingSet",
          data: { agency_id, markups: command.markups, transaction_fee: agency.transaction_fee },
        });
      if (command.time_zone !== undefined && command.time_zone !== agency.time_zone)
        events.push({ type: "AgencyTimeZoneSet", data: { agency_id, time_zone: command.time_zone } });
      return events;
    }
    case "SetAgencyFlag": {
      const on = command.on ?? !agency.flags[command.flag];
      if (on === agency.flags[command.flag]) return [];
      return [{ type: "AgencyFlagSet", data: { agency_id, flag: command.flag, on } }];
    }
    case "SetAgencyTransactionFee":
      return [
        {
          type: "AgencyPricingSet",
          data: { agency_id, markups: agency.markups, transaction_fee: command.transaction_fee },
        },
      ];
    case "DeleteAgency":
      if (command.companies_with_money.length > 0)
        throw refuse.notAllowed(
          `The partner still has ${command.companies_with_money.length} companies with money on their balance; settle them first`,
          "agency_has_money",
        );
      if (command.open_bookings > 0)
        throw refuse.notAllowed(
          `The partner still has ${command.open_bookings} open bookings; let them be issued, cancelled or expire first`,
          "agency_has_open_bookings",
        );
      return [{ type: "AgencyDeleted", data: { agency_id } }];
    default:
      return assertNever(command);
  }
}
