import { findAirport } from "../suppliers/sandbox/airports.ts";
import { cityForms } from "./cities.ts";
import type { DateHit } from "./dates.ts";
import type { Place } from "./places.ts";
import { normalise, type Token, tokenize } from "./tokens.ts";

/**
 * What the text search reads beyond its first rules (issue 25): named holidays and feast days in the five
 * languages, airports by their own names, city codes, misspelt city names (corrected and said), and the lines it
 * cannot search as they are (a return before the departure; several legs, until multi-city search lands).
 */

const pad = (n: number) => String(n).padStart(2, "0");
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/** Western Easter Sunday (Gregorian computus, Meeus/Jones/Butcher). */
function westernEaster(y: number): [number, number] {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return [month, day];
}

/** Orthodox Easter Sunday (Julian computus, as a Gregorian date): Ukraine's Великдень. */
function orthodoxEaster(y: number): [number, number] {
  const a = y % 4;
  const b = y % 7;
  const c = y % 19;
  const d = (19 * c + 15) % 30;
  const e = (2 * a + 4 * b - d + 34) % 7;
  const month = Math.floor((d + e + 114) / 31);
  const day = ((d + e + 114) % 31) + 1;
  const julian = new Date(Date.UTC(y, month - 1, day));
  julian.setUTCDate(julian.getUTCDate() + 13);
  return [julian.getUTCMonth() + 1, julian.getUTCDate()];
}

const shifted = ([m, d]: [number, number], y: number, days: number): [number, number] => {
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return [t.getUTCMonth() + 1, t.getUTCDate()];
};

type DayOf = (year: number) => [number, number];
const fixed =
  (m: number, d: number): DayOf =>
  () => [m, d];

/** A feast kept on both calendars: its day when the line says "Orthodox" or "Catholic" beside its name. */
interface Calendars {
  orthodox: DayOf;
  western: DayOf;
}
/** A feast that moves with Easter: `days` after Easter Sunday, on both calendars. */
const paschal = (days: number): Calendars => ({
  western: (y) => shifted(westernEaster(y), y, days),
  orthodox: (y) => shifted(orthodoxEaster(y), y, days),
});
/** Christmas and its Eve: the Julian calendar's days (7 and 6 January) for "Orthodox Christmas". */
const christmas = (eve: boolean): Calendars => ({
  western: fixed(12, eve ? 24 : 25),
  orthodox: fixed(1, eve ? 6 : 7),
});

