import type { RefundQuoted } from "@skyward/contracts/booking-events";
import { assign, emit, fromPromise, setup } from "xstate";
import { ApiError, notifyApiError, notifyingErrors } from "../../../lib/api-client.ts";
import { confirmRefund, createRefundQuote, type RefundConfirmResponse } from "../api/refund.ts";

export interface RefundContext {
  locator: string;
  /** The passengers (indexes) the agent asked to refund; empty: every ticket still open. */
  passengers: number[];
  quote: RefundQuoted | null;
  /** The quote on screen replaced one that expired or changed at confirmation. */
  requoted: boolean;
  result: RefundConfirmResponse | null;
}

export type RefundEvent =
  | { type: "refund.request"; passengers: number[] }
  | { type: "refund.confirm" }
  | { type: "refund.cancel" };

export type RefundEmitted = { type: "refunded"; response: RefundConfirmResponse } | { type: "requoted" };

const isStaleQuote = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 409 &&
  (error.hasCode("refund_quote_expired") || error.hasCode("refund_quote_changed"));

/** The quote a stale confirm's answer carries: the booking's current one (or a fresh one for an expired quote). */
const quoteOf = (error: unknown): RefundQuoted | null => {
  if (!isStaleQuote(error) || !(error instanceof ApiError)) return null;
  const quote = (error.body as { quote?: RefundQuoted } | null)?.quote;
  return quote && typeof quote.quote_id === "string" ? quote : null;
};

type QuoteInput = { locator: string; passengers: number[] };

/**
 * A refund as the spec has it: request (the airline's quote per ticket) → confirm (refunded, credited once). A quote
 * that expired or changed meanwhile is quoted again for the same passengers and shown for a fresh confirmation.
 */
export const refundMachine = setup({
  types: {
    input: {} as { locator: string },
    context: {} as RefundContext,
    events: {} as RefundEvent,
    emitted: {} as RefundEmitted,
  },
  actors: {
    quote: fromPromise<RefundQuoted, QuoteInput>(({ input }) =>
      notifyingErrors(
        createRefundQuote(input.locator, input.passengers.length > 0 ? input.passengers : undefined),
      ),
    ),
    confirm: fromPromise<RefundConfirmResponse, { locator: string; quoteId: string }>(({ input }) =>
      confirmRefund(input.locator, input.quoteId),
    ),
  },
  guards: {
    staleQuote: (_, params: { error: unknown }) => isStaleQuote(params.error),
    quoteCame: (_, params: { error: unknown }) => quoteOf(params.error) !== null,
  },
}).createMachine({
  id: "refund",
  context: ({ input }) => ({
    locator: input.locator,
    passengers: [],
    quote: null,
    requoted: false,
    result: null,
  }),
  initial: "idle",
  states: {
    idle: {
      on: {
        "refund.request": {
          target: "quoting",
          actions: assign(({ event }) => ({ passengers: event.passengers })),
        },
      },
    },
    quoting: {
      invoke: {
        src: "quote",
        input: ({ context }) => ({ locator: context.locator, passengers: context.passengers }),
        onDone: {
          target: "quoted",
          actions: assign(({ event }) => ({ quote: event.output, requoted: false })),
        },
        onError: { target: "idle", actions: assign({ quote: null }) },
      },
      on: { "refund.cancel": { target: "idle", actions: assign({ quote: null }) } },
    },
    quoted: {
      on: {
        "refund.confirm": "confirming",
        // Another selection of passengers: a new quote for them.
        "refund.request": {
          target: "quoting",
          actions: assign(({ event }) => ({ passengers: event.passengers })),
        },
        "refund.cancel": { target: "idle", actions: assign({ quote: null, requoted: false }) },
      },
    },
    confirming: {
      invoke: {
        src: "confirm",
        input: ({ context }) => ({ locator: context.locator, quoteId: context.quote?.quote_id ?? "" }),
        onDone: {
          target: "refunded",
          actions: [
            assign(({ event }) => ({ result: event.output })),
            emit(({ event }) => ({ type: "refunded" as const, response: event.output })),
          ],
        },
        onError: [
          // The answer carries the quote to confirm instead: shown as it is, never quoted again (which would replace
          // the booking's current quote).
          {
            guard: { type: "quoteCame", params: ({ event }) => ({ error: event.error }) },
            target: "quoted",
            actions: [
              assign(({ event }) => ({ quote: quoteOf(event.error), requoted: true })),
              emit({ type: "requoted" as const }),
            ],
          },
          {
            guard: { type: "staleQuote", params: ({ event }) => ({ error: event.error }) },
            target: "requoting",
          },
          // Refused (the airline, the booking changed): the reason is shown and the quote stays to try again.
          { target: "quoted", actions: ({ event }) => notifyApiError(event.error) },
        ],
      },
    },
    requoting: {
      invoke: {
        src: "quote",
        input: ({ context }) => ({
          locator: context.locator,
          passengers: context.quote?.lines.map((l) => l.passenger_index) ?? context.passengers,
        }),
        onDone: {
          target: "quoted",
          actions: [
            assign(({ event }) => ({ quote: event.output, requoted: true })),
            emit({ type: "requoted" as const }),
          ],
        },
        onError: { target: "idle", actions: assign({ quote: null }) },
      },
    },
    refunded: { type: "final" },
  },
});
