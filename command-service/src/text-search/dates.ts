import * as chrono from "chrono-node";
import { PASSENGER_NOUNS, RETURN_MARKERS } from "./lexicon.ts";
import { normalise, type Token } from "./tokens.ts";

/**
 * Dates in the line. Own rules first (the same meaning in every language: chrono has no Polish, and its Ukrainian
 * misses "наступної п'ятниці"), then chrono-node's English, Ukrainian, French and Spanish parsers for the rest.
 * Every date is resolved against a reference day, so the same line and day always give the same dates.
 */
export interface DateHit {
  start: number;
  end: number;
  /** The day, counted from a reference (today, or the departure for a return "back Sunday"). */
  resolve(reference: string): string | null;
  /** A range "5-12 December": the second day. */
  until?: (reference: string) => string | null;
  /** "for a week": the return is this many days after the departure. */
  durationDays?: number;
  /** A named day of the calendar (a holiday, a feast): one day of the year, never counted from another date. */
  anchored?: true;
}

export const MONTHS: Record<string, number> = {};
const addMonths = (list: string[][]) =>
  list.forEach((names, i) => {
    for (const n of names) MONTHS[normalise(n)] = i + 1;
  });
addMonths([
  ["january", "jan", "січня", "січень", "stycznia", "styczeń", "janvier", "enero"],
  ["february", "feb", "лютого", "лютий", "lutego", "luty", "février", "febrero"],
  ["march", "mar", "березня", "березень", "marca", "marzec", "mars", "marzo"],
  ["april", "apr", "квітня", "квітень", "kwietnia", "kwiecień", "avril", "abril"],
  ["may", "травня", "травень", "maja", "maj", "mai", "mayo"],
  ["june", "jun", "червня", "червень", "czerwca", "czerwiec", "juin", "junio"],
  ["july", "jul", "липня", "липень", "lipca", "lipiec", "juillet", "julio"],
  ["august", "aug", "серпня", "серпень", "sierpnia", "sierpień", "août", "agosto"],
  [
    "september",
    "sep",
    "sept",
    "вересня",
    "вересень",
    "września",
    "wrzesień",
    "septembre",
    "septiembre",
    "setiembre",
  ],
  ["october", "oct", "жовтня", "жовтень", "października", "październik", "octobre", "octubre"],
  ["november", "nov", "листопада", "листопад", "listopada", "listopad", "novembre", "noviembre"],
  ["december", "dec", "грудня", "грудень", "grudnia", "grudzień", "décembre", "diciembre"],
]);

/** Weekdays as chrono's English reads them; every language's names map here so "next" means the same everywhere. */
export const WEEKDAYS: Record<string, string> = {};
const addWeekdays = (list: [string, string][]) => {
  for (const [en, names] of list) for (const n of names.split(" ")) WEEKDAYS[normalise(n)] = en;
};
addWeekdays([
  ["Monday", "monday mon понеділок понеділка понеділку poniedziałek poniedziałku lundi lunes"],
  ["Tuesday", "tuesday tue tues вівторок вівторка вівторку wtorek wtorku mardi martes"],
  ["Wednesday", "wednesday wed середа середу середи środa środę środy mercredi miércoles"],
  ["Thursday", "thursday thu thurs четвер четверга четверг czwartek czwartku jeudi jueves"],
  ["Friday", "friday fri п'ятниця п'ятницю п'ятниці piątek piątku vendredi viernes"],
  ["Saturday", "saturday sat субота суботу суботи sobota sobotę soboty samedi sábado"],
  ["Sunday", "sunday sun неділя неділю неділі niedziela niedzielę niedzieli dimanche domingo"],
]);
const NEXT = new Set(
  [
    "next",
    "наступний",
    "наступного",
    "наступної",
    "наступну",
    "наступній",
    "наступному",
    "następny",
    "następną",
    "następnym",
    "następnej",
    "przyszły",
    "przyszłą",
    "przyszłym",
    "przyszłej",
    "próximo",
    "próxima",
    "наступних",
    "наступні",
    "przyszły",
    "przyszły",
    "prochain",
    "prochaine",
  ].map(normalise),
);
const NEXT_AFTER = new Set(["prochain", "prochaine"].map(normalise));
/** English weekday abbreviations. */
const EN_SHORT_DAYS = new Set(["mon", "tue", "tues", "wed", "thu", "thurs", "fri", "sat", "sun"]);
/** The weekend in the five languages (its Saturday is the day a weekend trip leaves). */
const WEEKEND_WORDS = new Set(
  ["weekend", "week-end", "вихідних", "вихідні", "weekendu", "weekendzie", "finde", "findesemana"].map(
    normalise,
  ),
);

