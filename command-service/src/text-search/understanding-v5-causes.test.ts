// General causes of misses found by probing the text search with phrasings of our own (issue 25, session 36), each
// tested in new lines: a four-letter city with two letters swapped, a cabin written in the locative case.
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

describe("the text search on phrasings beyond its tables (issue 25, session 36)", () => {
  it("when a four-letter city is typed with two letters after the first swapped, then it is read and the correction said", () => {
    for (const [text, codes, misspelt] of [
      ["Kiyv to Paris on 5 March", ["IEV", "KBP"], "Kiyv"],
      ["Warsaw - Rgia 5 March", ["RIX"], "Rgia"],
      ["z Krakowa do Olso 5 marca", ["OSL"], "Olso"],
      ["de Lyon à Rmoe le 5 mars", ["ROM", "FCO"], "Rmoe"],
    ] as const) {
      const answer = parse(text);
      const found = [answer.search.origin, answer.search.destination];
      expect([
        text,
        found.some((c) => (codes as readonly string[]).includes(c ?? "")),
        answer.corrections?.some((c) => c.from === misspelt),
      ]).toEqual([text, true, true]);
    }
    // Exact four-letter names are no corrections.
    expect(parse("Kyiv to Oslo on 5 March").corrections ?? []).toEqual([]);
  });

  it("when the business cabin is written in the locative case, then it is business", () => {
    for (const text of [
      "z Wrocławia do Wiednia 9 stycznia w biznesie",
      "z Gdańska do Paryża 9 stycznia w klasie biznesowej",
      "з Києва до Відня 9 січня у бізнесі",
      "Львів - Рим 9 січня в бізнес класі",
    ]) {
      expect([text, parse(text).search.cabin]).toEqual([text, "business"]);
    }
  });

  it("when the Old New Year is named, then it is 14 January, not the New Year's Day its words hold", () => {
    for (const text of [
      "Дніпро — Відень на Різдво, назад на Старий Новий рік",
      "з Києва до Варшави на старий Новий рік",
      "Kraków - Kijów na Stary Nowy Rok",
      "London to Kyiv for the Old New Year",
    ]) {
      const { search } = parse(text);
      expect([text, search.return_date ?? search.departure_date]).toEqual([text, "2027-01-14"]);
    }
    expect(parse("Київ Варшава на Новий рік").search.departure_date).toBe("2027-01-01");
  });

  it("when a carrier is set aside (not, without, без, крім, bez, sauf), then it is no preferred carrier", () => {
    for (const text of [
      "Kyiv to Rome 5 March, not Ryanair",
      "Kyiv to Rome 5 March without Wizz Air",
      "Київ Рим 5 березня без Ryanair",
      "Київ Рим 5 березня крім Wizz Air",
      "Kraków Rzym 5 marca bez Ryanaira",
      "Paris Rome le 5 mars sauf Ryanair",
    ]) {
      const { search } = parse(text);
      expect([text, search.carriers ?? [], search.destination]).toEqual([text, [], "FCO"]);
    }
    expect(parse("Kyiv to Rome 5 March with LOT").search.carriers).toEqual(["LO"]);
  });
});
