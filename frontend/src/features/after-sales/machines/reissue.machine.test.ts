import { afterEach, describe, expect, it } from "@jest/globals";
import type { ReshopPricedOffer } from "@skyward/contracts/booking-events";
import type { FlightsChangeConfirmResponse } from "@skyward/contracts/bookings";
import { createActor, fromPromise, waitFor } from "xstate";
import { ApiError } from "../../../lib/api-client.ts";
import { clearNotifications } from "../../../lib/notifications.ts";
import type { ChangeDates, PricedOffers } from "../api/exchange.ts";
import { type ReissueEmitted, reissueMachine } from "./reissue.machine.ts";

const uah = (amount: number) => ({ amount, currency: "UAH" });
const offer = (id: string): ReshopPricedOffer => ({
  reshop_offer_id: id,
  departure_at: "2026-12-20T07:15:00+02:00",
  brand_name: "Standard",
  new_price: uah(600000),
  fare_difference: uah(30000),
  change_fee: uah(200000),
  markup: uah(1500),
  residual_value: uah(0),
  total_due: uah(231500),
});
const priced: PricedOffers = {
  request_id: "r1",
  expires_at: "2026-11-24T10:30:00.000Z",
  offers: [offer("o1"), offer("o2")],
  slice_rule: null,
};
const exchanged: FlightsChangeConfirmResponse = {
  locator: "E426RA",
  status: "exchanged",
  tickets: [],
  old_tickets: ["5665411767387"],
  price: uah(600000),
  charged: uah(231500),
  position: "14-2",
};
const unavailable = new ApiError(502, [{ status: "502", code: "supplier_unavailable", title: "Down" }]);
const dates: ChangeDates = { departure_date: "2026-12-20" };

function startReissue(replies: {
  price?: (PricedOffers | Error)[];
  confirm?: (FlightsChangeConfirmResponse | Error)[];
}) {
  const calls: string[] = [];
  const emitted: ReissueEmitted["type"][] = [];
  const reply = <T>(list: (T | Error)[] | undefined) => {
    const next = list?.shift();
    if (!next) throw new Error("unscripted");
    if (next instanceof Error) throw next;
    return next;
  };
  const machine = reissueMachine.provide({
    actors: {
      request: fromPromise<{ request_id: string }, { locator: string; dates: ChangeDates }>(
        async ({ input }) => {
          calls.push(`request ${input.locator} ${input.dates.departure_date}`);
          return { request_id: "r1" };
        },
      ),
      price: fromPromise<PricedOffers, { locator: string }>(async ({ input }) => {
        calls.push(`price ${input.locator}`);
        return reply(replies.price);
      }),
      confirm: fromPromise<FlightsChangeConfirmResponse, { locator: string; offerId: string }>(
        async ({ input }) => {
          calls.push(`confirm ${input.offerId}`);
          return reply(replies.confirm);
        },
      ),
    },
  });
  const actor = createActor(machine, { input: { locator: "E426RA" } }).start();
  actor.on("*", (event) => emitted.push(event.type));
  return { actor, calls, emitted };
}

afterEach(() => clearNotifications());