/** Holidays by their names (normalised words; a long word also matches its inflected forms by its first letters). */
const HOLIDAYS: [string[], DayOf, Calendars?][] = [
  [
    [
      "christmas eve",
      "xmas eve",
      "святвечір",
      "святий вечір",
      "wigilia",
      "wigilie",
      "wigilii",
      "veille de noel",
      "reveillon de noel",
      "nochebuena",
      "wigilia bozego narodzenia",
      "святвечора",
    ],
    fixed(12, 24),
    christmas(true),
  ],
  [
    [
      "christmas",
      "christmas day",
      "xmas",
      "різдво",
      "різдва",
      "на різдво",
      "boze narodzenie",
      "bozego narodzenia",
      "noel",
      "jour de noel",
      "navidad",
      "dia de navidad",
      "pierwszy dzien swiat",
      "bozym narodzeniu",
      "christmas day",
      "різдво христове",
      "la navidad",
    ],
    fixed(12, 25),
    christmas(false),
  ],
  [
    [
      "boxing day",
      "drugi dzien swiat",
      "drugi dzien swiat bozego narodzenia",
      "drugi dzien bozego narodzenia",
      "drugi dzien swiat bozonarodzeniowych",
    ],
    fixed(12, 26),
  ],
  [
    [
      "new year's eve",
      "new years eve",
      "nye",
      "sylwester",
      "sylwestra",
      "saint sylvestre",
      "reveillon du nouvel an",
      "nochevieja",
      "переддень нового року",
      "hogmanay",
      "ostatni dzien roku",
      "fin de ano",
      "la nochevieja",
    ],
    fixed(12, 31),
  ],
  // The Old New Year (14 January, the Julian calendar's New Year's Day): before the New Year, whose words it holds.
  [
    [
      "old new year",
      "старий новий рік",
      "старого нового року",
      "старий новий",
      "stary nowy rok",
      "starego nowego roku",
      "vieux nouvel an",
      "ano nuevo viejo",
      "viejo ano nuevo",
    ],
    fixed(1, 14),
  ],
  [
    [
      "new year's day",
      "new years day",
      "new year",
      "новий рік",
      "нового року",
      "nowy rok",
      "nowego roku",
      "nowym roku",
      "новому році",
      "jour de l'an",
      "nouvel an",
      "ano nuevo",
      "dia de ano nuevo",
    ],
    fixed(1, 1),
  ],
  [
    [
      "epiphany",
      "three kings",
      "three kings day",
      "водохреще",
      "trzech kroli",
      "swieto trzech kroli",
      "epiphanie",
      "reyes",
      "dia de reyes",
      "reyes magos",
      "epifania",
      "objawienie panskie",
      "objawienia panskiego",
      "хрещення",
      "йордан",
      "йордана",
      "хрещення господнє",
      "jour des rois",
      "fete des rois",
    ],
    fixed(1, 6),
  ],
  [
    [
      "valentine's day",
      "valentines day",
      "valentine's",
      "valentine",
      "день святого валентина",
      "день валентина",
      "walentynki",
      "walentynek",
      "saint valentin",
      "la saint valentin",
      "san valentin",
      "dia de san valentin",
    ],
    fixed(2, 14),
  ],
  [["день незалежності", "день незалежности"], fixed(8, 24)],
  [
    [
      "st patrick's day",
      "st patricks day",
      "saint patrick's day",
      "saint patricks day",
      "st patrick's",
      "st paddy's day",
      "saint patrick",
      "la saint patrick",
      "san patricio",
      "dia de san patricio",
      "dzien swietego patryka",
      "swietego patryka",
      "день святого патрика",
    ],
    fixed(3, 17),
  ],
  [
    [
      "dia de la hispanidad",
      "hispanidad",
      "fiesta nacional de espana",
      "dia del pilar",
      "virgen del pilar",
      "columbus day",
    ],
    fixed(10, 12),
  ],
  [
    [
      "st nicholas day",
      "saint nicholas day",
      "st nicholas",
      "день святого миколая",
      "святого миколая",
      "mikolajki",
      "mikolajek",
      "swietego mikolaja",
      "saint nicolas",
      "la saint nicolas",
      "dia de san nicolas",
      "saint nicholas",
      "san nicolas",
    ],
    fixed(12, 6),
  ],
  [["andrzejki", "andrzejek"], fixed(11, 30)],
  // Poland's May long weekend, from 1 May.
  [["majowka", "majowke", "majowki", "majowce", "weekend majowy", "dlugi weekend majowy"], fixed(5, 1)],
  [["barborka", "barbórka"], fixed(12, 4)],
  [
    [
      "labour day",
      "labor day",
      "may day",
      "день праці",
      "swieto pracy",
      "fete du travail",
      "dia del trabajo",
      "dia del trabajador",
    ],
    fixed(5, 1),
  ],
  [["constitution day", "swieto konstytucji", "3 maja"], fixed(5, 3)],
  // Spain's Constitution Day (6 December), beside Poland's above.
  [["dia de la constitucion", "puente de la constitucion"], fixed(12, 6)],
  [["annunciation", "благовіщення", "zwiastowanie", "annonciation", "anunciacion"], fixed(3, 25)],
  [
    ["trinity sunday", "dimanche de la trinite", "domingo de la trinidad", "niedziela trojcy swietej"],
    (y) => shifted(westernEaster(y), y, 56),
    paschal(56),
  ],
  [["candlemas", "chandeleur", "la chandeleur", "стрітення", "matki boskiej gromnicznej"], fixed(2, 2)],
  [
    ["all souls", "all souls day", "zaduszki", "dia de difuntos", "dia de los difuntos", "jour des morts"],
    fixed(11, 2),
  ],
  [["sant jordi", "dia de sant jordi"], fixed(4, 23)],
  [["san fermin", "sanfermines"], fixed(7, 7)],
  [["san isidro"], fixed(5, 15)],
  [["independence day", "fourth of july", "4th of july"], fixed(7, 4)],
  [["bastille day", "fete nationale", "quatorze juillet", "14 juillet"], fixed(7, 14)],
  [
    [
      "armistice",
      "jour de l'armistice",
      "swieto niepodleglosci",
      "narodowe swieto niepodleglosci",
      "dzien niepodleglosci",
    ],
    fixed(11, 11),
  ],
  [["день конституції"], fixed(6, 28)],
  [["день захисників", "день захисників і захисниць", "покрова", "покрову"], fixed(10, 1)],
  [
    [
      "women's day",
      "womens day",
      "international women's day",
      "міжнародний жіночий день",
      "жіночий день",
      "dzien kobiet",
      "journee de la femme",
      "journee des femmes",
      "dia de la mujer",
    ],
    fixed(3, 8),
  ],
  [["dia de san jose"], fixed(3, 19)],
  [["noche de san juan", "dia de san juan", "la saint jean", "nit de sant joan"], fixed(6, 24)],
  // Ukraine's churches keep the fixed feasts on the new calendar since 2023 (Різдво 25 December, Миколая 6 December,
  // Івана Купала 24 June).
  [["івана купала", "купала", "купайла"], fixed(6, 24)],
  [["st stephen's day", "st stephens day", "dia de san esteban", "la saint etienne"], fixed(12, 26)],
  [["immaculate conception", "inmaculada", "dia de la inmaculada", "immaculee conception"], fixed(12, 8)],
  [
    [
      "all saints",
      "all saints day",
      "all hallows",
      "wszystkich swietych",
      "toussaint",
      "todos los santos",
      "день всіх святих",
    ],
    fixed(11, 1),
  ],
  [["halloween"], fixed(10, 31)],
  [["assumption", "assomption", "asuncion", "wniebowziecie"], fixed(8, 15)],
  [
    ["великдень", "великодня", "пасха", "пасху", "паска", "паску", "великодні свята", "воскресіння христове"],
    (y) => orthodoxEaster(y),
    paschal(0),
  ],
  [
    [
      "easter monday",
      "lundi de paques",
      "lunes de pascua",
      "poniedzialek wielkanocny",
      "lany poniedzialek",
      "drugi dzien wielkanocy",
      "drugi dzien swiat wielkanocnych",
    ],
    (y) => shifted(westernEaster(y), y, 1),
    paschal(1),
  ],
  [["великодній понеділок", "поливаний понеділок"], (y) => shifted(orthodoxEaster(y), y, 1), paschal(1)],
  [
    [
      "ascension",
      "ascension day",
      "jeudi de l ascension",
      "wniebowstapienie",
      "wniebowstapienia panskiego",
      "dia de la ascension",
      "la ascension",
    ],
    (y) => shifted(westernEaster(y), y, 39),
    paschal(39),
  ],
  // Ukraine's Ascension, Trinity and Holy Week follow its (Orthodox) Easter.
  [["вознесіння", "вознесіння господнє"], (y) => shifted(orthodoxEaster(y), y, 39), paschal(39)],
  [
    [
      "pentecost",
      "whit sunday",
      "whitsun",
      "whitsunday",
      "pentecote",
      "dimanche de pentecote",
      "pentecostes",
      "domingo de pentecostes",
      "zielone swiatki",
      "zeslanie ducha swietego",
      "zeslania ducha swietego",
    ],
    (y) => shifted(westernEaster(y), y, 49),
    paschal(49),
  ],
  [
    ["трійця", "трійцю", "трійці", "свята трійця", "зелені свята", "п'ятидесятниця", "п'ятидесятницю"],
    (y) => shifted(orthodoxEaster(y), y, 49),
    paschal(49),
  ],
  [["whit monday", "lundi de pentecote", "lunes de pentecostes"], (y) => shifted(westernEaster(y), y, 50)],
  [
    [
      "corpus christi",
      "dia de corpus",
      "boze cialo",
      "bozego ciala",
      "bozym ciele",
      "fete dieu",
      "fete du saint sacrement",
    ],
    (y) => shifted(westernEaster(y), y, 60),
  ],
  [
    ["good friday", "vendredi saint", "viernes santo", "wielki piatek", "wielkiego piatku"],
    (y) => shifted(westernEaster(y), y, -2),
    paschal(-2),
  ],
  [
    ["страсна п'ятниця", "страсну п'ятницю", "велика п'ятниця", "велику п'ятницю"],
    (y) => shifted(orthodoxEaster(y), y, -2),
    paschal(-2),
  ],
  [
    ["holy saturday", "easter saturday", "samedi saint", "sabado santo", "wielka sobota", "wielkiej soboty"],
    (y) => shifted(westernEaster(y), y, -1),
    paschal(-1),
  ],
  [["велика субота", "велику суботу"], (y) => shifted(orthodoxEaster(y), y, -1), paschal(-1)],
  [
    [
      "maundy thursday",
      "holy thursday",
      "jeudi saint",
      "jueves santo",
      "wielki czwartek",
      "wielkiego czwartku",
    ],
    (y) => shifted(westernEaster(y), y, -3),
    paschal(-3),
  ],
  [["чистий четвер", "чистого четверга"], (y) => shifted(orthodoxEaster(y), y, -3), paschal(-3)],
  [
    [
      "palm sunday",
      "dimanche des rameaux",
      "rameaux",
      "domingo de ramos",
      "niedziela palmowa",
      "niedziele palmowa",
    ],
    (y) => shifted(westernEaster(y), y, -7),
    paschal(-7),
  ],
  [
    ["ash wednesday", "mercredi des cendres", "miercoles de ceniza", "sroda popielcowa", "popielec"],
    (y) => shifted(westernEaster(y), y, -46),
  ],
  [
    ["mardi gras", "shrove tuesday", "pancake day", "martes de carnaval"],
    (y) => shifted(westernEaster(y), y, -47),
  ],
  [["tlusty czwartek"], (y) => shifted(westernEaster(y), y, -52)],
  // Holy Week: from its Sunday (Palm Sunday), the day a trip "for Holy Week" leaves.
  [
    [
      "holy week",
      "semaine sainte",
      "semana santa",
      "wielki tydzien",
      "wielkim tygodniu",
      "wielkiego tygodnia",
    ],
    (y) => shifted(westernEaster(y), y, -7),
    paschal(-7),
  ],
  [
    ["страсний тиждень", "страсного тижня", "страсному тижні"],
    (y) => shifted(orthodoxEaster(y), y, -7),
    paschal(-7),
  ],
  [["thanksgiving", "thanksgiving day"], (y) => thanksgiving(y)],
  [
    ["вербна неділя", "вербну неділю", "вербної неділі"],
    (y) => shifted(orthodoxEaster(y), y, -7),
    paschal(-7),
  ],
  [
    [
      "easter",
      "easter sunday",
      "wielkanoc",
      "wielkanocy",
      "paques",
      "dimanche de paques",
      "pascua",
      "domingo de pascua",
      "domingo de resurreccion",
      "niedziela wielkanocna",
      "swieta wielkanocne",
      "la pascua",
    ],
    (y) => westernEaster(y),
    paschal(0),
  ],
];

