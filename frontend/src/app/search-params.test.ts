import { describe, expect, it } from "@jest/globals";
import { parseSearch } from "./search-params.ts";

describe("reading the address's search", () => {
  it("keeps numeric-looking text as written", () => {
    expect(parseSearch("?locator=012345")).toEqual({ locator: "012345" });
    expect(parseSearch("?locator=123456")).toEqual({ locator: "123456" });
    expect(parseSearch("?locator=1E5")).toEqual({ locator: "1E5" });
    expect(parseSearch("?flag=true&n=-1")).toEqual({ flag: "true", n: "-1" });
  });

  it("reads JSON objects, arrays and quoted strings, and keeps broken JSON as text", () => {
    expect(parseSearch(`?filters=${encodeURIComponent('{"stops":[0]}')}`)).toEqual({
      filters: { stops: [0] },
    });
    expect(parseSearch(`?q=${encodeURIComponent('"123"')}`)).toEqual({ q: "123" });
    expect(parseSearch("?filters=%7Bbroken")).toEqual({ filters: "{broken" });
    expect(parseSearch("?a=1&a=2")).toEqual({ a: ["1", "2"] });
  });
});
