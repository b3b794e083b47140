// Causes the v5 tune half of the text-search table showed (issue 25), each in new phrasings in several languages:
// a return word before a range of two dates, a collective number counting the travellers, two carriers joined by "or".
import { describe, expect, it } from "@jest/globals";
import { TextSearchResponse } from "@skyward/contracts/text-search";
import { parseTextSearch } from "./parse.ts";

/** A Tuesday. */
const TODAY = "2026-12-01";
const parse = (text: string) => {
  const answer = parseTextSearch(text, { today: TODAY });
  expect(TextSearchResponse.safeParse({ ...answer, source: "embedded" }).success).toBe(true);
  return answer;
};

describe("the text search's understanding (issue 25, v5 causes)", () => {
  it("reads a return word before a range of two dates as the trip's: the range's dates in order", () => {
    for (const text of [
      "Oslo to Rome and back, 10 Mar to 15 Mar",
      "Осло - Рим туди й назад, 10 березня до 15 березня",
      "Oslo Rzym tam i z powrotem, 10 marca - 15 marca",
      "Oslo Rome aller-retour, 10 mars au 15 mars",
      "Oslo Roma ida y vuelta, 10 de marzo al 15 de marzo",
    ]) {
      expect([text, parse(text).search]).toEqual([
        text,
        expect.objectContaining({
          departure_date: "2027-03-10",
          return_date: "2027-03-15",
          trip: "round_trip",
        }),
      ]);
    }
    // A return written before the departure on its own is still asked back.
    expect(parse("Oslo to Rome 15 Mar, back 10 Mar").ask_back?.code).toBe("return_before_departure");
  });

  it("counts the travellers from a collective number standing alone", () => {
    for (const [text, adults] of [
      ["Одеса - Рим 12 лютого, троє", 3],
      ["з Одеси до Рима 12 лютого, летимо удвох", 2],
      ["Gdańsk - Rzym 12 lutego, we dwoje", 2],
      ["z Gdańska do Rzymu 12 lutego, czworo", 4],
      ["Oslo to Rome 12 Feb, the three of us", 3],
      ["Nice - Rome 12 février, nous sommes deux", 2],
      ["Nice - Rome 12 février, à trois", 3],
      ["Bilbao - Roma 12 de febrero, somos cuatro", 4],
      ["Gdańsk - Rzym 12 lutego, jest nas troje", 3],
      ["Одеса - Рим 12 лютого, нас двоє", 2],
    ] as const) {
      expect([text, parse(text).search?.passengers]).toEqual([text, { adults, children: 0, infants: 0 }]);
    }
    // "À deux heures" is a time, not two travellers.
    expect(parse("Nice - Rome 12 février à deux heures").search?.passengers?.adults).toBe(1);
    // With a noun it counts that noun.
    expect(parse("Одеса - Рим 12 лютого, двоє дітей і мама").search?.passengers).toEqual({
      adults: 1,
      children: 2,
      infants: 0,
    });
  });

  it("reads two carriers joined by 'or', 'and' or a comma, in five languages", () => {
    for (const [text, carriers] of [
      ["Oslo to Rome 12 Feb with AZ or SK", ["AZ", "SK"]],
      ["Одеса - Рим 12 лютого рейсом AZ чи LH", ["AZ", "LH"]],
      ["Gdańsk - Rzym 12 lutego liniami LO albo AZ", ["LO", "AZ"]],
      ["Nice - Rome 12 février avec AF ou AZ", ["AF", "AZ"]],
      ["Bilbao - Roma 12 de febrero con IB, AZ", ["IB", "AZ"]],
    ] as const) {
      expect([text, [...(parse(text).search?.carriers ?? [])].sort()]).toEqual([text, [...carriers].sort()]);
    }
    // A code not joined to a carrier is still no carrier.
    expect(parse("Oslo to Rome 12 Feb, AZ").search?.carriers).toBeUndefined();
  });

  it("reads the business cabin declined ('w biznesie', 'lecimy biznesem', 'у бізнесі')", () => {
    for (const text of [
      "z Gdańska do Oslo 3 lutego w biznesie",
      "Gdańsk - Oslo 3 lutego, lecimy biznesem",
      "Одеса - Осло 3 лютого, у бізнесі",
    ])
      expect([text, parse(text).search?.cabin]).toEqual([text, "business"]);
  });
});
