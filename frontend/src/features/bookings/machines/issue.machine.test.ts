import { afterEach, describe, expect, it } from "@jest/globals";
import { createActor, fromPromise, waitFor } from "xstate";
import { ApiError } from "../../../lib/api-client.ts";
import { clearNotifications } from "../../../lib/notifications.ts";
import type { IssueResponse } from "../api/booking-commands.ts";
import { type IssueEmitted, issueMachine } from "./issue.machine.ts";

const issued: IssueResponse = {
  locator: "E426RA",
  status: "issued",
  tickets: [
    {
      ticket_number: "5665411767387",
      passenger_index: 0,
      passenger_name: "PETRENKO/IVAN",
      validating_carrier: "PS",
      base_fare: { amount: 435800, currency: "UAH" },
      taxes: { amount: 128826, currency: "UAH" },
      total: { amount: 564626, currency: "UAH" },
    },
  ],
  void_until: "2026-11-21T21:59:59.000Z",
  charge: {
    fare: { amount: 564626, currency: "UAH" },
    extras: { amount: 0, currency: "UAH" },
    total: { amount: 564626, currency: "UAH" },
  },
  charged: { amount: 564626, currency: "UAH" },
  position: "10-2",
};

const priceChanged = new ApiError(409, [
  {
    status: "409",
    code: "price_changed",
    title: "Price changed",
    detail:
      "The airline's price changed from 11292.52 UAH to 12195.92 UAH. Issue again with reshop to accept it.",
  },
]);

function startIssue(replies: (IssueResponse | Error)[]) {
  const calls: string[] = [];
  const emitted: IssueEmitted["type"][] = [];
  const machine = issueMachine.provide({
    actors: {
      issue: fromPromise<IssueResponse, { locator: string; reshop: boolean }>(async ({ input }) => {
        calls.push(`issue ${input.locator}${input.reshop ? " reshop" : ""}`);
        const reply = replies.shift();
        if (!reply) throw new Error("unscripted");
        if (reply instanceof Error) throw reply;
        return reply;
      }),
    },
  });
  const actor = createActor(machine, { input: { locator: "E426RA" } }).start();
  actor.on("*", (event) => emitted.push(event.type));
  return { actor, calls, emitted };
}

afterEach(() => clearNotifications());

describe("issue machine", () => {
  it("asks for confirmation, then issues and hands the tickets out", async () => {
    const { actor, calls, emitted } = startIssue([issued]);
    actor.send({ type: "issue.request" });
    expect(actor.getSnapshot().value).toBe("confirming");
    actor.send({ type: "issue.confirm" });
    await waitFor(actor, (s) => s.matches("issued"));
    expect(actor.getSnapshot().context.tickets).toHaveLength(1);
    expect(calls).toEqual(["issue E426RA"]);
    expect(emitted).toEqual(["issued"]);
  });

  it("can be called off at the confirmation", () => {
    const { actor, calls } = startIssue([]);
    actor.send({ type: "issue.request" });
    actor.send({ type: "issue.cancel" });
    expect(actor.getSnapshot().value).toBe("idle");
    expect(calls).toEqual([]);
  });

  it("shows the airline's new price and issues at it with reshop when the agent accepts", async () => {
    const { actor, calls, emitted } = startIssue([priceChanged, issued]);
    actor.send({ type: "issue.request" });
    actor.send({ type: "issue.confirm" });
    await waitFor(actor, (s) => s.matches("priceChanged"));
    expect(actor.getSnapshot().context.priceChange).toContain("12195.92 UAH");
    actor.send({ type: "issue.accept_price" });
    await waitFor(actor, (s) => s.matches("issued"));
    expect(calls).toEqual(["issue E426RA", "issue E426RA reshop"]);
    expect(emitted).toEqual(["price_changed", "issued"]);
  });

  it("leaves the booking held when the agent refuses the new price", async () => {
    const { actor, calls } = startIssue([priceChanged]);
    actor.send({ type: "issue.request" });
    actor.send({ type: "issue.confirm" });
    await waitFor(actor, (s) => s.matches("priceChanged"));
    actor.send({ type: "issue.cancel" });
    expect(actor.getSnapshot().value).toBe("idle");
    expect(actor.getSnapshot().context.priceChange).toBeNull();
    expect(calls).toEqual(["issue E426RA"]);
  });

  it("goes back to idle on any other failure, so the agent can try again", async () => {
    const { actor } = startIssue([
      new ApiError(422, [{ status: "422", code: "insufficient_balance", title: "No money" }]),
    ]);
    actor.send({ type: "issue.request" });
    actor.send({ type: "issue.confirm" });
    await waitFor(actor, (s) => s.matches("idle"));
    expect(actor.getSnapshot().context.tickets).toEqual([]);
  });
});
