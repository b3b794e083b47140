import { assertNever } from "@skyward/contracts/assert-never";
import { type JoinAgencyEvent, JoinAgencyEvent as JoinAgencyEventSchema } from "@skyward/contracts/directory";
import type { JoinAgencyCommand } from "@skyward/contracts/directory-commands";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { deterministicId } from "@skyward/infra/ids";
import { refuse } from "@skyward/infra/refusal";

/** One connection request stream per agent and partner, so an agent never has two pending with one partner. */
export const joinRequestId = (userId: string, agencyId: string) =>
  deterministicId(`join:${userId}:${agencyId}`);
export const joinRequestStream = (requestId: string) => `joinagency-${requestId}`;

export type JoinRequestState =
  | { status: "none" }
  | {
      status: "sent" | "accepted" | "rejected" | "reset";
      request_id: string;
      user_id: string;
      agency_id: string;
      company_id: string | null;
    };
export const noJoinRequest: JoinRequestState = { status: "none" };

export function evolveJoinRequest(state: JoinRequestState, stored: StoredEvent): JoinRequestState {
  return evolve(state, JoinAgencyEventSchema.parse({ type: stored.type, data: stored.data }));
}

export function evolve(state: JoinRequestState, event: JoinAgencyEvent): JoinRequestState {
  if (event.type === "JoinAgencyRequested") return { status: "sent", ...event.data };
  if (state.status === "none") return state;
  switch (event.type) {
    case "JoinAgencyRequestAccepted":
      return { ...state, status: "accepted", company_id: event.data.company_id };
    case "JoinAgencyRequestRejected":
      return { ...state, status: "rejected" };
    case "JoinAgencyRequestReset":
      return { ...state, status: "reset" };
    default:
      return assertNever(event);
  }
}

/** Connection requests: sent, then accepted or rejected; disconnecting resets, and a new one may then be sent. */
export function decideJoinRequest(command: JoinAgencyCommand, state: JoinRequestState): JoinAgencyEvent[] {
  switch (command.type) {
    case "SendJoinRequest": {
      if (state.status === "sent")
        throw refuse.notAllowed("A request to this partner is already waiting", "join_request_pending");
      if (state.status === "accepted")
        throw refuse.notAllowed("You already work with this partner", "already_connected");
      const { type: _type, ...data } = command;
      return [{ type: "JoinAgencyRequested", data }];
    }
    case "AcceptJoinRequest": {
      if (state.status === "none")
        throw refuse.missing("No such connection request", "join_request_not_found");
      if (state.status !== "sent")
        throw refuse.notAllowed(`The request was already ${state.status}`, "join_request_decided");
      const company_id = command.company_id ?? state.company_id;
      if (!company_id)
        throw refuse.invalid([{ pointer: "/company_id", detail: "is required: choose the agent's company" }]);
      return [{ type: "JoinAgencyRequestAccepted", data: { request_id: state.request_id, company_id } }];
    }
    case "RejectJoinRequest":
      if (state.status === "none")
        throw refuse.missing("No such connection request", "join_request_not_found");
      if (state.status !== "sent")
        throw refuse.notAllowed(`The request was already ${state.status}`, "join_request_decided");
      return [{ type: "JoinAgencyRequestRejected", data: { request_id: state.request_id } }];
    case "ResetJoinRequest":
      if (state.status !== "accepted") return [];
      return [{ type: "JoinAgencyRequestReset", data: { request_id: state.request_id } }];
    default:
      return assertNever(command);
  }
}
