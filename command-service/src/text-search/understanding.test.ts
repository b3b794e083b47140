// What the text search reads beyond its first table (issue 25): holidays, airports by name, city codes, misspellings,
// explicit dates over weekdays, and the lines it asks back.
import { describe, expect, it } from "@jest/globals";
import { TextSearchResponse } from "@skyward/contracts/text-search";
import { parseTextSearch } from "./parse.ts";

/** A Tuesday. */
const TODAY = "2026-12-01";
const parse = (text: string) => {
  const answer = parseTextSearch(text, { today: TODAY });
  // Every answer is one the contract allows.
  expect(TextSearchResponse.safeParse({ ...answer, source: "embedded" }).success).toBe(true);
  return answer;
};

describe("the text search's understanding (issue 25)", () => {
  it("when a holiday or feast day is named, in any of the five languages, then it is its next date", () => {
    for (const [text, depart, back] of [
      ["Kyiv to Lviv on Christmas Day, back on New Year's Day", "2026-12-25", "2027-01-01"],
      ["Київ - Львів на Різдво, назад на Новий рік", "2026-12-25", "2027-01-01"],
      ["z Londynu do Warszawy na Wigilię", "2026-12-24", undefined],
      ["Warszawa - Rzym na Sylwestra", "2026-12-31", undefined],
      ["Paris – Venise pour la Saint-Valentin", "2027-02-14", undefined],
      ["Bruxelles – Rome le lundi de Pâques", "2027-03-29", undefined],
      ["Madrid - Valencia para Reyes", "2027-01-06", undefined],
      ["Málaga - Roma el Domingo de Pascua", "2027-03-28", undefined],
      // Ukraine's Easter is the Orthodox one.
      ["Київ - Відень на Великдень", "2027-05-02", undefined],
      ["з Праги до Києва на День Незалежності", "2027-08-24", undefined],
    ] as const) {
      const { search } = parse(text);
      expect([text, search.departure_date, search.return_date]).toEqual([text, depart, back]);
    }
  });

  it("when a date is written in words, or a feast day moves with Easter, then it is read", () => {
    for (const [text, depart, back] of [
      [
        "billetes de Madrid a Varsovia el cinco de enero, regreso el doce de enero",
        "2027-01-05",
        "2027-01-12",
      ],
      ["Paris – Bogota le premier mars", "2027-03-01", undefined],
      ["z Amsterdamu do Dubaju piętnastego stycznia", "2027-01-15", undefined],
      ["Kraków - Rzym dwudziestego pierwszego grudnia", "2026-12-21", undefined],
      ["Wrocław - Kopenhaga za dwa tygodnie", "2026-12-15", undefined],
      ["Genève – Paris le jeudi de l'Ascension", "2027-05-06", undefined],
    ] as const) {
      const { search } = parse(text);
      expect([text, search.departure_date, search.return_date]).toEqual([text, depart, back]);
    }
  });

  it("when a low-cost airline is named, in any case form, then it is the carrier filter", () => {
    expect(parse("de Nice à Genève le 15 décembre, par easyJet").search.carriers).toEqual(["U2"]);
    expect(parse("Wenecja - Neapol Wizz Airem albo Ryanairem 9 stycznia").search.carriers?.sort()).toEqual([
      "FR",
      "W6",
    ]);
    // Wizz alone, as agents say it.
    for (const text of [
      "Gdańsk – Oslo 14 grudnia, LOT albo Wizz",
      "Lyon - Budapest le 3 février, Wizz ou easyJet",
      "Київ – Бухарест 12 січня, тільки Wizz",
    ])
      expect([text, parse(text).search.carriers?.sort()]).toEqual([
        text,
        text.includes("easyJet") ? ["U2", "W6"] : text.includes("LOT") ? ["LO", "W6"] : ["W6"],
      ]);
  });

  it("when people are counted and then called adults, then they are that many adults", () => {
    expect(parse("Gdańsk Oslo w piątek, 2 osoby dorosłe").search.passengers).toEqual({
      adults: 2,
      children: 0,
      infants: 0,
    });
  });

  it("when a city's name looks like a holiday's (Valencia, Valentine), then it is the city", () => {
    const { search } = parse("Valencia - Palma el día de la Inmaculada");
    expect(search).toMatchObject({ origin: "VLC", destination: "PMI", departure_date: "2026-12-08" });
  });

  it("when an airport is named by its own name, then it is that airport, not its city's main one", () => {
    for (const [text, from, to] of [
      ["fly out of Gatwick to Orly on Monday", "LGW", "ORY"],
      ["Chopin to Charles de Gaulle, December 13, 1 adult", "WAW", "CDG"],
      ["z Pyrzowic do Fiumicino 8 stycznia", "KTW", "FCO"],
      ["Beauvais – Cracovie le 13 décembre", "BVA", "KRK"],
      ["first class Dubai to London Heathrow, 22 Dec, return 2 Jan", "DXB", "LHR"],
    ] as const) {
      const { search, ask_back } = parse(text);
      expect([text, search.origin, search.destination, ask_back]).toEqual([text, from, to, undefined]);
    }
  });

  it("when a city code is typed, then it stays the city's code", () => {
    expect(parse("from PAR to MIL on 7 December").search).toMatchObject({
      origin: "PAR",
      destination: "MIL",
    });
    expect(parse("IEV - PAR 20 січня").search).toMatchObject({ origin: "IEV", destination: "PAR" });
  });

  it("when a city is misspelt, then the nearest city is searched and the correction is said", () => {
    const en = parse("Lodnon to Paris on December 11");
    expect(en.search.origin).toBe("LHR");
    expect(en.corrections).toEqual([{ from: "Lodnon", to: "London" }]);
    const es = parse("de Barselona a Lodres el 11 de diciembre");
    expect(es.search).toMatchObject({ origin: "BCN", destination: "LHR" });
    expect(es.corrections?.map((c) => c.from)).toEqual(["Barselona", "Lodres"]);
    // Read by its stem but a letter off its name: said too; a regular case form is not a correction.
    expect(parse("de Lisbone à Paris le 2 janvier").corrections).toEqual([{ from: "Lisbone", to: "Lisbon" }]);
    expect(parse("z Krakowa do Lizbony 2 stycznia").corrections).toBeUndefined();
    // Words that are not places are never read as one, corrected or not.
    const plain = parse("Kyiv to Warsaw on December 10 with a small dog please");
    expect(plain.corrections).toBeUndefined();
    expect(plain.search).toMatchObject({ destination: "WAW", departure_date: "2026-12-10" });
  });

  it("when a weekday stands beside an explicit date, then the date wins and no return is made of it", () => {
    for (const text of ["Kraków to Vienna Monday, December 16", "Sevilla - Viena el lunes 16 de diciembre"]) {
      const { search } = parse(text);
      expect([text, search.departure_date, search.return_date, search.trip]).toEqual([
        text,
        "2026-12-16",
        undefined,
        "one_way",
      ]);
    }
  });

  it("when the return is written before the departure, then it is asked back, never moved a year on", () => {
    for (const text of [
      "Lisbon to Porto on Jan 8, back Jan 3",
      "Warszawa - Kijów 20 grudnia, powrót 10 grudnia",
      "de Nice à Lisbonne le 8 janvier, retour le 3 janvier",
    ]) {
      const answer = parse(text);
      expect([text, answer.ask_back?.code]).toEqual([text, "return_before_departure"]);
      expect(answer.search.return_date).toBeUndefined();
    }
    // A bare day of the month for the return is the next one after the departure, not a mistake.
    expect(parse("Warsaw to Lisbon on the 5th, back on the 2nd").ask_back).toBeUndefined();
  });

  it("when the line holds several legs, then it is asked back rather than read as a wrong round trip", () => {
    for (const text of [
      "Kyiv to Warsaw Dec 10, then Warsaw to Paris Dec 14, then Paris back to Kyiv Dec 20",
      "Київ — Варшава 10 грудня, Варшава — Париж 14 грудня, Париж — Київ 20 грудня",
      "Kyiv to Warsaw, Warsaw to Berlin",
    ])
      expect([text, parse(text).ask_back?.code]).toEqual([text, "multi_city"]);
    expect(parse("Paris to Rome on the 18th of December, back on the 22nd").ask_back).toBeUndefined();
  });

  it("when more feast days are named (saints, national days, Holy Week), then each is its next date", () => {
    for (const [text, depart] of [
      ["Boston to Dublin for St Patrick's Day", "2027-03-17"],
      ["Sevilla - Madrid el Día de la Hispanidad", "2027-10-12"],
      ["Київ - Краків на день святого Миколая", "2026-12-06"],
      ["Gdańsk - Oslo na Mikołajki", "2026-12-06"],
      ["Paris – Lisbonne pour la fête du Travail", "2027-05-01"],
      ["Londyn - Kraków na Święto Niepodległości", "2027-11-11"],
      ["Sevilla - Roma el Jueves Santo", "2027-03-25"],
      ["Lyon – Rome le mercredi des Cendres", "2027-02-10"],
    ] as const)
      expect([text, parse(text).search.departure_date]).toEqual([text, depart]);
    // A holiday after a return word is the return ("retour le jour de l'An": split at its elision as the line is).
    const { search } = parse("Lyon – Rome à Noël, retour le jour de l'An");
    expect([search.departure_date, search.return_date]).toEqual(["2026-12-25", "2027-01-01"]);
  });

  it("when a day of the month is written alone after its article or with its ordinal ending, then it is this month's", () => {
    for (const text of [
      "Madrid - Lisboa el 28",
      "Madrid - Lisboa el día 28",
      "Lyon – Porto le 28",
      "z Gdańska do Oslo 28-go",
      "з Одеси до Відня 28 числа",
    ])
      expect([text, parse(text).search.departure_date]).toEqual([text, "2026-12-28"]);
  });

  it("when a city code is typed in capitals, then it stays the city's code, never one of its airports", () => {
    const { search } = parse("PAR - NYC on March 3");
    expect([search.origin, search.destination]).toEqual(["PAR", "NYC"]);
  });

  it("when a capitals word or a lower-case word is also an airport code, then it is a place only where no other is named", () => {
    // CEO and VIP are words; "ver" (to see) is Veracruz's code, "mar" (the sea) no weekday.
    const a = parse("Urgent for our VIP guest, Vienna to Prague tomorrow").search;
    expect([a.origin, a.destination, a.departure_date]).toEqual(["VIE", "PRG", "2026-12-02"]);
    const b = parse("Barcelona Palma para ver el mar, 28 de diciembre").search;
    expect([b.origin, b.destination, b.departure_date, b.return_date]).toEqual([
      "BCN",
      "PMI",
      "2026-12-28",
      undefined,
    ]);
    // Typed codes beside each other are still a route.
    const c = parse("KBP WAW tomorrow").search;
    expect([c.origin, c.destination]).toEqual(["KBP", "WAW"]);
  });

  it("when an airport is named in Ukrainian, or a city by a form not listed before, then it is read", () => {
    const a = parse("з Жулян до Гатвіка в п'ятницю").search;
    expect([a.origin, a.destination]).toEqual(["IEV", "LGW"]);
    const b = parse("з Тель-Авіва до Ларнаки завтра").search;
    expect([b.origin, b.destination]).toEqual(["TLV", "LCA"]);
    const c = parse("z Pafos do Tuluzy jutro").search;
    expect([c.origin, c.destination]).toEqual(["PFO", "TLS"]);
  });

  it("when a French or Spanish city is misspelt, then it is corrected and the correction said", () => {
    const answer = parse("Tuolouse – Madrid le 10 décembre");
    expect(answer.search.origin).toBe("TLS");
    expect(answer.corrections).toEqual([{ from: "Tuolouse", to: "Toulouse" }]);
  });

  it("when 'no connection' is said in any of its ways, then only direct flights are searched", () => {
    for (const text of [
      "Nice - Paris demain, pas de correspondance",
      "Nice - Paris demain sans correspondance",
      "Madrid - Bilbao mañana sin transbordos",
      "Kyiv to Vienna tomorrow, no layovers",
      "z Gdańska do Oslo jutro bez międzylądowań",
    ])
      expect([text, parse(text).search.direct_only]).toEqual([text, true]);
  });

  it("when tickets or seats are counted, then they are the travellers; a day's end is the evening", () => {
    for (const [text, adults] of [
      ["need 3 tickets Kyiv to Rome tomorrow", 3],
      ["два квитки з Києва до Риму завтра", 2],
      ["4 bilety z Warszawy do Rzymu jutro", 4],
      ["2 billets Paris – Rome demain", 2],
    ] as const)
      expect([text, parse(text).search.passengers.adults]).toEqual([text, adults]);
    expect(parse("Lyon – Rome demain en fin de journée").search.departure_time).toEqual({
      from: 1020,
      to: 1440,
    });
  });

  it("when Thanksgiving, Holy Week or a Ukrainian ordinal day is named, then it is its next date", () => {
    for (const [text, depart] of [
      ["Boston to Chicago on Thanksgiving", "2027-11-25"],
      ["Sevilla - Roma en Semana Santa", "2027-03-21"],
      ["з Дніпра до Праги 30-го", "2026-12-30"],
    ] as const)
      expect([text, parse(text).search.departure_date]).toEqual([text, depart]);
  });

  it("when the weekend is named, then it is its Saturday (next week's after 'next'); 'tmrw' is tomorrow", () => {
    for (const [text, depart] of [
      ["з Одеси до Стамбула на вихідних", "2026-12-05"],
      ["z Gdańska do Oslo w przyszły weekend", "2026-12-12"],
      ["Paris – Rome ce week-end", "2026-12-05"],
      ["Madrid - Roma el próximo fin de semana", "2026-12-12"],
      ["Kyiv to Rome tmrw", "2026-12-02"],
    ] as const)
      expect([text, parse(text).search.departure_date]).toEqual([text, depart]);
  });

  it("when a city the table did not list is named in its own language and case (Bâle, Florencji, Хургади), then it is found", () => {
    for (const [text, destination] of [
      ["de Paris à Bâle le 6 janvier", "BSL"],
      ["z Warszawy do Florencji 5 stycznia", "FLR"],
      ["de Madrid a Florencia el 5 de enero", "FLR"],
      ["з Варшави до Хургади 10 січня", "HRG"],
      ["z Krakowa do Bolonii jutro", "BLQ"],
    ] as const)
      expect([text, parse(text).search.destination]).toEqual([text, destination]);
  });

  it("when a range follows a round-trip word, or its days have articles, then it is the departure and the return", () => {
    for (const text of [
      "Paris – Rome aller-retour du 10 au 17 janvier",
      "з Києва до Риму туди й назад з 10 до 17 січня",
      "Kyiv to Rome from the 10th to the 17th of January",
      "z Warszawy do Rzymu od 10 do 17 stycznia",
    ]) {
      const { search } = parse(text);
      expect([text, search.departure_date, search.return_date]).toEqual([text, "2027-01-10", "2027-01-17"]);
    }
  });

  it("when an English weekday abbreviation is a word of another language ('mon fils'), then it is no date", () => {
    const { search } = parseTextSearch("Paris – Berlin le 13 janvier avec ma femme et mon fils", {
      today: TODAY,
      language: "fr",
    });
    expect([search.departure_date, search.return_date]).toEqual(["2027-01-13", undefined]);
  });

  it("when '1st class' or a low-cost carrier not sold here is written, then it is read", () => {
    const a = parse("Tokyo from Frankfurt, 1st class, March 3rd").search;
    expect([a.origin, a.cabin]).toEqual(["FRA", "first"]);
    expect(parse("Dublin to Oslo on Sunday, SAS or Norwegian").search.carriers).toEqual(["SK", "DY"]);
  });

  it("when a cabin is shortened or turned round ('premium éco', 'eco premium', 'економ преміум'), then it is read", () => {
    for (const [text, cabin] of [
      ["London to Rome tomorrow, prem eco", "premium_economy"],
      ["Київ - Рим завтра, економ преміум", "premium_economy"],
      ["Warszawa - Rzym jutro, premium eko", "premium_economy"],
      ["Paris – Rome demain en éco premium", "premium_economy"],
      ["Madrid - Roma mañana en económica premium", "premium_economy"],
      ["Paris – Rome demain, 1ère classe", "first"],
      ["Madrid - Roma mañana en 1a clase", "first"],
    ] as const)
      expect([text, parse(text).search.cabin]).toEqual([text, cabin]);
  });

  it("when a feast is named by its saint alone after 'on' (на Миколая, na Mikołaja), then it is its day; the city stays a place", () => {
    for (const text of [
      "з Одеси до Відня на Миколая",
      "Kraków – Gdańsk na Mikołaja",
      "Madrid - Roma por San Nicolás",
      "London to Oslo on Saint Nicholas",
      "Paris – Berlin pour la Saint-Nicolas",
    ])
      expect([text, parse(text).search.departure_date]).toEqual([text, "2026-12-06"]);
    // Mykolaiv is a city, not St Nicholas: no date from it.
    expect(parse("з Миколаєва до Варшави").search.departure_date).toBeUndefined();
    expect(parse("Warszawa - Londyn na Andrzejki").search.departure_date).toBe("2027-11-30");
  });

  it("when a family is written as adults+children(+infants) ('2+2', '2 + 1 + 1'), then those are the passengers", () => {
    for (const [text, passengers] of [
      ["Kyiv to Rome on 5 January, family 2+2", { adults: 2, children: 2, infants: 0 }],
      ["Київ - Рим 5 січня, сім'я 2+1", { adults: 2, children: 1, infants: 0 }],
      ["Warszawa - Rzym 5 stycznia, rodzina 2+1+1", { adults: 2, children: 1, infants: 1 }],
      ["Paris – Rome le 5 janvier, 1 + 1", { adults: 1, children: 1, infants: 0 }],
      ["Madrid - Roma el 5 de enero, familia 2+3", { adults: 2, children: 3, infants: 0 }],
    ] as const)
      expect([text, parse(text).search.passengers]).toEqual([text, passengers]);
    // A time's "+1" (next day) is no family.
    expect(parse("London to Rome on 5 January 10:00+1").search.passengers).toEqual({
      adults: 1,
      children: 0,
      infants: 0,
    });
  });

  it("when an agent writes the booking shorthand (adt, chd, inf, rtn, ret, NYE), then it is read, never as an airport", () => {
    const a = parse("LON to NYC next fri, rtn sun, 2 adt 1 chd").search;
    expect([a.origin, a.destination, a.departure_date, a.return_date, a.passengers]).toEqual([
      "LON",
      "NYC",
      "2026-12-11",
      "2026-12-13",
      { adults: 2, children: 1, infants: 0 },
    ]);
    const b = parse("KRK-LHR 10 Jan ret 17 Jan 2 adl 1 inf").search;
    expect([b.return_date, b.passengers]).toEqual(["2027-01-17", { adults: 2, children: 0, infants: 1 }]);
    expect(parse("Oslo - Rome on NYE").search.departure_date).toBe("2026-12-31");
  });
});