// Split as the line is ("jour de l'An": jour, de, l, an; "St Patrick's": st, patrick's).
const HOLIDAY_PHRASES = HOLIDAYS.flatMap(([names, day, calendars]) =>
  names.flatMap((n) => {
    const byLine = tokenize(n).map((t) => t.norm);
    const bySpace = normalise(n).split(/[\s-]+/u);
    return [
      { words: byLine, day, calendars },
      ...(bySpace.join(" ") !== byLine.join(" ") ? [{ words: bySpace, day, calendars }] : []),
    ];
  }),
).sort((a, b) => b.words.length - a.words.length);

/**
 * "Orthodox Easter", "prawosławna Wielkanoc", "католицький Великдень", "Pâques orthodoxe", "Navidad ortodoxa": the
 * word beside a feast's name that says which calendar's day is meant (stems of the normalised words).
 */
const CALENDAR_WORDS: [string, keyof Calendars][] = [
  ...["orthodox", "православн", "prawoslawn", "ortodox", "eastern", "східн", "wschodn", "greek"].map(
    (w) => [w, "orthodox"] as [string, keyof Calendars],
  ),
  ...[
    "catholic",
    "catholiq",
    "католицьк",
    "katolick",
    "catolic",
    "western",
    "західн",
    "zachodn",
    "occidental",
  ].map((w) => [w, "western"] as [string, keyof Calendars]),
];
const calendarOf = (t: Token | undefined): keyof Calendars | null =>
  t && !t.used ? (CALENDAR_WORDS.find(([stem]) => t.norm.startsWith(stem))?.[1] ?? null) : null;

