import { describe, expect, it } from "@jest/globals";
import { airportProperName } from "./place-names-airports.ts";

describe("an airport's own name", () => {
  it("given the airport data's English names, when the city and the generic words are taken off, then the proper name is left", () => {
    const cases: [name: string, city: string, proper: string][] = [
      ["Kyiv Boryspil International Airport", "Kyiv", "Boryspil"],
      ["Kyiv Zhuliany International Airport", "Kyiv", "Zhuliany"],
      ["Warsaw Chopin Airport", "Warsaw", "Chopin"],
      ["Warsaw–Modlin Mazovia Airport", "Nowy Dwór Mazowiecki", "Modlin Mazovia"],
      ["Paris Charles de Gaulle Airport", "Paris", "Charles de Gaulle"],
      ["John Paul II International Airport Kraków–Balice", "Kraków", "John Paul II Balice"],
      ["Gdańsk Lech Wałęsa Airport", "Gdańsk", "Lech Wałęsa"],
      ["Sabiha Gökçen International Airport", "Istanbul", "Sabiha Gökçen"],
      ["Ramstein Air Base", "Ramstein", ""],
      ["Boise Air Terminal", "Boise", ""],
    ];
    for (const [name, city, proper] of cases)
      expect([name, airportProperName(name, city)]).toEqual([name, proper]);
  });

  it("given an airport named after its city only, when reduced, then nothing is left (the city says it all)", () => {
    expect(airportProperName("Lviv International Airport", "Lviv")).toBe("");
    expect(airportProperName("Frankfurt Airport", "Frankfurt am Main")).toBe("");
    expect(airportProperName("Malmö Airport", "Malmö")).toBe("");
  });
});
