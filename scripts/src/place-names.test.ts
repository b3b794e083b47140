// The city names dataset (contracts/src/place-names) is what its generator makes from CLDR and the city table.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { generatePlaceNames, type Language, placeNamesFile } from "./generate-place-names.ts";

describe("city names dataset", () => {
  const { files, sources } = generatePlaceNames();

  it("when the generator runs, then the committed files are exactly its output (regenerate: npx tsx scripts/src/generate-place-names.ts)", () => {
    for (const [language, text] of Object.entries(files) as [Language, string][])
      expect([language, readFileSync(placeNamesFile(language), "utf8")]).toEqual([language, text]);
  });

  it("when generated, then both sources give names and the well-known cities read as their languages write them", () => {
    expect(sources.cldr).toBeGreaterThan(500);
    expect(sources.table).toBeGreaterThan(50);
    const name = (language: Language, code: string) =>
      new RegExp(`\\n  ${code}: "([^"]+)"`).exec(files[language])?.[1];
    expect([name("ua", "KBP"), name("ua", "WAW"), name("ua", "LWO"), name("ua", "LGW")]).toEqual([
      "Київ",
      "Варшава",
      "Львів",
      "Лондон",
    ]);
    expect([name("pl", "KBP"), name("pl", "LWO"), name("fr", "WAW"), name("es", "LHR")]).toEqual([
      "Kijów",
      "Lwów",
      "Varsovie",
      "Londres",
    ]);
    // Paris, Texas is not Paris: a same-named city on another continent keeps its English name.
    expect(name("ua", "PRX")).toBeUndefined();
  });
});