/**
 * Feasts named by a saint whose name is also a place ("para San Juan", "por San José"): the feast only after "on" /
 * "for" and when the line names two other places, so "a San Juan" and "Madrid - San Juan" stay the city.
 */
const PLACE_FEASTS: { words: string[]; day: DayOf }[] = [
  { words: ["san", "juan"], day: fixed(6, 24) },
  { words: ["sant", "joan"], day: fixed(6, 24) },
  { words: ["san", "jose"], day: fixed(3, 19) },
  { words: ["san", "sebastian"], day: fixed(1, 20) },
  { words: ["santiago"], day: fixed(7, 25) },
];

/** Feasts named by their saint alone, in the form the line writes after "on" (на Миколая, na Mikołaja). */
const SAINT_ALONE: Record<string, DayOf> = { миколая: fixed(12, 6), mikolaja: fixed(12, 6) };
/** "on" / "for" before a feast's name. */
const ON_WORDS = new Set(["на", "na", "on", "for", "pour", "para", "po", "por", "en"]);

/** A word of a holiday's name, or an inflected form of it (Wigilię, Sylwestra, Різдво → на Різдво). */
const sameWord = (token: string, word: string) => {
  if (token === word) return true;
  // Valencia is not Valentine: the stem is all of the word but its last two letters.
  const stem = Math.max(5, word.length - 2);
  return word.length >= 6 && token.length >= stem && token.slice(0, stem) === word.slice(0, stem);
};

/** "The eve of", "la veille de", "la víspera de", "напередодні", "w przeddzień": the day before a feast. */
const EVE_WORDS = new Set(["eve", "veille", "vispera", "напередодні", "przeddzien"].map(normalise));
const EVE_FILLERS = new Set(["of", "the", "de", "du", "d", "la", "le", "l", "del", "w"].map(normalise));
/** A feast's weekend ("Easter weekend", "le week-end de Pâques", "великодні вихідні", "weekend majowy" aside). */
const WEEKEND_WORDS = new Set(
  ["weekend", "week", "вихідні", "вихідних", "weekendu", "weekend"].map(normalise),
);

/** The token right before the one starting at `start`. */
const indexBefore = (tokens: readonly Token[], start: number) =>
  tokens.findIndex((t) => t.start === start) - 1;

/** The fourth Thursday of November (US Thanksgiving). */
function thanksgiving(y: number): [number, number] {
  const first = new Date(Date.UTC(y, 10, 1)).getUTCDay();
  return [11, 1 + ((4 - first + 7) % 7) + 21];
}

/** The next day of a holiday on or after the reference day. */
function nextHoliday(day: DayOf, reference: string): string {
  const year = Number(reference.slice(0, 4));
  for (const y of [year, year + 1, year + 2]) {
    const [m, d] = day(y);
    const date = iso(y, m, d);
    if (date >= reference) return date;
  }
  return reference;
}

/**
 * Holidays named in the line, as dates (their words taken). `placesBesides(from, to)` counts the places the line names
 * outside tokens from..to (a feast named by a saint that is also a place is the feast only beside two others).
 */
