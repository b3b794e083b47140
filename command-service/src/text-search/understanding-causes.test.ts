// General causes of misses found on the fourth independent table (issue 25), each tested in phrasings of our own in
// the five languages: impossible returns asked back, feast days of both calendars, time of day on a round trip,
// misspelt first letters.
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

describe("the text search on phrasings beyond its tables (issue 25)", () => {
  it("when the return is a date, a holiday or a dated weekday before the departure, then it is asked back, never moved a year", () => {
    for (const text of [
      "Dublin to Rome on New Year's Eve, coming back on Boxing Day",
      "Oslo - Vienna Saturday 19 December, returning Monday 14 December",
      "Одеса - Варшава 20 лютого, зворотним рейсом 12 лютого",
      "Харків - Відень на Водохреще, назад на Різдво",
      "Kraków - Paryż w Sylwestra, z powrotem w Boże Narodzenie",
      "Wrocław - Oslo w piątek 22 stycznia, powrót we wtorek 19 stycznia",
      "Lyon - Porto à Noël, retour à la Saint-Nicolas",
      "Marseille - Athènes samedi 16 janvier, retour mercredi 13 janvier",
      "Sevilla - Praga en Nochevieja, de vuelta en Navidad",
      "Bilbao - Roma el viernes 22 de enero y vuelta el martes 19 de enero",
    ]) {
      const answer = parse(text);
      expect([text, answer.ask_back?.code, answer.search.return_date]).toEqual([
        text,
        "return_before_departure",
        undefined,
      ]);
    }
  });

  it("when the return after a holiday is later in the calendar, then it is searched as written", () => {
    for (const [text, depart, back] of [
      ["Gdańsk - Oslo 28 grudnia, powrót w Nowy Rok", "2026-12-28", "2027-01-01"],
      ["Київ - Рим на Миколая, повернення на Різдво", "2026-12-06", "2026-12-25"],
      ["Madrid - Roma en Nochebuena, de vuelta en Reyes", "2026-12-24", "2027-01-06"],
    ] as const) {
      const { search, ask_back } = parse(text);
      expect([text, search.departure_date, search.return_date, ask_back]).toEqual([
        text,
        depart,
        back,
        undefined,
      ]);
    }
  });
});