const RELATIVE: Record<string, number> = {};
for (const [days, list] of [
  [0, "today сьогодні dziś dzisiaj aujourd'hui hoy"],
  [1, "tomorrow tmrw tmr tomorow tommorow tommorrow завтра jutro demain mañana"],
  [2, "післязавтра pojutrze"],
] as const)
  for (const w of list.split(" ")) RELATIVE[normalise(w)] = days;
const RELATIVE_PHRASES: [string[], number][] = [
  [["day", "after", "tomorrow"], 2],
  [["apres", "demain"], 2],
  [["pasado", "manana"], 2],
];

const DAY_UNITS: Record<string, number> = {};
for (const [n, list] of [
  [
    1,
    "day days день дні днів доби dzień dni doba jour jours día días night nights ночі ночей noc noce nocy nuit nuits noche noches",
  ],
  [7, "week weeks тиждень тижні тижнів tydzień tygodnie tygodni semaine semaines semana semanas"],
] as const)
  for (const w of list.split(" ")) DAY_UNITS[normalise(w)] = n;
/** "in 3 days", "за тиждень", "za 3 dni", "dans une semaine", "en 3 días": counted from the reference. */
const IN_WORDS = new Set(["in", "за", "через", "za", "dans", "en"].map(normalise));
/** Two-word "in"s ("dentro de 3 días", "d'ici 3 jours"): the second word and the first. */
const IN_PAIRS: ReadonlyMap<string, string> = new Map([
  ["de", "dentro"],
  ["ici", "d"],
]);
/** "for a week", "на тиждень", "na tydzień", "pour une semaine", "por una semana": the stay. */
const FOR_WORDS = new Set(["for", "на", "na", "pour", "por", "durant", "durante"].map(normalise));
const RANGE_FROM = new Set(["from", "з", "із", "od", "du", "del", "de", "between"].map(normalise));
const RANGE_TO = new Set(
  ["to", "till", "until", "по", "до", "do", "au", "al", "a", "and", "і", "i"].map(normalise),
);

const pad = (n: number) => String(n).padStart(2, "0");
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Day and month without a year: the next such day on or after the reference. */
function nextDayOf(reference: string, m: number, d: number, year?: number): string | null {
  if (year !== undefined) return validDay(year, m, d) ? iso(year, m, d) : null;
  const y = Number(reference.slice(0, 4));
  for (const candidate of [y, y + 1, y + 2, y + 3, y + 4]) {
    if (!validDay(candidate, m, d)) continue;
    const day = iso(candidate, m, d);
    if (day >= reference) return day;
  }
  return null;
}

/** Words between "back" and a bare day ("back on the 12th", "retour le 9", "regreso el 10", "powrót w 10"). */
const BARE_DAY_LEADS = new Set(["on", "the", "le", "el", "на", "w", "dnia"].map(normalise));

/** Words right before a bare day that make it a date ("le 30", "el 30", "el día 30", "dnia 30"). */
const BARE_DAY_ALONE = new Set(["le", "el", "dia", "jour", "dnia", "день"].map(normalise));
/** Words right after a bare day that make it a date ("30-go", "30 числа", "30 de este mes"). */
const DAY_TAILS = new Set(["go", "ego", "го", "ого", "числа", "число", "th"].map(normalise));