export function holidayHits(
  tokens: Token[],
  placesBesides: (from: number, to: number) => number = () => 0,
): DateHit[] {
  const hits: DateHit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const feast = PLACE_FEASTS.find((f) =>
      f.words.every((w, k) => tokens[i + k]?.norm === w && !tokens[i + k]?.used),
    );
    const on = tokens[i - 1];
    if (
      feast &&
      on &&
      !on.used &&
      ON_WORDS.has(on.norm) &&
      placesBesides(i, i + feast.words.length - 1) >= 2
    ) {
      for (let k = 0; k < feast.words.length; k++) (tokens[i + k] as Token).used = true;
      const last = tokens[i + feast.words.length - 1] as Token;
      const day = feast.day;
      hits.push({
        start: (tokens[i] as Token).start,
        end: last.end,
        resolve: (reference) => nextHoliday(day, reference),
        anchored: true,
      });
      i += feast.words.length - 1;
      continue;
    }
    // A feast named by its saint alone after "on" ("на Миколая", "na Mikołaja"): that exact form only, so
    // Миколаєва (the city) stays a place.
    const saint = SAINT_ALONE[(tokens[i] as Token).norm];
    const prep = tokens[i - 1];
    if (saint && prep && !prep.used && ON_WORDS.has(prep.norm) && !(tokens[i] as Token).used) {
      (tokens[i] as Token).used = true;
      const t = tokens[i] as Token;
      hits.push({
        start: t.start,
        end: t.end,
        resolve: (reference) => nextHoliday(saint, reference),
        anchored: true,
      });
      continue;
    }
    for (const p of HOLIDAY_PHRASES) {
      if (i + p.words.length > tokens.length) continue;
      if (
        !p.words.every((w, k) => !(tokens[i + k] as Token).used && sameWord((tokens[i + k] as Token).norm, w))
      )
        continue;
      // "the day of" before a holiday name is part of it ("el día de Navidad", "День Незалежності").
      let last = tokens[i + p.words.length - 1] as Token;
      for (let k = 0; k < p.words.length; k++) (tokens[i + k] as Token).used = true;
      let start = (tokens[i] as Token).start;
      // "Orthodox Easter", "Pâques orthodoxe": the calendar word before or after the name chooses the day.
      let day = p.day;
      const calendarBefore = p.calendars ? calendarOf(tokens[i - 1]) : null;
      const calendarAfter = p.calendars && !calendarBefore ? calendarOf(tokens[i + p.words.length]) : null;
      if (p.calendars && (calendarBefore || calendarAfter)) {
        day = p.calendars[(calendarBefore ?? calendarAfter) as keyof Calendars];
        if (calendarBefore) {
          const word = tokens[i - 1] as Token;
          word.used = true;
          start = word.start;
        } else {
          last = tokens[i + p.words.length] as Token;
          last.used = true;
        }
      }
      const before = tokens[indexBefore(tokens, start)];
      const dayWord = before && ["dia", "day", "день", "jour", "dzien"].includes(before.norm) && !before.used;
      if (dayWord) {
        before.used = true;
        start = before.start;
      }
      // "the eve of", "la veille du jour de l'An", "la víspera de Reyes", "напередодні Різдва", "w przeddzień Wigilii":
      // the day before; "Easter weekend", "le week-end de Pâques", "великодні вихідні": the feast's weekend, from its
      // Saturday when the feast is a Sunday.
      {
        let k = indexBefore(tokens, start);
        while (k >= 0 && EVE_FILLERS.has((tokens[k] as Token).norm) && !(tokens[k] as Token).used) k--;
        // "week-end" is two words.
        if (tokens[k]?.norm === "end" && tokens[k - 1]?.norm === "week") k--;
        // "fin de semana" is three.
        const finDe =
          tokens[k]?.norm === "semana" && tokens[k - 1]?.norm === "de" && tokens[k - 2]?.norm === "fin";
        if (finDe) k -= 2;
        const lead = tokens[k];
        const after = tokens[tokens.indexOf(last) + 1];
        const afterWeekend = !!after && !after.used && WEEKEND_WORDS.has(after.norm);
        const shift = lead && !lead.used && EVE_WORDS.has(lead.norm) ? -1 : 0;
        const weekend = afterWeekend || (!!lead && !lead.used && (finDe || WEEKEND_WORDS.has(lead.norm)));
        if (shift !== 0 || weekend) {
          const own = day;
          day = (y) => {
            const [m, d] = own(y);
            const sunday = new Date(Date.UTC(y, m - 1, d)).getUTCDay() === 0;
            return shifted([m, d], y, shift !== 0 ? -1 : sunday ? -1 : 0);
          };
          if (afterWeekend) {
            last = after as Token;
            last.used = true;
          } else if (lead) {
            for (let j = k; j < indexBefore(tokens, start) + 1; j++) (tokens[j] as Token).used = true;
            start = lead.start;
          }
        }
      }
      hits.push({
        start,
        end: last.end,
        resolve: (reference) => nextHoliday(day, reference),
        anchored: true,
      });
      i += p.words.length - 1;
      break;
    }
  }
  return hits;
}

/** Days of the month written in words (cardinals and ordinals, five languages), normalised. */
const DAY_WORDS: Record<string, number> = {};
for (const [n, list] of [
  [1, "first uno primero premier pierwszego pierwszy першого перше"],
  [2, "second dos deux drugiego drugi другого"],
  [3, "third tres trois trzeciego trzeci третього"],
  [4, "fourth cuatro quatre czwartego czwarty четвертого"],
  [5, "fifth cinco cinq piatego piaty п'ятого"],
  [6, "sixth seis six szostego szosty шостого"],
  [7, "seventh siete sept siodmego siodmy сьомого"],
  [8, "eighth ocho huit osmego osmy восьмого"],
  [9, "ninth nueve neuf dziewiatego dziewiaty дев'ятого"],
  [10, "tenth diez dix dziesiatego dziesiaty десятого"],
  [11, "eleventh once onze jedenastego одинадцятого"],
  [12, "twelfth doce douze dwunastego дванадцятого"],
  [13, "thirteenth trece treize trzynastego тринадцятого"],
  [14, "fourteenth catorce quatorze czternastego чотирнадцятого"],
  [15, "fifteenth quince quinze pietnastego п'ятнадцятого"],
  [16, "sixteenth dieciseis seize szesnastego шістнадцятого"],
  [17, "seventeenth diecisiete siedemnastego сімнадцятого"],
  [18, "eighteenth dieciocho osiemnastego вісімнадцятого"],
  [19, "nineteenth diecinueve dziewietnastego дев'ятнадцятого"],
  [20, "twentieth veinte vingt dwudziestego двадцятого"],
  [21, "veintiuno"],
  [22, "veintidos"],
  [23, "veintitres"],
  [24, "veinticuatro"],
  [25, "veinticinco"],
  [26, "veintiseis"],
  [27, "veintisiete"],
  [28, "veintiocho"],
  [29, "veintinueve"],
  [30, "thirtieth treinta trente trzydziestego тридцятого"],
] as const)
  for (const w of list.split(" ")) DAY_WORDS[normalise(w)] = n;

