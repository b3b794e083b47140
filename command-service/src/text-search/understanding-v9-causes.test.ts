// Causes of the eighth table's search misses (issue 25, session 38), tested in lines of our own: travellers written as
// a family of N, a couple, a companion in the Polish genitive, and agents' short forms for adults and children.
import { describe, expect, it } from "@jest/globals";
import { TextSearchResponse } from "@skyward/contracts/text-search";
import { parseTextSearch } from "./parse.ts";

/** A Tuesday. */
const TODAY = "2026-12-01";
const passengersOf = (text: string) => {
  const answer = parseTextSearch(text, { today: TODAY });
  expect(TextSearchResponse.safeParse({ ...answer, source: "embedded" }).success).toBe(true);
  return answer.search.passengers;
};

describe("the text search's travellers (issue 25, session 38)", () => {
  it("reads a family of N as N travellers, its children among them", () => {
    for (const text of [
      "family of five with three children, Rome to Oslo on 5 March",
      "famille de cinq dont trois enfants, Paris Rome le 5 mars",
      "familia de cinco con tres niños, Madrid Roma el 5 de marzo",
      "сім'я з п'ятьох, троє дітей, Київ Рим 5 березня",
      "rodzina z pięciu, troje dzieci, Kraków Rzym 5 marca",
    ])
      expect([text, passengersOf(text)]).toEqual([text, { adults: 2, children: 3, infants: 0 }]);
  });

  it("reads a couple as two travellers, never a couple of days", () => {
    for (const text of [
      "for a couple, Rome to Oslo 5 March",
      "pour un couple de clients, Paris Rome le 5 mars",
      "una pareja de clientes, Madrid Roma el 5 de marzo",
      "для пари, Київ Рим 5 березня",
    ])
      expect([text, passengersOf(text)]).toEqual([text, { adults: 2, children: 0, infants: 0 }]);
    expect(passengersOf("Rome to Oslo for a couple of days on 5 March")).toEqual({
      adults: 1,
      children: 0,
      infants: 0,
    });
  });

  it("counts a companion written in the Polish genitive beside the one who speaks", () => {
    for (const text of [
      "dla mnie i męża z Krakowa do Rzymu 5 marca",
      "lot dla mnie i partnerki do Rzymu z Gdańska 5 marca",
    ])
      expect([text, passengersOf(text)]).toEqual([text, { adults: 2, children: 0, infants: 0 }]);
  });

  it("reads agents' short forms for adults and children", () => {
    for (const text of [
      "Київ Рим 5 березня 2 дор 1 дит",
      "Kraków Rzym 5 marca 2 dor. 1 dziec.",
      "Київ Рим 5.03, 2 дор + 1 реб",
    ])
      expect([text, passengersOf(text)]).toEqual([text, { adults: 2, children: 1, infants: 0 }]);
  });
});

describe("the text search's dates (issue 25, session 38)", () => {
  it("reads a feast named beside its own date as that one departure, no return", () => {
    for (const [text, day] of [
      ["Rome to Oslo on 25 December, Christmas Day", "2026-12-25"],
      ["Київ Рим 7 січня, на Різдво", "2027-01-07"],
      ["Warszawa Rzym 1 listopada, Wszystkich Świętych", "2027-11-01"],
      ["Paris Rome le 25 décembre, Noël", "2026-12-25"],
      ["Madrid Lima el 1 de noviembre, día de Todos los Santos", "2027-11-01"],
    ] as const) {
      const search = parseTextSearch(text, { today: TODAY }).search;
      expect([text, search.departure_date, search.return_date, search.trip]).toEqual([
        text,
        day,
        undefined,
        "one_way",
      ]);
    }
    // A return on the same day, said as a return, stays.
    expect(parseTextSearch("Rome Oslo 5 March, back 5 March", { today: TODAY }).search.return_date).toBe(
      "2027-03-05",
    );
  });

  it("reads a two-word 'in N days' ('dentro de', 'd'ici') as the day that many days on, a time of day beside it", () => {
    for (const text of ["Sevilla Roma dentro de 5 días por la mañana", "Lyon Rome d'ici 5 jours le matin"]) {
      const search = parseTextSearch(text, { today: TODAY }).search;
      expect([text, search.departure_date, search.departure_time]).toEqual([
        text,
        "2026-12-06",
        { from: 300, to: 720 },
      ]);
    }
    // "un viaje de 3 días" stays a stay's length.
    expect(
      parseTextSearch("Madrid Roma el 5 de marzo, un viaje de 3 días", { today: TODAY }).search.return_date,
    ).toBe("2027-03-08");
  });
});
