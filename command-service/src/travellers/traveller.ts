import { assertNever } from "@skyward/contracts/assert-never";
import {
  type TravellerCommand,
  type TravellerEvent,
  TravellerEvent as TravellerEventSchema,
} from "@skyward/contracts/travellers";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { refuse } from "@skyward/infra/refusal";

export const travellerStream = (travellerId: string) => `traveller-${travellerId}`;

/** Where a traveller belongs: the scope every command on it is checked against. */
interface Belonging {
  traveller_id: string;
  company_id: string;
  agency_id: string;
  demo_owner: string | null;
}
export type TravellerState =
  | { status: "none" }
  | ({ status: "kept" } & Belonging)
  | ({ status: "erased" } & Belonging);
export const noTraveller: TravellerState = { status: "none" };

export function evolveTraveller(state: TravellerState, stored: StoredEvent): TravellerState {
  return evolve(state, TravellerEventSchema.parse({ type: stored.type, data: stored.data }));
}

/** The personal fields stay sealed in the events: a decision never needs them, only where the traveller belongs. */
export function evolve(state: TravellerState, event: TravellerEvent): TravellerState {
  switch (event.type) {
    case "TravellerRegistered": {
      const { personal: _sealed, ...belonging } = event.data;
      return { status: "kept", ...belonging };
    }
    case "TravellerUpdated":
      return state;
    case "TravellerErased":
      return state.status === "none" ? state : { ...state, status: "erased" };
    default:
      return assertNever(event);
  }
}

/** The traveller decider: an erased traveller is kept as a placeholder and changes no more. */
export function decideTraveller(command: TravellerCommand, state: TravellerState): TravellerEvent[] {
  if (command.type === "RegisterTraveller") {
    if (state.status !== "none") throw refuse.conflict("This traveller already exists", "traveller_exists");
    const { type: _type, ...data } = command;
    return [{ type: "TravellerRegistered", data }];
  }
  if (state.status === "none") throw refuse.missing("No such traveller", "traveller_not_found");
  const { traveller_id } = state;
  switch (command.type) {
    case "UpdateTraveller":
      if (state.status === "erased" || command.personal === null)
        throw refuse.notAllowed("This traveller was erased and can no longer change", "traveller_erased");
      return [{ type: "TravellerUpdated", data: { traveller_id, personal: command.personal } }];
    case "EraseTraveller":
      // Erasing twice changes nothing: the key is already gone.
      if (state.status === "erased") return [];
      return [{ type: "TravellerErased", data: { traveller_id } }];
    default:
      return assertNever(command);
  }
}
