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

  it("when the agent types London, then the city code comes first, then Heathrow and the other London airports, before Biggin Hill and the Londons of North America", () => {
    const list = codes("London");
    expect(list.slice(0, 7)).toEqual(["LON", "LHR", "LGW", "STN", "LTN", "LCY", "SEN"]);
    expect(list.indexOf("BQH")).toBeGreaterThan(list.indexOf("LHR"));
    expect(list.indexOf("YXU")).toBeGreaterThan(list.indexOf("LGW"));
    expect(searchAirports("London")[0]).toMatchObject({
      kind: "city",
      code: "LON",
      airports: ["LHR", "LGW", "STN", "LTN", "LCY", "SEN"],
    });
  });

  it("when the agent types Paris, then Paris's airports come before the US Parises", () => {
    const list = codes("Paris");
    expect(list.slice(0, 4)).toEqual(["PAR", "CDG", "ORY", "BVA"]);
    expect(list.indexOf("PRX")).toBeGreaterThan(list.indexOf("BVA"));
  });

  it.each([
    ["Лондон", "LON"],
    ["Londyn", "LON"],
    ["Londres", "LON"],
    ["Париж", "PAR"],
    ["Paryż", "PAR"],
    ["Mediolan", "MIL"],
    ["Milán", "MIL"],
    ["Нью-Йорк", "NYC"],
    ["nyc", "NYC"],
  ])("when the agent types %s, then the city code %s is the first choice", (q, code) => {
    expect(codes(q)[0]).toBe(code);
  });

  it("when the agent types Kyiv, then Boryspil (the main airport) comes before Zhuliany", () => {
    expect(codes("Kyiv").slice(0, 2)).toEqual(["KBP", "IEV"]);
  });

  it("when the text names nothing, then nothing is suggested", () => {
    expect(codes("Qzxwv")).toEqual([]);
  });
});
