import { assign, emit, fromPromise, setup } from "xstate";
import { ApiError, notifyingErrors } from "../../../lib/api-client.ts";
import { type IssueResponse, issueBooking } from "../api/booking-commands.ts";

export interface IssueContext {
  locator: string;
  /** Whether this attempt accepts the airline's new price. */
  reshop: boolean;
  /** The server's explanation of the airline's new price, until the agent accepts or leaves it. */
  priceChange: string | null;
  tickets: IssueResponse["tickets"];
}

export type IssueEvent =
  | { type: "issue.request" }
  | { type: "issue.confirm" }
  | { type: "issue.accept_price" }
  | { type: "issue.cancel" };

export type IssueEmitted = { type: "issued"; response: IssueResponse } | { type: "price_changed" };

const isPriceChange = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && error.hasCode("price_changed");

/**
 * Issuing a held booking: the agent confirms, the tickets are issued. When the airline's price moved (409
 * price_changed) the new price is shown and the agent may issue at it (reshop) or leave the booking held.
 */
export const issueMachine = setup({
  types: {
    input: {} as { locator: string },
    context: {} as IssueContext,
    events: {} as IssueEvent,
    emitted: {} as IssueEmitted,
  },
  actors: {
    issue: fromPromise<IssueResponse, { locator: string; reshop: boolean }>(({ input }) =>
      notifyingErrors(issueBooking(input.locator, input.reshop)),
    ),
  },
  guards: {
    priceChanged: (_, params: { error: unknown }) => isPriceChange(params.error),
    atNewPrice: ({ context }) => context.reshop,
  },
}).createMachine({
  id: "issue",
  context: ({ input }) => ({ locator: input.locator, reshop: false, priceChange: null, tickets: [] }),
  initial: "idle",
  states: {
    idle: {
      on: { "issue.request": "confirming" },
    },
    confirming: {
      on: {
        "issue.confirm": { target: "issuing", actions: assign({ reshop: false }) },
        "issue.cancel": "idle",
      },
    },
    issuing: {
      invoke: {
        src: "issue",
        input: ({ context }) => ({ locator: context.locator, reshop: context.reshop }),
        onDone: {
          target: "issued",
          actions: [
            assign(({ event }) => ({ tickets: event.output.tickets, priceChange: null })),
            emit(({ event }) => ({ type: "issued" as const, response: event.output })),
          ],
        },
        onError: [
          {
            guard: { type: "priceChanged", params: ({ event }) => ({ error: event.error }) },
            target: "priceChanged",
            actions: [
              assign(({ event }) => ({
                priceChange: event.error instanceof ApiError ? event.error.message : null,
              })),
              emit({ type: "price_changed" as const }),
            ],
          },
          // A failure at the new price leaves the offer to accept it on screen.
          { guard: "atNewPrice", target: "priceChanged" },
          { target: "idle" },
        ],
      },
    },
    priceChanged: {
      on: {
        "issue.accept_price": { target: "issuing", actions: assign({ reshop: true }) },
        "issue.cancel": { target: "idle", actions: assign({ priceChange: null }) },
      },
    },
    issued: {},
  },
});