/** Small counts in words, for "in two weeks", "za dwa tygodnie", "dans deux semaines". */
const COUNT_WORDS: Record<string, number> = {};
for (const [n, list] of [
  [1, "one a an один одну один jeden jedna un une una"],
  [2, "two два дві dwa dwie deux dos"],
  [3, "three три trzy trois tres"],
  [4, "four чотири cztery quatre cuatro"],
  [5, "five п'ять piec cinq cinco"],
] as const)
  for (const w of list.split(" ")) COUNT_WORDS[normalise(w)] = n;
const WEEK_WORDS = new Set(
  "week weeks тиждень тижні тижнів tydzien tygodnie tygodni semaine semaines semana semanas"
    .split(" ")
    .map(normalise),
);
const IN_WORDS = new Set(["in", "за", "через", "za", "dans", "en"].map(normalise));

/** The next `m`/`d` on or after the reference day. */
function nextMonthDay(reference: string, m: number, d: number): string | null {
  const year = Number(reference.slice(0, 4));
  for (const y of [year, year + 1]) {
    const t = new Date(Date.UTC(y, m - 1, d));
    if (t.getUTCMonth() !== m - 1) continue;
    const day = iso(y, m, d);
    if (day >= reference) return day;
  }
  return null;
}

/**
 * Dates written in words: "el cinco de enero", "le premier mars", "piętnastego stycznia", "dwudziestego
 * pierwszego grudnia", and "in two weeks" / "za dwa tygodnie".
 */
export function wordDateHits(tokens: Token[], months: Record<string, number>): DateHit[] {
  const hits: DateHit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.used) continue;
    let day = DAY_WORDS[t.norm];
    let k = i + 1;
    if (day !== undefined && (day === 20 || day === 30)) {
      const unit = tokens[k];
      const more = unit && !unit.used ? DAY_WORDS[unit.norm] : undefined;
      if (more !== undefined && more < 10) {
        day += more;
        k++;
      }
    }
    if (day !== undefined) {
      const link = tokens[k];
      if (link && ["de", "of", "du"].includes(link.norm)) k++;
      const month = tokens[k];
      const m = month && !month.used ? months[month.norm] : undefined;
      if (m !== undefined) {
        const d = day;
        for (let j = i; j <= k; j++) (tokens[j] as Token).used = true;
        hits.push({ start: t.start, end: (month as Token).end, resolve: (ref) => nextMonthDay(ref, m, d) });
        i = k;
        continue;
      }
    }
    const count = tokens[i + 1];
    const unit = tokens[i + 2];
    if (IN_WORDS.has(t.norm) && count && unit && !count.used && !unit.used && WEEK_WORDS.has(unit.norm)) {
      const n = COUNT_WORDS[count.norm];
      if (n === undefined) continue;
      for (let j = i; j <= i + 2; j++) (tokens[j] as Token).used = true;
      hits.push({
        start: t.start,
        end: unit.end,
        resolve: (ref) => {
          const r = new Date(`${ref}T00:00:00Z`);
          r.setUTCDate(r.getUTCDate() + 7 * n);
          return r.toISOString().slice(0, 10);
        },
      });
      i += 2;
    }
  }
  return hits;
}

/** Low-cost airlines the sandbox does not sell but agents ask for, with the case endings of Polish and Ukrainian. */
const MORE_CARRIERS: { code: string; name: string; words: string[] }[] = [
  { code: "U2", name: "easyJet", words: ["easyjet"] },
  { code: "W6", name: "Wizz Air", words: ["wizz", "air"] },
  { code: "W6", name: "Wizz Air", words: ["wizzair"] },
  { code: "W6", name: "Wizz Air", words: ["візз", "ейр"] },
  // The short name agents use ("LOT lub Wizz"), after the whole name so that "Wizz Air" takes both words.
  { code: "W6", name: "Wizz Air", words: ["wizz"] },
  { code: "W6", name: "Wizz Air", words: ["візз"] },
  { code: "FR", name: "Ryanair", words: ["ryanair"] },
  { code: "FR", name: "Ryanair", words: ["райанейр"] },
  { code: "VY", name: "Vueling", words: ["vueling"] },
  { code: "HV", name: "Transavia", words: ["transavia"] },
  { code: "DY", name: "Norwegian", words: ["norwegian"] },
  { code: "BT", name: "airBaltic", words: ["airbaltic"] },
  { code: "BT", name: "airBaltic", words: ["air", "baltic"] },
  { code: "EW", name: "Eurowings", words: ["eurowings"] },
  { code: "PC", name: "Pegasus", words: ["pegasus"] },
].map((c) => ({ ...c, words: c.words.map(normalise) }));

