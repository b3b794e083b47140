import { describe, expect, it } from "@jest/globals";
import type { BookingAction } from "@skyward/contracts/bookings";
import { allows } from "./booking-actions.ts";

const action = (name: BookingAction["action"], allowed: boolean): BookingAction => ({
  action: name,
  allowed,
  deadline: null,
  money: null,
  estimate: false,
  reason_code: allowed ? null : "not_issued",
  reason: null,
});

describe("allows (one rule for every feature offering a booking action)", () => {
  it("when the server lists the action as allowed, then it is offered; listed as refused, or not listed, it is not", () => {
    const booking = { actions: [action("refund", true), action("exchange", false)] };
    expect(allows(booking, "refund")).toBe(true);
    expect(allows(booking, "exchange")).toBe(false);
    expect(allows(booking, "void")).toBe(false);
  });

  it("when the server sent no actions (an older answer), then nothing is offered", () => {
    expect(allows({}, "issue")).toBe(false);
  });
});
