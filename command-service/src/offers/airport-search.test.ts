// The search form's airport autocomplete finds a city by its name in any of the five languages.
import { describe, expect, it } from "@jest/globals";
import { searchAirports } from "./airport-search.ts";

const codes = (q: string) => searchAirports(q).map((a) => a.code);

describe("airport autocomplete", () => {
  it.each([
    ["Варшава", "WAW"],
    ["Varsovie", "WAW"],
    ["Varsovia", "WAW"],
    ["Warszawa", "WAW"],
    ["Київ", "KBP"],
    ["Kijów", "KBP"],
    ["kijow", "KBP"],
    ["Краків", "KRK"],
    ["krakow", "KRK"],
    ["Лондон", "LHR"],
  ])("when the agent types %s, then %s is suggested", (q, code) => {
    expect(codes(q)).toContain(code);
  });

  it("when the code is typed, then that airport comes first; the suggestion keeps the data's English city", () => {
    expect(searchAirports("kbp")[0]).toMatchObject({ code: "KBP", city: "Kyiv" });
  });

  it("when the text names nothing, then nothing is suggested", () => {
    expect(codes("Qzxwv")).toEqual([]);
  });
});
