import { describe, expect, it } from "@jest/globals";
import { TextSearchRequest } from "./text-search.ts";
import { TextSearchLineForm } from "./text-search-form.ts";

describe("the search line form", () => {
  it("given the same samples, then the form and the text search request agree, with one keyed issue", () => {
    for (const text of ["KBP WAW tomorrow", "  KBP WAW  ", "", "  ", "x".repeat(500), "x".repeat(501)])
      expect([text.length, TextSearchLineForm.safeParse({ text }).success]).toEqual([
        text.length,
        TextSearchRequest.safeParse({ text }).success,
      ]);
    expect(TextSearchLineForm.safeParse({ text: " " }).error?.issues.map((issue) => issue.message)).toEqual([
      "required",
    ]);
  });
});