/** A day of the month alone: that day in the reference's month, or the next month that has it. */
function nextDayOfMonth(reference: string, d: number): string | null {
  let y = Number(reference.slice(0, 4));
  let m = Number(reference.slice(5, 7));
  for (let k = 0; k < 3; k++) {
    if (validDay(y, m, d) && iso(y, m, d) >= reference) return iso(y, m, d);
    m = m === 12 ? 1 : m + 1;
    if (m === 1) y++;
  }
  return null;
}

const noon = (day: string) => new Date(`${day}T12:00:00Z`);

function chronoDay(result: chrono.ParsedComponents): string {
  return iso(result.get("year") ?? 0, result.get("month") ?? 1, result.get("day") ?? 1);
}

/** A weekday as chrono's English counts it ("Friday", "next Friday") from the reference day. */
function weekday(reference: string, english: string, next: boolean): string | null {
  const [r] = chrono.en.parse(
    `${next ? "next " : ""}${english}`,
    { instant: noon(reference), timezone: 0 },
    { forwardDate: true },
  );
  return r ? chronoDay(r.start) : null;
}

const DAY_NUMBER = /^(\d{1,2})(?:st|nd|rd|th|er|e|eme|o|a|го|ого|е|ої)?$/;
const YEAR = /^(20\d\d)$/;

function dayNumber(token: Token | undefined): number | null {
  if (!token || token.used) return null;
  const m = DAY_NUMBER.exec(token.norm);
  return m ? Number(m[1]) : null;
}

