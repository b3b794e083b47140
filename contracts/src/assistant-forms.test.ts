import { describe, expect, it } from "@jest/globals";
import { AskRequest } from "./assistant.ts";
import { AskForm } from "./assistant-forms.ts";

describe("the assistant's request form", () => {
  it("given the same samples, then the form and the ask request agree, with one keyed issue", () => {
    for (const text of ["top up Vistula", "  top up  ", "", "   ", "x".repeat(1000), "x".repeat(1001)])
      expect([text.length, AskForm.safeParse({ text }).success]).toEqual([
        text.length,
        AskRequest.safeParse({ text }).success,
      ]);
    expect(AskForm.safeParse({ text: " " }).error?.issues.map((issue) => issue.message)).toEqual([
      "required",
    ]);
    expect(AskForm.safeParse({ text: "x".repeat(1001) }).error?.issues.map((issue) => issue.message)).toEqual(
      ["too_long"],
    );
  });
});
