import { assertNever } from "@skyward/contracts/assert-never";
import { type CompanyEvent, CompanyEvent as CompanyEventSchema } from "@skyward/contracts/directory";
import type { CompanyCommand } from "@skyward/contracts/directory-commands";
import type { Currency } from "@skyward/contracts/money";
import type { MarkupRule } from "@skyward/contracts/pricing";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { refuse } from "@skyward/infra/refusal";

export const companyStream = (companyId: string) => `company-${companyId}`;

export interface ActiveCompany {
  status: "active";
  company_id: string;
  agency_id: string;
  name: string;
  currency: Currency;
  shared_bookings: boolean;
  markups: MarkupRule[];
  gate: boolean;
}
export type CompanyState =
  | { status: "none" }
  | ActiveCompany
  | { status: "deleted"; company_id: string; agency_id: string };
export const noCompany: CompanyState = { status: "none" };

export function evolveCompany(state: CompanyState, stored: StoredEvent): CompanyState {
  return evolve(state, CompanyEventSchema.parse({ type: stored.type, data: stored.data }));
}

export function evolve(state: CompanyState, event: CompanyEvent): CompanyState {
  if (event.type === "CompanyRegistered") return { status: "active", ...event.data, markups: [], gate: true };
  if (state.status !== "active") return state;
  switch (event.type) {
    case "CompanyMarkupsSet":
      return { ...state, markups: event.data.markups };
    case "CompanyGateToggled":
      return { ...state, gate: event.data.active };
    case "CompanySharedBookingsSet":
      return { ...state, shared_bookings: event.data.shared_bookings };
    case "CompanyDeleted":
      return { status: "deleted", company_id: state.company_id, agency_id: state.agency_id };
    default:
      return assertNever(event);
  }
}

export function activeCompany(state: CompanyState): ActiveCompany {
  if (state.status !== "active") throw refuse.missing("No such company", "company_not_found");
  return state;
}

/** The company decider: deletion is refused while money sits on its balance or a booking of it is open. */
export function decideCompany(command: CompanyCommand, state: CompanyState): CompanyEvent[] {
  if (command.type === "RegisterCompany") {
    if (state.status !== "none") throw refuse.conflict("This company already exists", "company_exists");
    const { markups, ...registered } = command;
    const { type: _type, ...data } = registered;
    const events: CompanyEvent[] = [{ type: "CompanyRegistered", data }];
    if (markups.length > 0)
      events.push({ type: "CompanyMarkupsSet", data: { company_id: command.company_id, markups } });
    return events;
  }
  const company = activeCompany(state);
  const { company_id } = company;
  switch (command.type) {
    case "SetCompanyMarkups":
      return [{ type: "CompanyMarkupsSet", data: { company_id, markups: command.markups } }];
    case "SetSharedBookings":
      if (command.shared_bookings === company.shared_bookings) return [];
      return [
        { type: "CompanySharedBookingsSet", data: { company_id, shared_bookings: command.shared_bookings } },
      ];
    case "DeleteCompany":
      if (command.balance && command.balance.amount !== 0)
        throw refuse.notAllowed(
          "The company still has money on its balance (or owes it); settle it first",
          "company_has_money",
        );
      if (command.open_bookings > 0)
        throw refuse.notAllowed(
          `The company still has ${command.open_bookings} open bookings; let them be issued, cancelled or expire first`,
          "company_has_open_bookings",
        );
      return [{ type: "CompanyDeleted", data: { company_id } }];
    default:
      return assertNever(command);
  }
}
