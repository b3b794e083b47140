import { describe, expect, it } from "@jest/globals";
import { createActor } from "xstate";
import { bookingListMachine, listOfStatus } from "./booking-list.machine.ts";

describe("booking list selection", () => {
  it("selects the new list by default", () => {
    const actor = createActor(bookingListMachine).start();
    expect(actor.getSnapshot().value).toBe("new");
    expect(actor.getSnapshot().context).toEqual({ query: "", page: 1 });
  });

  it("maps issued and exchanged bookings to the issued list", () => {
    expect(listOfStatus("issued")).toBe("issued");
    expect(listOfStatus("exchanged")).toBe("issued");
    expect(listOfStatus("held")).toBe("new");
    expect(listOfStatus("ticketing")).toBe("new");
    expect(listOfStatus("voided")).toBe("cancelled");
    expect(listOfStatus("expired")).toBe("cancelled");
    expect(listOfStatus("refunded")).toBe("refunded");
  });

  it("switches lists and starts each at its first page", () => {
    const actor = createActor(bookingListMachine).start();
    actor.send({ type: "page.change", page: 3 });
    expect(actor.getSnapshot().context.page).toBe(3);
    actor.send({ type: "list.select", list: "cancelled" });
    expect(actor.getSnapshot().value).toBe("cancelled");
    expect(actor.getSnapshot().context.page).toBe(1);
  });

  it("shows the list an opened booking belongs to, keeping the page when it is already there", () => {
    const actor = createActor(bookingListMachine).start();
    actor.send({ type: "booking.opened", status: "exchanged" });
    expect(actor.getSnapshot().value).toBe("issued");
    actor.send({ type: "page.change", page: 2 });
    actor.send({ type: "booking.opened", status: "issued" });
    expect(actor.getSnapshot().context.page).toBe(2);
  });

  it("searches from the first page and keeps the query across lists", () => {
    const actor = createActor(bookingListMachine).start();
    actor.send({ type: "page.change", page: 4 });
    actor.send({ type: "query.change", query: "PETRENKO" });
    expect(actor.getSnapshot().context).toEqual({ query: "PETRENKO", page: 1 });
    actor.send({ type: "list.select", list: "issued" });
    expect(actor.getSnapshot().context.query).toBe("PETRENKO");
  });
});