/** A carrier not in the sandbox's list, named at token i ("par easyJet", "Wizz Airem albo Ryanairem"). */
export function moreCarrierAt(
  tokens: readonly Token[],
  i: number,
): { code: string; name: string; length: number } | null {
  for (const c of MORE_CARRIERS) {
    const ok = c.words.every((w, k) => {
      const t = tokens[i + k];
      return !!t && !t.used && (t.norm === w || (t.norm.startsWith(w) && t.norm.length - w.length <= 2));
    });
    if (ok) return { code: c.code, name: c.name, length: c.words.length };
  }
  return null;
}

/** Airports by their own names, as people type them, in the five languages (normalised, inflections by prefix). */
const AIRPORT_NAMES: [string, string[]][] = [
  ["LHR", ["heathrow", "хітроу", "гітроу", "хитроу"]],
  ["LGW", ["gatwick", "гатвік", "гетвік"]],
  ["STN", ["stansted", "станстед", "стенстед"]],
  ["LTN", ["luton", "лутон", "лутона"]],
  ["LCY", ["london city"]],
  ["CDG", ["charles de gaulle", "roissy", "cdg", "шарль де голль", "шарля де голля", "руассі"]],
  ["ORY", ["orly", "орлі"]],
  ["BVA", ["beauvais"]],
  ["WAW", ["chopin", "okecie", "okeciu", "okecia", "шопена", "окенце"]],
  ["WMI", ["modlin", "модлін"]],
  ["KRK", ["balice"]],
  ["KTW", ["pyrzowice", "pyrzowic"]],
  ["GDN", ["rebiechowo"]],
  ["KBP", ["boryspil", "борисп", "borysp", "boryspol"]],
  ["IEV", ["zhuliany", "жуляни", "жулян", "zhulyany", "żulany"]],
  ["BCN", ["el prat", "prat"]],
  ["MAD", ["barajas", "барахас"]],
  ["PMI", ["son sant joan"]],
  ["FCO", ["fiumicino", "фьюмічино", "фіумічино"]],
  ["CIA", ["ciampino"]],
  ["MXP", ["malpensa"]],
  ["LIN", ["linate"]],
  ["BGY", ["orio al serio", "bergamo"]],
  ["TLS", ["blagnac"]],
  ["NCE", ["cote d'azur"]],
  ["AMS", ["schiphol", "схіпхол", "шипхол"]],
  ["BRU", ["zaventem"]],
  ["CRL", ["charleroi"]],
  ["FRA", ["frankfurt main"]],
  ["MUC", ["franz josef strauss"]],
  ["BER", ["brandenburg", "schonefeld"]],
  ["VIE", ["schwechat"]],
  ["PRG", ["vaclav havel", "ruzyne"]],
  ["BUD", ["ferenc liszt", "ferihegy"]],
  ["CPH", ["kastrup"]],
  ["ARN", ["arlanda"]],
  ["OSL", ["gardermoen"]],
  ["HEL", ["vantaa"]],
  ["KEF", ["keflavik"]],
  ["IST", ["istanbul airport", "istanbul havalimani"]],
  ["SAW", ["sabiha gokcen", "sabiha"]],
  ["TLV", ["ben gurion", "бен гуріон", "бен-гуріон"]],
  ["JFK", ["kennedy", "jfk", "кеннеді"]],
  ["EWR", ["newark", "ньюарк"]],
  ["LGA", ["laguardia", "la guardia"]],
  ["LIS", ["humberto delgado", "portela"]],
];

const AIRPORT_PHRASES = AIRPORT_NAMES.flatMap(([code, names]) =>
  names.map((n) => ({ words: normalise(n).split(/[\s-]+/u), code })),
).sort((a, b) => b.words.length - a.words.length);

/** An airport named by its own name at token i ("Gatwick", "z Pyrzowic", "Charles de Gaulle"). */
export function airportNamedAt(tokens: readonly Token[], i: number): { place: Place; length: number } | null {
  for (const p of AIRPORT_PHRASES) {
    if (i + p.words.length > tokens.length) continue;
    const ok = p.words.every((w, k) => {
      const t = tokens[i + k] as Token;
      return (
        !t.used &&
        (t.norm === w ||
          (w.length >= 5 && t.norm.length >= w.length - 1 && t.norm.startsWith(w.slice(0, -1))))
      );
    });
    if (!ok) continue;
    const airport = findAirport(p.code);
    if (airport) return { place: { code: airport.code, city: airport.city }, length: p.words.length };
  }
  return null;
}

