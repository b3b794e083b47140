import type { ReshopPricedOffer } from "@skyward/contracts/booking-events";
import type { FlightsChangeConfirmResponse } from "@skyward/contracts/bookings";
import type { SliceFareRule } from "@skyward/contracts/offers";
import { assign, emit, fromPromise, setup } from "xstate";
import { ApiError, notifyingErrors } from "../../../lib/api-client.ts";
import {
  type ChangeDates,
  confirmFlightsChange,
  createFlightsChange,
  type PricedOffers,
  priceReshopOffers,
} from "../api/exchange.ts";

export interface ReissueContext {
  locator: string;
  dates: ChangeDates | null;
  offers: ReshopPricedOffer[];
  expiresAt: string | null;
  chosen: string | null;
  result: FlightsChangeConfirmResponse | null;
  /** The changed slice's booked rule (a multi-city one-slice exchange), null otherwise. */
  sliceRule: SliceFareRule | null;
  /** The error code the airline gave the slice asked for (its fare allows no change), shown on that field. */
  sliceError: string | null;
}

/** The code of an error about the `slice` field, if that is what it is about. */
const sliceErrorOf = (error: unknown): string | null =>
  error instanceof ApiError ? (error.errors.find((e) => e.source?.pointer === "/slice")?.code ?? null) : null;

export type ReissueEvent =
  | { type: "exchange.search"; dates: ChangeDates }
  | { type: "exchange.choose"; offerId: string }
  | { type: "exchange.confirm" }
  | { type: "exchange.back" };

export type ReissueEmitted = { type: "exchanged"; response: FlightsChangeConfirmResponse };

/**
 * A reissue as the spec has it: request (the new dates) → offers priced (fare difference, change fee, residual,
 * total) → confirm (charged, new tickets). Any failure empties the offers; the agent searches again.
 */
export const reissueMachine = setup({
  types: {
    input: {} as { locator: string },
    context: {} as ReissueContext,
    events: {} as ReissueEvent,
    emitted: {} as ReissueEmitted,
  },
  actors: {
    request: fromPromise<{ request_id: string }, { locator: string; dates: ChangeDates }>(({ input }) =>
      notifyingErrors(createFlightsChange(input.locator, input.dates)),
    ),
    price: fromPromise<PricedOffers, { locator: string }>(({ input }) =>
      notifyingErrors(priceReshopOffers(input.locator)),
    ),
    confirm: fromPromise<FlightsChangeConfirmResponse, { locator: string; offerId: string }>(({ input }) =>
      notifyingErrors(confirmFlightsChange(input.locator, input.offerId)),
    ),
  },
  actions: {
    /** Spec section 8: a reissue failure resets the offers to empty. */
    resetOffers: assign({ offers: [], expiresAt: null, chosen: null, sliceRule: null }),
    sliceError: assign(({ event }) => ({ sliceError: sliceErrorOf((event as { error?: unknown }).error) })),
  },
  guards: {
    offerChosen: ({ context }) => context.chosen !== null,
  },
}).createMachine({
  id: "reissue",
  context: ({ input }) => ({
    locator: input.locator,
    dates: null,
    offers: [],
    expiresAt: null,
    chosen: null,
    result: null,
    sliceRule: null,
    sliceError: null,
  }),
  initial: "idle",
  states: {
    idle: {
      on: {
        "exchange.search": { target: "requesting", actions: assign(({ event }) => ({ dates: event.dates })) },
      },
    },
    requesting: {
      entry: ["resetOffers", assign({ sliceError: null })],
      invoke: {
        src: "request",
        input: ({ context }) => ({
          locator: context.locator,
          dates: context.dates ?? { departure_date: "" },
        }),
        onDone: "pricing",
        onError: { target: "idle", actions: ["resetOffers", "sliceError"] },
      },
    },
    pricing: {
      invoke: {
        src: "price",
        input: ({ context }) => ({ locator: context.locator }),
        onDone: {
          target: "priced",
          actions: assign(({ event }) => ({
            offers: event.output.offers,
            expiresAt: event.output.expires_at,
            sliceRule: event.output.slice_rule,
            // Nothing chosen for the agent: the cheapest may give up the refund or changes the old fare had.
            chosen: null,
          })),
        },
        onError: { target: "idle", actions: ["resetOffers", "sliceError"] },
      },
    },
    priced: {
      on: {
        "exchange.choose": { actions: assign(({ event }) => ({ chosen: event.offerId })) },
        "exchange.confirm": { guard: "offerChosen", target: "confirming" },
        "exchange.search": { target: "requesting", actions: assign(({ event }) => ({ dates: event.dates })) },
        "exchange.back": { target: "idle", actions: "resetOffers" },
      },
    },
    confirming: {
      invoke: {
        src: "confirm",
        input: ({ context }) => ({ locator: context.locator, offerId: context.chosen ?? "" }),
        onDone: {
          target: "exchanged",
          actions: [
            assign(({ event }) => ({ result: event.output })),
            emit(({ event }) => ({ type: "exchanged" as const, response: event.output })),
          ],
        },
        onError: { target: "idle", actions: "resetOffers" },
      },
    },
    exchanged: { type: "final" },
  },
});
