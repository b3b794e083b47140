// Causes the v4 tune half of the text-search table showed (issue 25), each in new phrasings in the five languages:
// a return on a holiday (or behind a weekday) before the departure, holidays inside longer names, Easter by church.
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

describe("the text search's understanding (issue 25, v4 causes)", () => {
  it("asks back a return on a holiday before the departure's holiday, never moving it a year, in five languages", () => {
    for (const text of [
      "Vienna to Rome on New Year's Day, flying back on Christmas Day",
      "Kraków - Oslo na Sylwestra, powrót na Boże Narodzenie",
      "Одеса - Відень на Новий рік, назад на Різдво",
      "Lyon - Porto pour le jour de l'An, retour à Noël",
      "Sevilla - Praga en Año Nuevo, regreso en Navidad",
    ]) {
      expect([text, parse(text).ask_back?.code]).toEqual([text, "return_before_departure"]);
    }
  });

  it("asks back a return written with its weekday before the departure's date, in five languages", () => {
    for (const text of [
      "Oslo - Rome Saturday 19 December, coming home Monday 14 December",
      "Gdańsk - Paryż w sobotę 19 grudnia, powrót w poniedziałek 14 grudnia",
      "Харків - Відень у суботу 19 грудня, повернення у понеділок 14 грудня",
      "Nice - Oslo samedi 19 décembre, retour lundi 14 décembre",
      "Bilbao - Roma el sábado 19 de diciembre, vuelta el lunes 14 de diciembre",
    ]) {
      expect([text, parse(text).ask_back?.code]).toEqual([text, "return_before_departure"]);
    }
    // Ukrainian "зі зворотним" (with the return) is a return word too.
    expect(parse("Одеса - Прага 20 січня зі зворотним 2 січня").ask_back?.code).toBe(
      "return_before_departure",
    );
    // A later return on a holiday stays a round trip.
    expect(parse("Oslo - Rome on Christmas Eve, back on New Year's Day").search).toMatchObject({
      departure_date: "2026-12-24",
      return_date: "2027-01-01",
    });
  });

  it("reads Boxing Day and Easter Monday written in full as one day, not as Christmas or Easter besides", () => {
    for (const [text, day] of [
      ["Poznań - Oslo na drugi dzień świąt Bożego Narodzenia", "2026-12-26"],
      ["Poznań - Oslo w drugi dzień Bożego Narodzenia", "2026-12-26"],
      ["Poznań - Oslo na drugi dzień świąt wielkanocnych", "2027-03-29"],
    ] as const) {
      const answer = parse(text);
      expect([text, answer.ask_back, answer.search.departure_date, answer.search.return_date]).toEqual([
        text,
        undefined,
        day,
        undefined,
      ]);
    }
  });

  it("reads Easter named with its church, orthodox or catholic, in five languages", () => {
    for (const [text, day] of [
      ["Rome to Kyiv for the Orthodox Easter", "2027-05-02"],
      ["Kraków - Odessa na prawosławną Wielkanoc", "2027-05-02"],
      ["Одеса - Краків на католицький Великдень", "2027-03-28"],
      ["Lyon - Kyiv pour les Pâques orthodoxes", "2027-05-02"],
      ["Bilbao - Kyiv para la Pascua ortodoxa", "2027-05-02"],
    ] as const) {
      expect([text, parse(text).search.departure_date]).toEqual([text, day]);
    }
  });
});

describe("the text search's understanding (issue 25, v4 causes): a time of day after a range of both dates", () => {
  it("applies a time of day written after both dates of a range, in five languages, and still not one said of one flight", () => {
    for (const [text, from] of [
      ["Oslo - Rome 8 February - 15 February in the evening", 1020],
      ["Gdańsk - Rzym 8 lutego - 15 lutego wieczorem", 1020],
      ["Одеса - Рим 8-15 лютого ввечері", 1020],
      ["Nice - Rome du 8 au 15 février le matin", 300],
      ["Bilbao - Roma del 8 al 15 de febrero por la mañana", 300],
    ] as const) {
      const { search } = parse(text);
      expect([text, search.departure_date, search.return_date, search.departure_time?.from]).toEqual([
        text,
        "2027-02-08",
        "2027-02-15",
        from,
      ]);
    }
    expect(parse("Oslo - Rome Friday morning, back Sunday").search.departure_time).toBeUndefined();
  });
});

describe("the text search's understanding (issue 25, v3/v4 causes): who travels", () => {
  it("counts people written short (2 os., 3 pers., 2 чол.) and never a relative one goes to see, in five languages", () => {
    for (const [text, adults] of [
      ["Oslo - Rome on 3 March to visit my father", 1],
      ["Gdańsk - Rzym 3 marca, 3 os.", 3],
      ["Одеса - Рим 3 березня, 4 чол.", 4],
      ["Nice - Rome le 3 mars, 2 pers.", 2],
      ["Bilbao - Roma el 3 de marzo para visitar a mi padre", 1],
      ["Bilbao - Roma el 3 de marzo con mi padre", 2],
      ["Oslo - Rome on 3 March with my father", 2],
    ] as const) {
      expect([text, parse(text).search.passengers.adults]).toEqual([text, adults]);
    }
  });
});

describe("the text search's understanding (issue 25, v3 cause): a count of passengers right after 'and back'", () => {
  it("reads 'and back, 2 adults' as two adults and the dates written after, never a return on the 2nd, in five languages", () => {
    for (const text of [
      "Oslo to Rome and back, 3 adults, 12 Jan to 19 Jan",
      "Gdańsk - Rzym i z powrotem, 3 osoby, 12-19 stycznia",
      "Одеса - Рим і назад, 3 дорослих, 12-19 січня",
      "Nice - Rome aller-retour, 3 adultes, du 12 au 19 janvier",
      "Bilbao - Roma ida y vuelta, 3 adultos, del 12 al 19 de enero",
    ]) {
      const { search } = parse(text);
      expect([text, search.departure_date, search.return_date, search.passengers.adults]).toEqual([
        text,
        "2027-01-12",
        "2027-01-19",
        3,
      ]);
    }
  });
});

describe("the text search's understanding (issue 25, v3 cause): a Polish airport named in the genitive", () => {
  it("reads Balic and Rębiechowa (z Balic, do Rębiechowa) as their airports, and the nominative as before", () => {
    for (const [text, from, to] of [
      ["z Balic do Oslo 15 stycznia", "KRK", "OSL"],
      ["z Oslo do Rębiechowa 15 stycznia", "OSL", "GDN"],
      ["z Rębiechowa do Balic 15 stycznia", "GDN", "KRK"],
      ["Balice to Oslo on 15 January", "KRK", "OSL"],
      ["de Balice a Oslo el 15 de enero", "KRK", "OSL"],
    ] as const) {
      const { search } = parse(text);
      expect([text, search.origin, search.destination]).toEqual([text, from, to]);
    }
  });
});