describe("reissue machine", () => {
  it("requests the new dates, shows the priced offers, and confirms the one chosen", async () => {
    const { actor, calls, emitted } = startReissue({ price: [priced], confirm: [exchanged] });
    actor.send({ type: "exchange.search", dates });
    await waitFor(actor, (s) => s.matches("priced"));
    expect(actor.getSnapshot().context.offers.map((o) => o.reshop_offer_id)).toEqual(["o1", "o2"]);
    actor.send({ type: "exchange.choose", offerId: "o2" });
    actor.send({ type: "exchange.confirm" });
    await waitFor(actor, (s) => s.matches("exchanged"));
    expect(actor.getSnapshot().context.result?.charged).toEqual(uah(231500));
    expect(calls).toEqual(["request E426RA 2026-12-20", "price E426RA", "confirm o2"]);
    expect(emitted).toEqual(["exchanged"]);
  });

  it("resets the offers to empty when the exchange fails (spec section 8)", async () => {
    const { actor } = startReissue({ price: [priced], confirm: [unavailable] });
    actor.send({ type: "exchange.search", dates });
    await waitFor(actor, (s) => s.matches("priced"));
    actor.send({ type: "exchange.choose", offerId: "o1" });
    actor.send({ type: "exchange.confirm" });
    await waitFor(actor, (s) => s.matches("idle"));
    expect(actor.getSnapshot().context.offers).toEqual([]);
    expect(actor.getSnapshot().context.chosen).toBeNull();
  });

  it("resets the offers to empty when pricing fails, and a new search prices again", async () => {
    const { actor, calls } = startReissue({ price: [priced, unavailable, priced] });
    actor.send({ type: "exchange.search", dates });
    await waitFor(actor, (s) => s.matches("priced"));
    actor.send({ type: "exchange.search", dates: { departure_date: "2026-12-21" } });
    await waitFor(actor, (s) => s.matches("idle"));
    expect(actor.getSnapshot().context.offers).toEqual([]);
    actor.send({ type: "exchange.search", dates });
    await waitFor(actor, (s) => s.matches("priced"));
    expect(calls).toEqual([
      "request E426RA 2026-12-20",
      "price E426RA",
      "request E426RA 2026-12-21",
      "price E426RA",
      "request E426RA 2026-12-20",
      "price E426RA",
    ]);
  });

  it("chooses nothing for the agent: priced offers come with none chosen, and confirm waits for a choice", async () => {
    const { actor, calls } = startReissue({ price: [priced] });
    actor.send({ type: "exchange.search", dates });
    await waitFor(actor, (s) => s.matches("priced"));
    expect(actor.getSnapshot().context.chosen).toBeNull();
    actor.send({ type: "exchange.confirm" });
    expect(actor.getSnapshot().value).toBe("priced");
    expect(calls).toEqual(["request E426RA 2026-12-20", "price E426RA"]);
  });

  it("keeps the changed slice's rule of a multi-city exchange, and puts the airline's refusal of a slice on the slice field", async () => {
    const rule = {
      slice: 1,
      origin: "WAW",
      destination: "CDG",
      family: "standard" as const,
      brand_name: "Economy Standard",
      penalty: {
        change_before_departure: { allowed: true as const, fee: uah(300000) },
        change_after_departure: { allowed: false as const },
        refund_before_departure: { allowed: true as const, fee: uah(640000) },
        refund_after_departure: { allowed: false as const },
      },
    };
    const fixed = new ApiError(422, [
      {
        status: "422",
        code: "slice_not_changeable",
        title: "Rejected by the supplier",
        source: { pointer: "/slice" },
      },
    ]);
    const { actor } = startReissue({ price: [{ ...priced, slice_rule: rule }, fixed] });
    actor.send({ type: "exchange.search", dates: { departure_date: "2026-12-24", slice: 1 } });
    await waitFor(actor, (s) => s.matches("priced"));
    expect(actor.getSnapshot().context.sliceRule).toEqual(rule);
    actor.send({ type: "exchange.search", dates: { departure_date: "2026-12-20", slice: 0 } });
    await waitFor(actor, (s) => s.matches("idle"));
    expect(actor.getSnapshot().context).toMatchObject({
      sliceError: "slice_not_changeable",
      sliceRule: null,
      offers: [],
    });
  });

  it("does not confirm without an offer (none priced)", async () => {
    const { actor, calls } = startReissue({ price: [{ ...priced, offers: [] }] });
    actor.send({ type: "exchange.search", dates });
    await waitFor(actor, (s) => s.matches("priced"));
    actor.send({ type: "exchange.confirm" });
    expect(actor.getSnapshot().value).toBe("priced");
    actor.send({ type: "exchange.back" });
    expect(actor.getSnapshot().value).toBe("idle");
    expect(calls).toEqual(["request E426RA 2026-12-20", "price E426RA"]);
  });
});
