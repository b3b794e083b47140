import { afterEach, describe, expect, it } from "@jest/globals";
import type { RefundQuoted } from "@skyward/contracts/booking-events";
import { createActor, fromPromise, waitFor } from "xstate";
import { ApiError } from "../../../lib/api-client.ts";
import { clearNotifications } from "../../../lib/notifications.ts";
import type { RefundConfirmResponse } from "../api/refund.ts";
import { type RefundEmitted, refundMachine } from "./refund.machine.ts";

const uah = (amount: number) => ({ amount, currency: "UAH" });
const quote = (id: string, passengers: number[]): RefundQuoted => ({
  quote_id: id,
  lines: passengers.map((i) => ({
    passenger_index: i,
    ticket_number: `566541176738${i}`,
    fare_refund: uah(435800),
    taxes_refund: uah(128826),
    penalty: uah(150000),
    non_refundable: uah(20000),
    refundable: uah(414626),
  })),
  penalty: uah(150000 * passengers.length),
  non_refundable: uah(20000 * passengers.length),
  refundable: uah(414626 * passengers.length),
  created_at: "2026-11-24T10:00:00.000Z",
  expires_at: "2026-11-24T10:30:00.000Z",
  supplier_quote: null,
});
const refunded: RefundConfirmResponse = {
  locator: "E426RA",
  status: "refunded",
  credited: uah(414626),
  refunded_passengers: [0],
  position: "12-4",
};
const expired = new ApiError(409, [
  { status: "409", code: "refund_quote_expired", title: "Quote expired", detail: "The quote expired" },
]);

function startRefund(quotes: (RefundQuoted | Error)[], confirms: (RefundConfirmResponse | Error)[]) {
  const calls: string[] = [];
  const emitted: RefundEmitted["type"][] = [];
  const reply = <T>(list: (T | Error)[]) => {
    const next = list.shift();
    if (!next) throw new Error("unscripted");
    if (next instanceof Error) throw next;
    return next;
  };
  const machine = refundMachine.provide({
    actors: {
      quote: fromPromise<RefundQuoted, { locator: string; passengers: number[] }>(async ({ input }) => {
        calls.push(`quote ${input.locator} [${input.passengers.join(",")}]`);
        return reply(quotes);
      }),
      confirm: fromPromise<RefundConfirmResponse, { locator: string; quoteId: string }>(async ({ input }) => {
        calls.push(`confirm ${input.quoteId}`);
        return reply(confirms);
      }),
    },
  });
  const actor = createActor(machine, { input: { locator: "E426RA" } }).start();
  actor.on("*", (event) => emitted.push(event.type));
  return { actor, calls, emitted };
}

afterEach(() => clearNotifications());

describe("refund machine", () => {
  it("requests a quote for the chosen passengers, then confirms it and hands the credit out", async () => {
    const { actor, calls, emitted } = startRefund([quote("q1", [0])], [refunded]);
    actor.send({ type: "refund.request", passengers: [0] });
    expect(actor.getSnapshot().value).toBe("quoting");
    await waitFor(actor, (s) => s.matches("quoted"));
    expect(actor.getSnapshot().context.quote?.quote_id).toBe("q1");
    actor.send({ type: "refund.confirm" });
    await waitFor(actor, (s) => s.matches("refunded"));
    expect(actor.getSnapshot().context.result?.credited).toEqual(uah(414626));
    expect(calls).toEqual(["quote E426RA [0]", "confirm q1"]);
    expect(emitted).toEqual(["refunded"]);
  });

  it("quotes again when the agent changes the passengers before confirming", async () => {
    const { actor, calls } = startRefund([quote("q1", [0, 1]), quote("q2", [1])], []);
    actor.send({ type: "refund.request", passengers: [] });
    await waitFor(actor, (s) => s.matches("quoted"));
    actor.send({ type: "refund.request", passengers: [1] });
    await waitFor(actor, (s) => s.matches("quoted") && s.context.quote?.quote_id === "q2");
    expect(calls).toEqual(["quote E426RA []", "quote E426RA [1]"]);
  });

  it("shows a fresh quote for the same passengers when the one confirmed expired", async () => {
    const { actor, calls, emitted } = startRefund([quote("q1", [1]), quote("q2", [1])], [expired, refunded]);
    actor.send({ type: "refund.request", passengers: [1] });
    await waitFor(actor, (s) => s.matches("quoted"));
    actor.send({ type: "refund.confirm" });
    await waitFor(actor, (s) => s.matches("quoted") && s.context.requoted);
    expect(actor.getSnapshot().context.quote?.quote_id).toBe("q2");
    actor.send({ type: "refund.confirm" });
    await waitFor(actor, (s) => s.matches("refunded"));
    expect(calls).toEqual(["quote E426RA [1]", "confirm q1", "quote E426RA [1]", "confirm q2"]);
    expect(emitted).toEqual(["requoted", "refunded"]);
  });

  it("shows the booking's current quote that a stale confirm's answer carries, without quoting again", async () => {
    const current = quote("q2", [1]);
    const changed = new ApiError(
      409,
      [
        {
          status: "409",
          code: "refund_quote_changed",
          title: "Quote changed",
          detail: "Not the current quote",
        },
      ],
      null,
      { body: { errors: [], quote: current, position: null } },
    );
    const { actor, calls, emitted } = startRefund([quote("q1", [1])], [changed, refunded]);
    actor.send({ type: "refund.request", passengers: [1] });
    await waitFor(actor, (s) => s.matches("quoted"));
    actor.send({ type: "refund.confirm" });
    await waitFor(actor, (s) => s.matches("quoted") && s.context.requoted);
    expect(actor.getSnapshot().context.quote).toEqual(current);
    actor.send({ type: "refund.confirm" });
    await waitFor(actor, (s) => s.matches("refunded"));
    expect(calls).toEqual(["quote E426RA [1]", "confirm q1", "confirm q2"]);
    expect(emitted).toEqual(["requoted", "refunded"]);
  });

  it("keeps the quote on screen when the airline refuses the refund, and goes back to idle on cancel", async () => {
    const unavailable = new ApiError(502, [{ status: "502", code: "supplier_unavailable", title: "Down" }]);
    const { actor } = startRefund([quote("q1", [0])], [unavailable]);
    actor.send({ type: "refund.request", passengers: [0] });
    await waitFor(actor, (s) => s.matches("quoted"));
    actor.send({ type: "refund.confirm" });
    await waitFor(actor, (s) => s.matches("quoted") && !s.context.requoted);
    expect(actor.getSnapshot().context.quote?.quote_id).toBe("q1");
    actor.send({ type: "refund.cancel" });
    expect(actor.getSnapshot().value).toBe("idle");
    expect(actor.getSnapshot().context.quote).toBeNull();
  });

  it("goes back to idle when no quote can be had", async () => {
    const refused = new ApiError(422, [{ status: "422", code: "not_issued", title: "Not issued" }]);
    const { actor } = startRefund([refused], []);
    actor.send({ type: "refund.request", passengers: [] });
    await waitFor(actor, (s) => s.matches("idle"));
    expect(actor.getSnapshot().context.quote).toBeNull();
  });
});