/** Metropolitan (city) codes: a typed LON or PAR means all of the city's airports, never one of them. */
const CITY_CODES: Record<string, string> = {
  LON: "London",
  PAR: "Paris",
  MIL: "Milan",
  ROM: "Rome",
  NYC: "New York",
  WAS: "Washington",
  CHI: "Chicago",
  STO: "Stockholm",
  MOW: "Moscow",
  TYO: "Tokyo",
  OSA: "Osaka",
  SAO: "São Paulo",
  RIO: "Rio de Janeiro",
  BUE: "Buenos Aires",
  BJS: "Beijing",
  SEL: "Seoul",
  YTO: "Toronto",
  YMQ: "Montreal",
  REK: "Reykjavík",
  BER: "Berlin",
  BUH: "Bucharest",
  IST: "Istanbul",
};

/** A city code typed in capitals (LON, PAR, MIL): the city, as its code. */
export function cityCode(raw: string): Place | null {
  const city = CITY_CODES[raw];
  return city && /^[A-Z]{3}$/.test(raw) ? { code: raw, city } : null;
}

function distance(a: string, b: string): number {
  // One flat row-major table: (a.length + 1) × (b.length + 1).
  const w = b.length + 1;
  const d = new Array<number>((a.length + 1) * w).fill(0);
  const at = (i: number, j: number) => d[i * w + j] ?? 0;
  for (let i = 0; i <= a.length; i++) d[i * w] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      // A swap of two letters (Amstredam) is one typo.
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * w + j] = v;
    }
  return at(a.length, b.length);
}

let forms: { form: string; code: string; city: string }[] | undefined;

/**
 * First letters people swap for one another by ear (Balencia, Kopenhagen, Wenecja-like Venice, Yerevan/Erevan is
 * not one): a misspelt first letter is still one typo when it sounds the same.
 */
const SOUND_ALIKE = ["bv", "ck", "cs", "kq", "vw", "iy", "jy", "sz", "fp", "ие", "иі", "еє", "гх", "гґ"];
const soundAlike = (a: string, b: string) => SOUND_ALIKE.some((p) => p.includes(a) && p.includes(b));

/**
 * A misspelt city name (Lodnon, Barselona, Amstredamu, Будапет): the one city form within a small edit distance
 * (one typo up to 6 letters, two beyond), never when two cities are as near, never for short words.
 */
export function misspeltCity(word: string): { place: Place; corrected: string } | null {
  if (word.length === 4) return swappedCity(word);
  if (word.length < 5) return null;
  forms ??= cityForms().map((f) => ({ ...f, form: normalise(f.form) }));
  const allowed = word.length <= 6 ? 1 : 2;
  let best: { form: string; code: string; city: string; d: number } | null = null;
  let tie = false;
  for (const f of forms) {
    if (Math.abs(f.form.length - word.length) > allowed || f.form.includes(" ")) continue;
    if (f.form[0] !== word[0] && !soundAlike(f.form[0] ?? "", word[0] ?? "")) continue;
    const d = distance(word, f.form);
    if (d === 0) return null;
    if (d > allowed) continue;
    if (!best || d < best.d) {
      best = { ...f, d };
      tie = false;
    } else if (d === best.d && f.code !== best.code) tie = true;
  }
  if (!best || tie) return null;
  return { place: { code: best.code, city: best.city }, corrected: best.city };
}

/**
 * A four-letter word that is a four-letter city's name with two letters after the first swapped (Kiyv, Rgia, Lmia):
 * the one such city, never when two are; any other typo in a word this short is not read as a city.
 */
function swappedCity(word: string): { place: Place; corrected: string } | null {
  forms ??= cityForms().map((f) => ({ ...f, form: normalise(f.form) }));
  const hits = new Map<string, { code: string; city: string }>();
  for (const f of forms) {
    if (f.form.length !== 4 || f.form === word) {
      if (f.form === word) return null;
      continue;
    }
    if (f.form[0] !== word[0]) continue;
    const diff = [1, 2, 3].filter((k) => f.form[k] !== word[k]);
    const [a, b] = diff;
    if (diff.length === 2 && a !== undefined && b === a + 1 && f.form[a] === word[b] && f.form[b] === word[a])
      hits.set(f.code, f);
  }
  const only = hits.size === 1 ? [...hits.values()][0] : undefined;
  return only ? { place: { code: only.code, city: only.city }, corrected: only.city } : null;
}

/** Weekday words (normalised) of the five languages: a weekday beside an explicit date gives way to the date. */
export function isWeekdayHit(text: string, weekdays: Record<string, string>): boolean {
  const words = normalise(text)
    .split(/[^\p{L}']+/u)
    .filter((w) => w.length > 0);
  return words.length > 0 && words.some((w) => w in weekdays) && !/\d/.test(text);
}

/** Words that chain the legs of a journey ("then", "puis", "потім", "potem", "luego"). */
const THEN = new Set(
  ["then", "потім", "далі", "potem", "nastepnie", "puis", "ensuite", "luego", "despues"].map(normalise),
);

/**
 * Several legs in one line (three places or more with two dates or more, or "then" before another leg): a
 * multi-city journey, asked back until multi-city search is there, never read as a wrong round trip.
 */
export function looksMultiCity(tokens: readonly Token[], codes: readonly string[], dates: number): boolean {
  const places = codes.length;
  // A place named twice among four is where one leg ends and the next starts ("Kyiv to Warsaw, Warsaw to Berlin").
  const chained = places >= 4 && new Set(codes).size < places;
  if (chained || (places >= 3 && dates >= 2)) return true;
  return places >= 3 && tokens.some((t) => THEN.has(t.norm));
}