/** Own rules over the words; each taken date marks its words used. */
function ownRules(tokens: Token[], text: string, language?: string): DateHit[] {
  const hits: DateHit[] = [];
  const take = (from: number, to: number) => {
    for (let k = from; k <= to; k++) (tokens[k] as Token).used = true;
    return { start: (tokens[from] as Token).start, end: (tokens[to] as Token).end };
  };
  const between = (a: Token, b: Token) => text.slice(a.end, b.start);
  const num = (t: Token | undefined) => {
    if (!t || t.used) return null;
    if (/^\d{1,3}$/.test(t.norm)) return Number(t.norm);
    if (
      ["a", "an", "une", "una", "un", "один", "одну", "jeden", "jedną", "jedna"]
        .map(normalise)
        .includes(t.norm)
    )
      return 1;
    return null;
  };

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.used) continue;
    const n1 = tokens[i + 1];
    const n2 = tokens[i + 2];

    // ISO 2026-12-05 and day-first 5.12(.2026) / 5/12
    if (/^\d{4}$/.test(t.norm) && n1 && n2 && /^\d{1,2}$/.test(n1.norm) && /^\d{1,2}$/.test(n2.norm)) {
      const y = Number(t.norm);
      const m = Number(n1.norm);
      const d = Number(n2.norm);
      if (between(t, n1) === "-" && between(n1, n2) === "-" && validDay(y, m, d)) {
        const span = take(i, i + 2);
        hits.push({ ...span, resolve: () => iso(y, m, d) });
        continue;
      }
    }
    if (/^\d{1,2}$/.test(t.norm) && n1 && /^\d{1,2}$/.test(n1.norm) && /^[./]$/.test(between(t, n1))) {
      const d = Number(t.norm);
      const m = Number(n1.norm);
      const withYear = n2 && /^\d{2}(\d{2})?$/.test(n2.norm) && /^[./]$/.test(between(n1, n2));
      const y = withYear ? Number(n2.norm.length === 2 ? `20${n2.norm}` : n2.norm) : undefined;
      if (m >= 1 && m <= 12 && d >= 1 && d <= 31) {
        const span = take(i, withYear ? i + 2 : i + 1);
        hits.push({ ...span, resolve: (ref) => nextDayOf(ref, m, d, y) });
        continue;
      }
    }

    // Ranges "5-12 December", "from 5 to 12 December", "du 5 au 12 décembre", "del 5 al 12 de diciembre"
    {
      // "from the 10th to the 17th of January": the articles and "of" are skipped.
      let first = RANGE_FROM.has(t.norm) ? i + 1 : i;
      if (first > i && tokens[first]?.norm === "the") first++;
      const d1 = dayNumber(tokens[first]);
      const sepWord = tokens[first + 1];
      if (d1 !== null && sepWord) {
        const hyphen = /^\s*[-–—]\s*$/.test(between(tokens[first] as Token, sepWord));
        let secondAt = hyphen ? first + 1 : RANGE_TO.has(sepWord.norm) ? first + 2 : -1;
        if (secondAt === first + 2 && tokens[secondAt]?.norm === "the") secondAt++;
        const d2 = secondAt > 0 ? dayNumber(tokens[secondAt]) : null;
        let monthAt = secondAt + 1;
        if (tokens[monthAt]?.norm === "de" || tokens[monthAt]?.norm === "of") monthAt++;
        const month = MONTHS[tokens[monthAt]?.norm ?? ""];
        if (d2 !== null && month && !tokens[monthAt]?.used) {
          let last = monthAt;
          let year: number | undefined;
          const maybeYear = tokens[last + 1]?.norm === "de" ? last + 2 : last + 1;
          if (YEAR.test(tokens[maybeYear]?.norm ?? "")) {
            year = Number(tokens[maybeYear]?.norm);
            last = maybeYear;
          }
          const span = take(first === i ? i : i, last);
          hits.push({
            ...span,
            resolve: (ref) => nextDayOf(ref, month, d1, year),
            until: (ref) => nextDayOf(ref, month, d2, year),
          });
          continue;
        }
      }
    }

    // "5 December", "5 de diciembre", "5th of December", "December 5", optional year
    {
      const d = dayNumber(t);
      let monthAt = i + 1;
      if (tokens[monthAt]?.norm === "de" || tokens[monthAt]?.norm === "of") monthAt++;
      const month = d !== null ? MONTHS[tokens[monthAt]?.norm ?? ""] : undefined;
      if (d !== null && month && !tokens[monthAt]?.used) {
        let last = monthAt;
        let year: number | undefined;
        const maybeYear = tokens[last + 1]?.norm === "de" ? last + 2 : last + 1;
        if (YEAR.test(tokens[maybeYear]?.norm ?? "")) {
          year = Number(tokens[maybeYear]?.norm);
          last = maybeYear;
        }
        const span = take(i, last);
        hits.push({ ...span, resolve: (ref) => nextDayOf(ref, month, d, year) });
        continue;
      }
      const monthFirst = MONTHS[t.norm];
      const d2 = dayNumber(n1);
      if (monthFirst && d2 !== null && t.norm !== "may" && t.norm !== "mar") {
        let last = i + 1;
        let year: number | undefined;
        if (YEAR.test(n2?.norm ?? "")) {
          year = Number(n2?.norm);
          last = i + 2;
        }
        const span = take(i, last);
        hits.push({ ...span, resolve: (ref) => nextDayOf(ref, monthFirst, d2, year) });
        continue;
      }
    }

    // A bare day of the month: "retour le 9", "regreso el 10", "back on the 12th", "on the 5th"
    {
      const d = dayNumber(t);
      const lead = tokens[i - 1];
      const beforeLead = tokens[i - 2];
      const afterReturn =
        (lead && RETURN_MARKERS.has(lead.norm)) ||
        (lead && BARE_DAY_LEADS.has(lead.norm) && beforeLead && RETURN_MARKERS.has(beforeLead.norm));
      const ordinal = /^\d{1,2}(st|nd|rd|th)$/.test(t.norm) && lead?.norm === "the";
      // "le 30", "el día 30", "dnia 30": a day alone after its article or the word "day"; "30-go", "30 числа":
      // a day with its ordinal ending or the word "of the month".
      const dayLead =
        !!lead &&
        !lead.used &&
        /^\d{1,2}$/.test(t.norm) &&
        BARE_DAY_ALONE.has(lead.norm) &&
        !DAY_UNITS[n1?.norm ?? ""];
      const dayTail = !!n1 && !n1.used && /^\d{1,2}$/.test(t.norm) && DAY_TAILS.has(n1.norm);
      // "and back, 2 adults": a count before its passengers is no day.
      const counts = !!n1 && !n1.used && PASSENGER_NOUNS[n1.norm] !== undefined;
      if (
        d !== null &&
        d >= 1 &&
        d <= 31 &&
        (afterReturn || ordinal || dayLead || dayTail) &&
        !DAY_UNITS[n1?.norm ?? ""] &&
        !counts
      ) {
        const from = ordinal
          ? i - 1
          : dayLead && ["dia", "jour", "день", "dzien"].includes(lead.norm)
            ? i - 1
            : i;
        hits.push({ ...take(from, dayTail ? i + 1 : i), resolve: (ref) => nextDayOfMonth(ref, d) });
        continue;
      }
    }

    // Today, tomorrow, the day after
    const phrase = RELATIVE_PHRASES.find(([ws]) =>
      ws.every((w, k) => tokens[i + k]?.norm === w && !tokens[i + k]?.used),
    );
    if (phrase) {
      const days = phrase[1];
      hits.push({ ...take(i, i + phrase[0].length - 1), resolve: (ref) => addDays(ref, days) });
      continue;
    }
    const relative = RELATIVE[t.norm];
    if (relative !== undefined) {
      hits.push({ ...take(i, i), resolve: (ref) => addDays(ref, relative) });
      continue;
    }

    // The weekend ("на вихідних", "w weekend", "ce week-end", "este fin de semana"): its Saturday, next week's after
    // "next" / "наступних" / "przyszły" / "prochain" / "próximo".
    {
      const weekendAt = WEEKEND_WORDS.has(t.norm)
        ? 1
        : t.norm === "week" && n1?.norm === "end"
          ? 2
          : t.norm === "fin" && n1?.norm === "de" && tokens[i + 2]?.norm === "semana"
            ? 3
            : 0;
      if (weekendAt > 0 && !tokens.slice(i, i + weekendAt).some((x) => x.used)) {
        const lead = tokens[i - 1];
        const after = tokens[i + weekendAt];
        const next =
          (!!lead && !lead.used && NEXT.has(lead.norm)) ||
          (!!after && !after.used && (NEXT_AFTER.has(after.norm) || after.norm === "proximo"));
        const from = next && lead && NEXT.has(lead.norm) ? i - 1 : i;
        hits.push({ ...take(from, i + weekendAt - 1), resolve: (ref) => weekday(ref, "Saturday", next) });
        continue;
      }
    }

    // Weekdays: "Friday", "next Friday", "наступної п'ятниці", "w przyszły piątek", "vendredi prochain", "el próximo viernes"
    if (NEXT.has(t.norm) && n1 && !n1.used && WEEKDAYS[n1.norm]) {
      const en = WEEKDAYS[n1.norm] as string;
      hits.push({ ...take(i, i + 1), resolve: (ref) => weekday(ref, en, true) });
      continue;
    }
    // English short weekdays are words elsewhere ("mon fils", "sun" aside): read only in an English line.
    const dayName =
      language && language !== "en" && EN_SHORT_DAYS.has(t.norm) && t.raw === t.norm
        ? undefined
        : WEEKDAYS[t.norm];
    if (dayName) {
      const next = n1 !== undefined && !n1.used && NEXT_AFTER.has(n1.norm);
      hits.push({ ...take(i, next ? i + 1 : i), resolve: (ref) => weekday(ref, dayName, next) });
      continue;
    }

    // "in 3 days", "за тиждень" (from the reference) and "for a week", "на 10 днів" (the stay)
    const before = tokens[i - 1];
    const pairedIn = !!before && !before.used && IN_PAIRS.get(t.norm) === before.norm;
    if ((IN_WORDS.has(t.norm) || pairedIn || FOR_WORDS.has(t.norm)) && n1) {
      const count = num(n1);
      const unitAt = count === null ? i + 1 : i + 2;
      const unit = DAY_UNITS[tokens[unitAt]?.norm ?? ""];
      if (unit && !tokens[unitAt]?.used && (count !== null || unitAt === i + 1)) {
        const days = (count ?? 1) * unit;
        if (days > 0 && days <= 365) {
          const span = take(i, unitAt);
          if (pairedIn) hits.push({ ...take(i - 1, unitAt), resolve: (ref) => addDays(ref, days) });
          else if (IN_WORDS.has(t.norm) && !FOR_WORDS.has(t.norm))
            hits.push({ ...span, resolve: (ref) => addDays(ref, days) });
          else hits.push({ ...span, resolve: () => null, durationDays: days });
        }
      }
    }
  }
  return hits;
}

