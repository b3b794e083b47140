// General causes of misses found on the fourth independent table (issue 25), each tested in phrasings of our own in
// the five languages: impossible returns asked back, feast days of both calendars, time of day on a round trip,
// misspelt first letters.
import { describe, expect, it } from "@jest/globals";
import { DAY_PERIODS, TextSearchResponse } from "@skyward/contracts/text-search";
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

  it("when a feast is named on the other calendar, by a name or form not read before, or by a saint that is also a place, then it is its day", () => {
    for (const [text, depart] of [
      ["Athens to Kyiv for Orthodox Easter", "2027-05-02"],
      ["Rome to Lisbon on Holy Saturday", "2027-03-27"],
      ["Cork to Paris for Whitsun", "2027-05-16"],
      ["Belgrade to Vienna for Orthodox Christmas", "2027-01-07"],
      ["Одеса - Рим на католицьку Пасху", "2027-03-28"],
      // Ukraine's Ascension and Holy Week follow its Easter (2 May 2027).
      ["Львів - Прага на Вознесіння", "2027-06-10"],
      ["Київ - Тбілісі на Страсну п'ятницю", "2027-04-30"],
      ["Kraków - Sofia na prawosławne Boże Narodzenie", "2027-01-07"],
      ["Poznań - Rzym w Zesłanie Ducha Świętego", "2027-05-16"],
      ["Łódź - Paryż w Wielką Sobotę", "2027-03-27"],
      ["Marseille - Athènes pour la Pâque orthodoxe", "2027-05-02"],
      ["Nice - Londres le Samedi saint", "2027-03-27"],
      ["Lille - Rome pour la Chandeleur", "2027-02-02"],
      ["Sevilla - Atenas en la Pascua ortodoxa", "2027-05-02"],
      ["Madrid - Oporto el Sábado Santo", "2027-03-27"],
      ["Valencia - Roma para San José", "2027-03-19"],
      // Spain's Constitution Day, not Poland's.
      ["Barcelona - Londres el día de la Constitución", "2026-12-06"],
    ] as const) {
      const { search } = parse(text);
      expect([text, search.departure_date, search.destination]).toEqual([
        text,
        depart,
        expect.not.stringMatching(/^SJ/),
      ]);
    }
    // A saint's name that is the trip's own end stays the place.
    expect(parse("vuelo de Madrid a San Juan el 5 de enero").search).toMatchObject({
      destination: "SJU",
      departure_date: "2027-01-05",
    });
    expect(parse("Madrid - San José para Navidad").search).toMatchObject({
      destination: "SJC",
      departure_date: "2026-12-25",
    });
  });

  it("when a round trip says its time of day once for the whole trip, then the window is kept; said for one leg, it is reported", () => {
    for (const [text, period] of [
      ["round trip Oslo Riga 8 February - 15 February evening", DAY_PERIODS.evening],
      ["туди й назад Київ - Рига 8 - 15 лютого ввечері", DAY_PERIODS.evening],
      ["w obie strony Poznań - Oslo od 8 do 15 lutego rano", DAY_PERIODS.morning],
      ["aller-retour Nantes - Oslo du 8 au 15 février en soirée", DAY_PERIODS.evening],
      ["ida y vuelta Sevilla - Oslo del 8 al 15 de febrero por la tarde", DAY_PERIODS.afternoon],
    ] as const) {
      const { search } = parse(text);
      expect([text, search.trip, search.return_date, search.departure_time]).toEqual([
        text,
        "round_trip",
        "2027-02-15",
        period,
      ]);
    }
    expect(parse("Oslo to Riga Monday evening, back on Friday").search.departure_time).toBeUndefined();
  });

  it("when the time of day is a clock hour after 'after' or 'before', then it is the period its window falls in", () => {
    for (const [text, period] of [
      ["Kyiv to Rome 5 January after 6pm", DAY_PERIODS.evening],
      ["Kyiv to Rome 5 January before noon", DAY_PERIODS.morning],
      ["Київ - Рим 5 січня після 18:00", DAY_PERIODS.evening],
      ["z Gdańska do Rygi 8 lutego po 19", DAY_PERIODS.evening],
      ["Lyon - Nice le 8 février après 18h", DAY_PERIODS.evening],
      ["Bilbao - Roma el 8 de febrero después de las 19", DAY_PERIODS.evening],
      ["Bilbao - Roma el 8 de febrero antes del mediodía", DAY_PERIODS.morning],
    ] as const) {
      const { search } = parse(text);
      expect([text, search.departure_date?.slice(5), search.return_date, search.departure_time]).toEqual([
        text,
        expect.stringMatching(/^0[12]-0[58]$/),
        undefined,
        period,
      ]);
    }
    // "до 10 січня" is a date, not "before 10 o'clock".
    expect(parse("Київ - Рим до 10 січня").search).toMatchObject({ departure_date: "2027-01-10" });
    expect(parse("Київ - Рим до 10 січня").search.departure_time).toBeUndefined();
  });

  it("when a city's first letter is misspelt by ear, or an airport's name is inflected one letter short, then it is still read and the correction said", () => {
    for (const [text, code, misspelt] of [
      ["Wenice to Paris on 5 March", "VCE", "Wenice"],
      ["Київ - Хельсінкі 5 березня", "HEL", "Хельсінкі"],
      ["z Wrocławia do Surychu 5 marca", "ZRH", "Surychu"],
      ["de Lyon à Wenise le 5 mars", "VCE", "Wenise"],
      ["de Madrid a Biena el 5 de marzo", "VIE", "Biena"],
      ["de Vilbao a Roma el 5 de marzo", "BIO", "Vilbao"],
    ] as const) {
      const answer = parse(text);
      const codes = [answer.search.origin, answer.search.destination];
      expect([text, codes.includes(code), answer.corrections?.some((c) => c.from === misspelt)]).toEqual([
        text,
        true,
        true,
      ]);
    }
    expect(parse("lot z Balic do Oslo 3 marca").search).toMatchObject({ origin: "KRK", destination: "OSL" });
  });

  it("when passengers are counted by an abbreviation, after a return word, or someone is only visited, then they are counted right", () => {
    for (const [text, adults, back] of [
      ["Lisbon to Rome and back, 3 adults, 4 Mar to 9 Mar", 3, "2027-03-09"],
      ["Gdańsk - Oslo 6.03 - 13.03, 3 os.", 3, "2027-03-13"],
      ["Lyon - Porto du 6 au 13 mars, 3 pers.", 3, "2027-03-13"],
      ["Київ - Рига 6 березня, 3 ос.", 3, undefined],
      ["vuelo de Sevilla a Roma para visitar a mi padre el 6 de marzo", 1, undefined],
      ["flight London to Rome to visit my father on 6 March", 1, undefined],
      ["Paris - Nice pour voir ma mère le 6 mars", 1, undefined],
    ] as const) {
      const { search } = parse(text);
      expect([
        text,
        search.passengers.adults,
        search.departure_date?.slice(0, 7),
        search.return_date,
      ]).toEqual([text, adults, "2027-03", back]);
    }
  });

  it("when a range of dates ends before it starts, then it is asked back, never moved a year", () => {
    for (const text of [
      "Rome to Oslo 20-10 January",
      "Київ - Осло з 20 по 10 січня",
      "Kraków - Oslo od 20 do 10 stycznia",
      "Paris - Oslo du 20 au 10 janvier",
      "Madrid - Oslo del 20 al 10 de enero",
    ]) {
      const answer = parse(text);
      expect([text, answer.ask_back?.code, answer.search.return_date]).toEqual([
        text,
        "return_before_departure",
        undefined,
      ]);
    }
    expect(parse("Paris - Oslo du 10 au 20 janvier").search).toMatchObject({
      departure_date: "2027-01-10",
      return_date: "2027-01-20",
    });
  });

  it("when a feast is named by its eve, its weekend or a name not read before, then it is that day and no return is invented", () => {
    for (const [text, depart] of [
      ["London to Rome on the eve of Epiphany", "2027-01-05"],
      ["Paris to Dublin on Easter weekend", "2027-03-27"],
      ["Kyiv to Lviv on Trinity Sunday", "2027-05-23"],
      ["Київ - Рим на Паску", "2027-05-02"],
      ["Львів - Варшава на Йордан", "2027-01-06"],
      ["Київ - Прага на Благовіщення", "2027-03-25"],
      ["Kraków - Rzym w przeddzień Wigilii", "2026-12-23"],
      ["Paris - Rome la veille du jour de l'An", "2026-12-31"],
      ["Paris - Rome le week-end de Pâques", "2027-03-27"],
      ["Madrid - Roma la víspera de Reyes", "2027-01-05"],
      ["Madrid - Roma el fin de semana de Pascua", "2027-03-27"],
      ["Madrid - Roma el día de Corpus", "2027-05-27"],
    ] as const) {
      const { search } = parse(text);
      expect([text, search.departure_date, search.return_date]).toEqual([text, depart, undefined]);
    }
  });

  it("when a word that is not a place is a letter or two off a city, then it never becomes the trip's end", () => {
    for (const text of ["Warszawa - Rzym na majówkę", "z Warszawy do Rzymu na długi weekend majowy"]) {
      const answer = parse(text);
      expect([text, answer.search.origin, answer.search.destination, answer.search.departure_date]).toEqual([
        text,
        "WAW",
        "FCO",
        "2027-05-01",
      ]);
    }
  });
});
