import { describe, expect, it } from "@jest/globals";
import { TextSearchChip, TextSearchRequest } from "./text-search.ts";
import { TextSearchChipForm, type TextSearchChipValues, TextSearchLineForm } from "./text-search-form.ts";

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

describe("a chip's editor form", () => {
  const check = (kind: TextSearchChipValues["kind"], value: string) => {
    const parsed = TextSearchChipForm.safeParse({ kind, value });
    return parsed.success
      ? parsed.data.value
      : parsed.error.issues.map((i) => `${i.path.join(".")}:${i.message}`);
  };

  it("given each kind's good values, then the value comes out as the chip keeps it", () => {
    expect(check("origin", " waw ")).toBe("WAW");
    expect(check("carrier", "w6")).toBe("W6");
    expect(check("departure_date", "2026-12-04")).toBe("2026-12-04");
    expect(check("adults", "2")).toBe("2");
    expect(check("infants", "0")).toBe("0");
    expect(check("cabin", "business")).toBe("business");
    expect(check("departure_time", "evening")).toBe("evening");
  });

  it("given a value its kind cannot take, then the value field gets that kind's key", () => {
    expect(check("origin", "")).toEqual(["value:required"]);
    expect(check("carrier", "LOT")).toEqual(["value:carrier"]);
    expect(check("departure_date", "2026-02-30")).toEqual(["value:date"]);
    expect(check("return_date", "next friday")).toEqual(["value:date"]);
    expect(check("adults", "0")).toEqual(["value:adults"]);
    expect(check("children", "9")).toEqual(["value:children"]);
    expect(check("infants", "10")).toEqual(["value:count"]);
    expect(check("cabin", "steerage")).toEqual(["value:required"]);
  });

  it("given the editor's output, then it is a chip value the server's schema accepts", () => {
    const out = TextSearchChipForm.parse({ kind: "destination", value: "lhr", label: "London" });
    expect(TextSearchChip.safeParse({ ...out, text: "London", span: null }).success).toBe(true);
  });
});