const LOCALES = { en: chrono.en, ua: chrono.uk, fr: chrono.fr, es: chrono.es } as const;

/** Every date of the line, in the order written. `language` is tried first by chrono. */
export function findDates(tokens: Token[], text: string, language: string | undefined): DateHit[] {
  const hits = ownRules(tokens, text, language);
  const order = [
    ...(language && language in LOCALES ? [language as keyof typeof LOCALES] : []),
    ...(Object.keys(LOCALES) as (keyof typeof LOCALES)[]),
  ];
  for (const locale of new Set(order)) {
    // What the own rules (or another locale) took is blanked, keeping every index where it was.
    const masked = maskUsed(tokens, text);
    const parser = LOCALES[locale];
    for (const r of parser.parse(
      masked,
      { instant: noon("2000-01-01"), timezone: 0 },
      { forwardDate: true },
    )) {
      if (!r.start.isCertain("day") && !r.start.isCertain("weekday")) continue;
      const covered = tokens.filter((t) => t.start < r.index + r.text.length && t.end > r.index);
      if (covered.length === 0 || covered.some((t) => t.used)) continue;
      // Whole words only: English "a M" (a minute) inside "a Múnich" is no date.
      if ((covered[0] as Token).start < r.index || (covered.at(-1) as Token).end > r.index + r.text.length)
        continue;
      // A lone weekday abbreviation in lower case ("el mar" is the sea, not martes; "sol", "dom") is a word.
      if (
        covered.length === 1 &&
        /^\p{Ll}{2,4}$/u.test((covered[0] as Token).raw) &&
        (!WEEKDAYS[(covered[0] as Token).norm] ||
          (!!language && language !== "en" && EN_SHORT_DAYS.has((covered[0] as Token).norm)))
      )
        continue;
      for (const t of covered) t.used = true;
      const phrase = r.text;
      const reparse = (ref: string, which: "start" | "end") => {
        const [again] = parser.parse(phrase, { instant: noon(ref), timezone: 0 }, { forwardDate: true });
        const part = which === "start" ? again?.start : again?.end;
        return part ? chronoDay(part) : null;
      };
      hits.push({
        start: (covered[0] as Token).start,
        end: (covered[covered.length - 1] as Token).end,
        resolve: (ref) => reparse(ref, "start"),
        ...(r.end ? { until: (ref: string) => reparse(ref, "end") } : {}),
      });
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

function maskUsed(tokens: Token[], text: string): string {
  let out = "";
  let at = 0;
  for (const t of tokens) {
    if (!t.used) continue;
    out += text.slice(at, t.start) + " ".repeat(t.end - t.start);
    at = t.end;
  }
  return out + text.slice(at);
}

export { addDays };
