import { describe, expect, it } from "@jest/globals";
import { assertNever } from "./assert-never.ts";

describe("assertNever (the one exhaustiveness check of deciders, projectors and scopes)", () => {
  it("when a value no case covers reaches it at run time, then it throws naming the value", () => {
    const unexpected = { type: "BookingTeleported" } as never;
    expect(() => assertNever(unexpected)).toThrow('unhandled {"type":"BookingTeleported"}');
  });
});
