import { describe, expect, it } from "@jest/globals";
import { ApiError } from "./api-client.ts";
import { fieldErrors } from "./field-errors.ts";

describe("field errors", () => {
  it("names each field a refusal points at, under the given prefix", () => {
    const error = new ApiError(422, [
      {
        status: "422",
        code: "invalid",
        title: "Invalid input",
        detail: "account.phone must be a number",
        source: { pointer: "/account/phone" },
      },
      { status: "422", code: "invalid", title: "Too short", source: { pointer: "/account/first_name" } },
      { status: "422", code: "invalid", title: "Elsewhere", source: { pointer: "/terms/version" } },
    ]);
    expect(fieldErrors(error, "/account")).toEqual({ phone: "must be a number", first_name: "Too short" });
    expect(fieldErrors(error)).toEqual({});
  });

  it("has nothing to say about failures without fields", () => {
    expect(fieldErrors(new ApiError(0, []), "/account")).toEqual({});
    expect(fieldErrors(new Error("boom"), "/account")).toEqual({});
  });
});
