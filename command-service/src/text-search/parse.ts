import type { Language } from "@skyward/contracts/ids";
import { PassengerCounts } from "@skyward/contracts/offers";
import {
  type ChipKind,
  ParsedSearch,
  searchOfChips,
  type TextSearchChip,
  type TextSearchResponse,
} from "@skyward/contracts/text-search";
import { addDays, type DateHit, findDates, MONTHS, WEEKDAYS } from "./dates.ts";
import {
  ARTICLES,
  CABINS,
  CARRIER_MARKERS,
  COLLECTIVE_COUNTS,
  DAY_PERIOD_PHRASES,
  DESTINATION_MARKERS,
  DIRECT,
  FOR_WORDS,
  NUMBER_WORDS,
  ORIGIN_MARKERS,
  PASSENGER_FILLERS,
  PASSENGER_NOUNS,
  type PassengerKind,
  RETURN_MARKERS,
  STOPWORDS,
  TRIPS,
  WITH_WORDS,
} from "./lexicon.ts";
import {
  airportByCode,
  carrierByCode,
  carrierNames,
  type Place,
  placeNames,
  stemmedPlace,
} from "./places.ts";
import { clockPeriodAt } from "./times.ts";
import { matchAt, normalise, phraseList, type Token, take, tokenize } from "./tokens.ts";
import {
  airportNamedAt,
  cityCode,
  holidayHits,
  isWeekdayHit,
  looksMultiCity,
  misspeltCity,
  moreCarrierAt,
  wordDateHits,
} from "./understanding.ts";

export interface ParseOptions {
  /** The day relative dates count from (ISO). */
  today: string;
  language?: Language;
}

const cabins = phraseList(CABINS);
const trips = phraseList(TRIPS);
const directs = phraseList(DIRECT);
const dayPeriods = phraseList(DAY_PERIOD_PHRASES);
/** Words that set a carrier aside ("not", "without", "except", без, крім, bez, oprócz, sans, sauf, sin, excepto). */
const NOT_CARRIER = new Set(
  [
    ...["not", "no", "without", "except", "avoid", "avoiding", "excluding"],
    ...["не", "без", "крім", "окрім"],
    ...["nie", "bez", "oprocz", "poza"],
    ...["pas", "sans", "sauf", "hors"],
    ...["sin", "excepto", "salvo", "menos", "ni"],
  ].map(normalise),
);

/** Short carrier names that are also words ("lot" is Polish for a flight): taken only as written or after "with". */
const AMBIGUOUS_CARRIERS = new Set([
  "lot",
  "delta",
  "swiss",
  "british",
  "turkish",
  "austrian",
  "qatar",
  "ita",
  "tap",
  "sas",
  "iberia",
]);
/** "Us" / "we are" before a count of the travellers ("нас двоє", "jest nas troje", "nous sommes deux", "somos tres"). */
const US_WORDS = new Set(["нас", "nas", "sommes", "somos"]);
/** A family, a couple, and who they may be (folded as tokens are): "family of four", "un couple de clients". */
const FAMILY_WORDS = new Set(["family", "famille", "familia", "rodzina", "сім'я", "родина"]);
const FAMILY_LINKS = new Set(["of", "de", "d", "z", "з", "із"]);
const COUPLE_WORDS = new Set(["couple", "pareja", "пара", "пари"]);
const CLIENT_WORDS = new Set([
  "clients",
  "customers",
  "clientes",
  "klientow",
  "клієнтів",
  "passengers",
  "travellers",
  "travelers",
]);

/** What joins two carriers of a line ("PS or LH", "PS або LH", "LO lub LH", "AF ou KL", "IB o VY"). */
const CARRIER_JOINS = new Set([
  "or",
  "and",
  "або",
  "чи",
  "і",
  "та",
  "й",
  "lub",
  "albo",
  "i",
  "oraz",
  "ou",
  "et",
  "o",
  "y",
  "u",
]);

/** What joins the two dates of a range: "4 Feb to 8 Feb", "4.02 - 8.02", "з 4 по 8", "du 4 au 8", "del 4 al 8". */
const RANGE_LINK = /^\s*(?:to|till|until|through|-|–|—|→|до|по|au|à|a|al|hasta|do)\s*$/iu;

/** Words that may stand between a return marker and its date ("back on Sunday", "retour le 15"). */
const DATE_LEADS = new Set([
  "on",
  "the",
  "в",
  "у",
  "на",
  "w",
  "we",
  "le",
  "el",
  "o",
  "a",
  "at",
  "dnia",
  "en",
  "for",
  "pour",
  "para",
  "por",
  "na",
  "au",
  "до",
  "do",
]);

/** Which of the line's words come right before token i, skipping the ones already taken by nothing. */
function previous(tokens: Token[], i: number): Token | undefined {
  return i > 0 ? tokens[i - 1] : undefined;
}

function countOf(t: Token | undefined): number | null {
  if (!t || t.used) return null;
  if (/^\d$/.test(t.norm)) return Number(t.norm);
  return NUMBER_WORDS[t.norm] ?? null;
}

/**
 * The embedded parser: one line in English, Ukrainian, Polish, French or Spanish to a structured search, with the
 * words each part came from. No model and no network; the same line and day always give the same answer.
 */
/** Capitals words that are not places, though some are also airport codes (CEO, VIP). */
const NOT_PLACES = new Set([
  "CEO",
  "CFO",
  "CTO",
  "COO",
  "VIP",
  "PDF",
  "ETA",
  "FYI",
  "USD",
  "EUR",
  "GBP",
  "PLN",
  "UAH",
  "CHF",
  "PNR",
  "API",
  "SMS",
  "TBD",
  "ASAP",
]);

/** Verbs of visiting: the person after them is whom the trip visits, not a traveller. */
const VISIT_WORDS = new Set(
  [
    "visit",
    "visiting",
    "see",
    "seeing",
    "відвідати",
    "провідати",
    "побачити",
    "odwiedzic",
    "odwiedzam",
    "odwiedziny",
    "zobaczyc",
    "voir",
    "visiter",
    "rendre",
    "ver",
    "visitar",
  ].map(normalise),
);

/** A typed code right after (another capitals code: "KBP WAW"). */
const codeNext = (u: Token | undefined) => !!u && /^[A-Z]{3}$/.test(u.raw);

export function parseTextSearch(text: string, options: ParseOptions): Omit<TextSearchResponse, "source"> {
  const tokens = tokenize(text);
  const chips: TextSearchChip[] = [];
  const chip = (kind: ChipKind, value: string, span: { start: number; end: number }, label?: string) =>
    chips.push({ kind, value, ...(label ? { label } : {}), text: text.slice(span.start, span.end), span });
  const indexAt = (offset: number) => tokens.findIndex((t) => t.start === offset);

  // 0. A time of day, before the dates: "tomorrow morning" is a date and a departure window, and chrono would
  // otherwise take the morning as part of the date.
  for (let i = 0; i < tokens.length; i++) {
    const m = matchAt(tokens, i, dayPeriods) ?? clockPeriodAt(tokens, i);
    if (!m) continue;
    const span = take(tokens, i, m.length);
    if (!chips.some((c) => c.kind === "departure_time")) chip("departure_time", m.value, span);
    i += m.length - 1;
  }

  // 1. Dates, and which of them is the return.
  // Named holidays first (issue 25), then the other dates; a weekday beside an explicit date gives way to it.
  // A feast named by a saint that is also a place ("para San Juan") is the feast only beside two other places.
  const placesBesides = (from: number, to: number) => {
    let n = 0;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i] as Token;
      if ((i >= from && i <= to) || t.used || !/^\p{Lu}/u.test(t.raw)) continue;
      const m = matchAt(tokens, i, placeNames());
      const length = m && !m.value.fallback ? m.length : airportNamedAt(tokens, i)?.length;
      if (length !== undefined && i + length - 1 < from) n++;
      else if (length !== undefined && i > to) n++;
      else if (length === undefined && t.norm.length >= 4 && stemmedPlace(t.norm)) n++;
      if (length !== undefined) i += length - 1;
    }
    return n;
  };
  const allHits = [
    ...holidayHits(tokens, placesBesides),
    ...wordDateHits(tokens, MONTHS),
    ...findDates(tokens, text, options.language),
  ].sort((a, b) => a.start - b.start);
  const weekdayOnly = (h: DateHit) => isWeekdayHit(text.slice(h.start, h.end), WEEKDAYS);
  const hits = allHits.filter(
    (h) =>
      !weekdayOnly(h) ||
      !allHits.some(
        (o) =>
          o !== h && !weekdayOnly(o) && (Math.abs(o.start - h.end) <= 4 || Math.abs(h.start - o.end) <= 4),
      ),
  );
  let askBack: NonNullable<TextSearchResponse["ask_back"]> | undefined;
  const roles: { hit: DateHit; role: "departure" | "return"; span: { start: number; end: number } }[] = [];
  let durationDays: number | undefined;
  let durationSpan: { start: number; end: number } | undefined;
  for (const hit of hits) {
    if (hit.durationDays !== undefined) {
      durationDays = hit.durationDays;
      durationSpan = { start: hit.start, end: hit.end };
      continue;
    }
    let span = { start: hit.start, end: hit.end };
    let role: "departure" | "return" = "departure";
    let j = indexAt(hit.start) - 1;
    // A range ("aller-retour du 10 au 17") holds both dates: a return word before it is the trip's, not the range's.
    // A weekday beside the return's date ("back Tuesday 15 December") gave way to the date: it stands between them.
    for (let skipped = 0; j >= 0 && skipped < 3 && !hit.until; skipped++) {
      const t = tokens[j] as Token;
      if (t.used && WEEKDAYS[t.norm]) {
        j--;
        continue;
      }
      if (t.used) break;
      if (RETURN_MARKERS.has(t.norm)) {
        role = "return";
        t.used = true;
        span = { start: t.start, end: hit.end };
        break;
      }
      if (!DATE_LEADS.has(t.norm)) break;
      j--;
    }
    roles.push({ hit, role, span });
  }
  // "… and back, 4 Feb to 8 Feb", "туди й назад 4-8 лютого": a return word before a range of two dates is the trip's;
  // the range's first date is the departure, its second the return.
  for (let k = 0; k + 1 < roles.length; k++) {
    const a = roles[k] as (typeof roles)[number];
    const b = roles[k + 1] as (typeof roles)[number];
    if (
      a.role === "return" &&
      b.role === "departure" &&
      RANGE_LINK.test(text.slice(a.hit.end, b.hit.start))
    ) {
      a.role = "departure";
      b.role = "return";
    }
  }
  let departure: string | null = null;
  let returnDate: string | null = null;
  const firstDeparture = roles.find((r) => r.role === "departure");
  if (firstDeparture) {
    departure = firstDeparture.hit.resolve(options.today);
    if (departure) chip("departure_date", departure, firstDeparture.span);
    if (departure && firstDeparture.hit.until) {
      const until = firstDeparture.hit.until(departure);
      // A range that ends before it starts ("20-10 January", "du 20 au 10 janvier", "з 20 по 10 січня") is asked
      // back, never moved a year on.
      const asWritten = firstDeparture.hit.until(options.today);
      if (asWritten && asWritten < departure)
        askBack = {
          code: "return_before_departure",
          text: `The return (${asWritten}) is before the departure (${departure}): which dates did you mean?`,
        };
      else if (until && until >= departure) {
        returnDate = until;
        chip("return_date", until, firstDeparture.span);
      }
    }
  }
  for (const r of roles) {
    if (r === firstDeparture || returnDate) continue;
    // A return written as a date before the departure ("Jan 8, back Jan 3", "on Christmas Day, back on Christmas
    // Eve") is asked back, never moved a year on; so is a second date before the first without a return word.
    const asWritten = r.hit.resolve(options.today);
    const words = normalise(text.slice(r.hit.start, r.hit.end)).split(/[^\p{L}\p{N}']+/u);
    // Only a date with its month written, or a named day of the calendar (a holiday): "back on the 2nd" or "back
    // Sunday" is the next such day after the departure.
    const explicit =
      r.hit.anchored === true ||
      words.some((w) => w in MONTHS) ||
      /\d{1,2}[./-]\d{1,2}/u.test(text.slice(r.hit.start, r.hit.end));
    if (departure && asWritten && explicit && asWritten < departure) {
      askBack = {
        code: "return_before_departure",
        text: `The return (${asWritten}) is before the departure (${departure}): which dates did you mean?`,
      };
      continue;
    }
    const day = r.hit.resolve(departure ?? options.today);
    // "25 December, Christmas", "el 1 de noviembre, día de Todos los Santos": the departure's day named again, no
    // return word, is no return.
    if (r.role === "departure" && day === departure) continue;
    if (day && (!departure || day >= departure)) {
      returnDate = day;
      chip("return_date", day, r.span);
    }
  }
  if (!returnDate && departure && durationDays !== undefined && durationSpan) {
    returnDate = addDays(departure, durationDays);
    chip("return_date", returnDate, durationSpan);
  }

  // 2. Trip type, direct only, cabin: fixed phrases.
  const phrases = <V>(
    list: { words: string[]; value: V }[],
    onMatch: (value: V, span: { start: number; end: number }) => void,
  ) => {
    for (let i = 0; i < tokens.length; i++) {
      const m = matchAt(tokens, i, list);
      if (m) onMatch(m.value, take(tokens, i, m.length));
    }
  };
  phrases(trips, (value, span) => chip("trip", value, span));
  phrases(directs, (_value, span) => chip("direct", "true", span));
  phrases(cabins, (value, span) => chip("cabin", value, span));
  // The departure-time filter narrows every flight of a result, the return's too: on a round trip a time of day
  // ("Friday morning, back Sunday evening") cannot be said by it, so its words are reported, not applied.
  // The window stays when the line says it once for the whole trip ("4 - 11 January afternoon", "aller-retour du 4
  // au 11 l'après-midi"); it is dropped when the return is said on its own ("Friday morning, back Sunday").
  const period = chips.findIndex((c) => c.kind === "departure_time");
  const returnSaidApart = roles.some((r) => r.role === "return");
  if (period >= 0 && returnSaidApart) {
    const span = (chips[period] as TextSearchChip).span;
    chips.splice(period, 1);
    if (span) for (const t of tokens) if (t.start >= span.start && t.end <= span.end) t.used = false;
  }

  // 3. Passengers: "two adults", "a child", "з дитиною", "2 osoby", "pour deux".
  const counts: Partial<Record<PassengerKind, { n: number; span: { start: number; end: number } }>> = {};
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    const kind = t.used ? undefined : PASSENGER_NOUNS[t.norm];
    if (!kind) continue;
    // "to see my mother", "odwiedzić mamę", "para ver a mi madre": the one visited does not fly.
    if (kind === "companions" && tokens.slice(Math.max(0, i - 4), i).some((u) => VISIT_WORDS.has(u.norm)))
      continue;
    let j = i - 1;
    while (j >= 0 && PASSENGER_FILLERS.has((tokens[j] as Token).norm) && !(tokens[j] as Token).used) j--;
    // "2 osoby dorosłe", "deux personnes adultes": the adult word describes the people counted right before it.
    const people = counts.people;
    if (
      kind === "adults" &&
      people &&
      !counts.adults &&
      /^[\s,]*$/u.test(text.slice(people.span.end, t.start))
    ) {
      counts.adults = { n: people.n, span: { start: people.span.start, end: take(tokens, i, 1).end } };
      delete counts.people;
      continue;
    }
    const before = tokens[j];
    let n = countOf(before);
    let from = i;
    if (n !== null && before) {
      // An article is one child ("a child"), never one group of adults ("a adults" is not a thing people type).
      if (ARTICLES.has(before.norm) && kind !== "children" && kind !== "infants") n = null;
      else from = j;
    }
    if (n === null && before && !before.used && WITH_WORDS.has(before.norm)) {
      from = j;
      n = 1;
    }
    const span = take(tokens, from, i - from + 1);
    const prior = counts[kind];
    counts[kind] = {
      n: (prior?.n ?? 0) + (n ?? 1),
      span: prior ? { start: prior.span.start, end: span.end } : span,
    };
  }
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i] as Token;
    const n = countOf(tokens[i + 1]);
    if (t.used || !FOR_WORDS.has(t.norm) || n === null || n < 1 || counts.people || counts.adults) continue;
    const next = tokens[i + 2];
    if (next && !next.used && /^\d+$/.test(next.norm)) continue;
    // "pour un couple", "for a family of four": the article is no count.
    if (next && (COUPLE_WORDS.has(next.norm) || FAMILY_WORDS.has(next.norm))) continue;
    counts.people = { n, span: take(tokens, i, 2) };
  }
  // "…, двоє", "we dwoje", "удвох": a collective number standing alone counts the travellers; so does a count of "us"
  // ("two of us", "нас троє", "nous sommes deux", "somos tres", "jest nas czworo").
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.used || counts.people || counts.adults) continue;
    const n = COLLECTIVE_COUNTS.get(t.norm);
    if (n !== undefined) {
      counts.people = { n, span: take(tokens, i, 1) };
      continue;
    }
    const next = tokens[i + 1];
    const count = countOf(t);
    // "family of four", "famille de cinq", "rodzina 4 osób", "сім'я з чотирьох": the family is the travellers.
    if (FAMILY_WORDS.has(t.norm)) {
      const k = next && FAMILY_LINKS.has(next.norm) ? i + 2 : i + 1;
      const n = countOf(tokens[k]);
      const counted = tokens[k];
      if (n !== null && n > 1 && counted && !counted.used && !/^\s?\+/u.test(text.slice(counted.end))) {
        counts.people = { n, span: take(tokens, i, k - i + 1) };
        continue;
      }
    }
    // "a couple", "pour un couple de clients", "una pareja", "для пари": two travellers (not "a couple of days").
    if (
      COUPLE_WORDS.has(t.norm) &&
      (ARTICLES.has(tokens[i - 1]?.norm ?? "") || FOR_WORDS.has(tokens[i - 1]?.norm ?? ""))
    ) {
      const of = next && FAMILY_LINKS.has(next.norm);
      if (!of || CLIENT_WORDS.has(tokens[i + 2]?.norm ?? "")) {
        counts.people = { n: 2, span: take(tokens, i, of ? 3 : 1) };
        continue;
      }
    }
    if (count !== null && count > 1 && next?.norm === "of" && tokens[i + 2]?.norm === "us")
      counts.people = { n: count, span: take(tokens, i, 3) };
    else if (US_WORDS.has(t.norm) && countOf(next) !== null && (countOf(next) ?? 0) > 1)
      counts.people = { n: countOf(next) ?? 1, span: take(tokens, i, 2) };
    // "…, à deux" at the end of the line or of its part (not "à deux heures", "à deux escales").
    else if (
      t.norm === "a" &&
      next &&
      !/^\d+$/u.test(next.norm) &&
      (countOf(next) ?? 0) > 1 &&
      /^\s*(?:[,;.!]|$)/u.test(text.slice(next.end))
    )
      counts.people = { n: countOf(next) ?? 1, span: take(tokens, i, 2) };
  }
  // "2+2", "2 + 1 + 1": adults, children (and infants) as travel agents write a family.
  if (!counts.adults && !counts.people && !counts.children) {
    const plus = /(?<![\d.,/:+-])([1-9])\s?\+\s?(\d)(?:\s?\+\s?(\d))?(?![\d.,/:+])/u.exec(text);
    const at = plus ? tokens.findIndex((t) => t.start === plus.index && !t.used) : -1;
    if (plus && at >= 0) {
      const parts = plus.slice(1).filter((x) => x !== undefined).length;
      const span = take(tokens, at, parts);
      counts.adults = { n: Number(plus[1]), span };
      if (Number(plus[2]) > 0) counts.children = { n: Number(plus[2]), span };
      if (plus[3] !== undefined && Number(plus[3]) > 0) counts.infants = { n: Number(plus[3]), span };
    }
  }
  let adults = counts.adults;
  // "with my wife": the one who speaks travels too.
  if (!adults && !counts.people && counts.companions)
    adults = { n: counts.companions.n + 1, span: counts.companions.span };
  if (!adults && counts.people) {
    const others = (counts.children?.n ?? 0) + (counts.infants?.n ?? 0);
    adults = {
      ...counts.people,
      n: counts.people.n - others >= 1 ? counts.people.n - others : counts.people.n,
    };
  }
  const passengerChips: TextSearchChip[] = [];
  const passengerChip = (
    kind: "adults" | "children" | "infants",
    c: { n: number; span: { start: number; end: number } },
  ) =>
    passengerChips.push({
      kind,
      value: String(c.n),
      text: text.slice(c.span.start, c.span.end),
      span: c.span,
    });
  if (adults) passengerChip("adults", adults);
  if (counts.children) passengerChip("children", counts.children);
  if (counts.infants) passengerChip("infants", counts.infants);
  {
    const folded = searchOfChips(passengerChips).passengers;
    // An infant sits on an adult's lap: "a mother with two babies" is two adults' worth, said or not.
    if (!adults && folded.infants > folded.adults) {
      folded.adults = folded.infants;
      passengerChips.unshift({ kind: "adults", value: String(folded.adults), text: "", span: null });
    }
    if (PassengerCounts.safeParse(folded).success) chips.push(...passengerChips);
    else
      for (const c of passengerChips)
        if (c.span)
          for (const t of tokens) if (t.start >= c.span.start && t.end <= c.span.end) t.used = false;
  }

  // 4. Preferred carrier: its name, or its code after "with"/"airline".
  const carriers = carrierNames();
  let lastCarrier = -1;
  for (let i = 0; i < tokens.length; i++) {
    const m = matchAt(tokens, i, carriers);
    const before = previous(tokens, i);
    const marked = before !== undefined && !before.used && CARRIER_MARKERS.has(before.norm);
    if (m) {
      const t = tokens[i] as Token;
      if (m.length === 1 && AMBIGUOUS_CARRIERS.has(t.norm) && !marked && !/^\p{Lu}/u.test(t.raw)) continue;
      if (m.length === 1 && t.norm === "lot" && !marked && t.raw !== "LOT") continue;
      const from = marked ? i - 1 : i;
      // "not Ryanair", "без Wizz Air", "bez Ryanaira", "sauf Ryanair", "sin Vueling": a carrier set aside is no
      // preference (its words are used, read as nothing else).
      const negation = previous(tokens, from);
      if (negation && !negation.used && NOT_CARRIER.has(negation.norm)) {
        take(tokens, from - 1, i - from + m.length + 1);
        i += m.length - 1;
        continue;
      }
      chip("carrier", m.value.code, take(tokens, from, i - from + m.length), m.value.name);
      i += m.length - 1;
      lastCarrier = i;
      continue;
    }
    const t = tokens[i] as Token;
    const more = moreCarrierAt(tokens, i);
    if (more) {
      const from = marked ? i - 1 : i;
      const negation = previous(tokens, from);
      if (negation && !negation.used && NOT_CARRIER.has(negation.norm)) {
        take(tokens, from - 1, i - from + more.length + 1);
        i += more.length - 1;
        continue;
      }
      chip("carrier", more.code, take(tokens, from, i - from + more.length), more.name);
      i += more.length - 1;
      lastCarrier = i;
      continue;
    }
    if (marked && !t.used && /^[A-Z0-9]{2}$/.test(t.raw)) {
      const carrier = carrierByCode(t.raw);
      if (carrier) {
        chip("carrier", carrier.code, take(tokens, i - 1, 2), carrier.name);
        lastCarrier = i;
      }
      continue;
    }
    // "рейсом PS або LH", "with LO or LH", "z LOT-em lub LH": a code joined to the carrier just read is one too.
    const joined =
      lastCarrier >= 0 &&
      ((i === lastCarrier + 1 &&
        /^\s*[,/]\s*$/u.test(text.slice((tokens[lastCarrier] as Token).end, t.start))) ||
        (i === lastCarrier + 2 && CARRIER_JOINS.has((tokens[i - 1] as Token).norm)));
    if (joined && !t.used && /^[A-Z0-9]{2}$/.test(t.raw)) {
      const carrier = carrierByCode(t.raw);
      if (carrier) {
        chip("carrier", carrier.code, take(tokens, i - 1, 2), carrier.name);
        lastCarrier = i;
      }
    }
  }

  // 5. Places: a city in any of the languages, or an airport code; "from"/"to" words say which end it is.
  const found: {
    place: Place;
    role: "origin" | "destination" | null;
    span: { start: number; end: number };
    /** A code typed in lower case, or a capitals word not near a route: a place only where nothing else is. */
    weak?: true;
  }[] = [];
  const names = placeNames();
  const corrections: { from: string; to: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.used) continue;
    const before = previous(tokens, i);
    const marker =
      before && !before.used
        ? ORIGIN_MARKERS.has(before.norm)
          ? "origin"
          : DESTINATION_MARKERS.has(before.norm)
            ? "destination"
            : null
        : null;
    let place: Place | null = null;
    let length = 1;
    let weak = false;
    const m = matchAt(tokens, i, names);
    const airport = airportNamedAt(tokens, i);
    // A city code typed in capitals (NYC, LON, PAR) means the whole city, before any one airport's name for it.
    const metro = /^[A-Z]{3}$/.test(t.raw) ? cityCode(t.raw) : null;
    if (metro) place = metro;
    else if (airport) {
      place = airport.place;
      length = airport.length;
    } else if (m && (!m.value.fallback || marker || /^\p{Lu}/u.test(t.raw))) {
      place = m.value;
      length = m.length;
    } else if (/^[A-Z]{3}$/.test(t.raw) && !NOT_PLACES.has(t.raw)) {
      place = airportByCode(t.raw);
      // A code in capitals away from any route word or dash ("… for our CEO, Munich to Zurich") is weak.
      const dashNear = (u: Token | undefined, v: Token | undefined) =>
        !!u && !!v && /^\s*[-–—→>/]+\s*$/u.test(text.slice(u.end, v.start));
      weak =
        !marker &&
        !dashNear(t, tokens[i + 1]) &&
        !dashNear(tokens[i - 1], t) &&
        !codeNext(tokens[i + 1]) &&
        !codeNext(tokens[i - 1]);
    } else if ((marker || /^\p{Lu}\p{Ll}/u.test(t.raw)) && t.norm.length >= 4) {
      place = stemmedPlace(t.norm);
      // Read by its stem, but a letter off a known name (Lisbone): the correction is said too.
      const near = place ? misspeltCity(t.norm) : null;
      if (near && near.place.code === place?.code) corrections.push({ from: t.raw, to: near.corrected });
    } else if (/^[a-z]{3}$/.test(t.raw) && !STOPWORDS.has(t.norm) && !(t.norm in NUMBER_WORDS)) {
      // A code typed in lower case counts after "from"/"to" or beside another one ("kbp waw").
      const codeLike = (u: Token | undefined) =>
        u !== undefined && /^[a-z]{3}$/i.test(u.raw) && airportByCode(u.raw) !== null;
      if (marker || codeLike(tokens[i + 1]) || codeLike(before)) place = airportByCode(t.raw);
      // "para ver el mar": a lower-case word that is also a code counts only where no other place is named.
      weak = place !== null;
    }
    if (!place && (marker || /^\p{Lu}/u.test(t.raw))) {
      // A misspelt city (Lodnon, Barselona): the nearest one, and the correction said.
      const fix = misspeltCity(t.norm);
      if (fix) {
        place = fix.place;
        corrections.push({ from: t.raw, to: fix.corrected });
        // A word in lower case a letter or two off a city ("na majówkę") gives way to the places the line names.
        if (!/^\p{Lu}/u.test(t.raw)) weak = true;
      }
    }
    if (!place) continue;
    // "London Heathrow": the airport of the city just named is one place, not two.
    const prior = found.at(-1);
    if (
      airport &&
      prior &&
      prior.place.city === place.city &&
      /^\s*$/u.test(text.slice(prior.span.end, t.start))
    ) {
      found.pop();
      found.push({
        place,
        role: prior.role,
        span: { start: prior.span.start, end: take(tokens, i, length).end },
      });
      i += length - 1;
      continue;
    }
    const from = marker ? i - 1 : i;
    found.push({
      place,
      role: marker,
      span: take(tokens, from, i - from + length),
      ...(weak ? { weak } : {}),
    });
    i += length - 1;
  }
  // Weak places give way when the line names enough others: their words go back to the unread ones.
  const strong = found.filter((f) => !f.weak);
  if (strong.length >= 2)
    for (const f of found.filter((x) => x.weak)) {
      for (const t of tokens) if (t.start >= f.span.start && t.end <= f.span.end) t.used = false;
      found.splice(found.indexOf(f), 1);
    }
  const origin = found.find((f) => f.role === "origin");
  const destination = found.find((f) => f.role === "destination");
  const unmarked = found.filter((f) => f.role === null);
  const ends: { origin?: (typeof found)[number]; destination?: (typeof found)[number] } = {
    origin,
    destination,
  };
  for (const f of unmarked) {
    if (!ends.origin) ends.origin = f;
    else if (!ends.destination) ends.destination = f;
  }
  if (ends.origin) chip("origin", ends.origin.place.code, ends.origin.span, ends.origin.place.city);
  if (ends.destination && ends.destination.place.code !== ends.origin?.place.code)
    chip("destination", ends.destination.place.code, ends.destination.span, ends.destination.place.city);
  for (const f of found) {
    if (f === ends.origin || f === ends.destination) continue;
    for (const t of tokens) if (t.start >= f.span.start && t.end <= f.span.end) t.used = false;
  }

  const unrecognised = tokens
    .filter(
      (t) =>
        !t.used && !STOPWORDS.has(t.norm) && !ORIGIN_MARKERS.has(t.norm) && !DESTINATION_MARKERS.has(t.norm),
    )
    .map((t) => t.raw);
  chips.sort((a, b) => (a.span?.start ?? -1) - (b.span?.start ?? -1));
  // Several legs: asked back until multi-city search reads them, never turned into a wrong round trip.
  if (
    !askBack &&
    looksMultiCity(
      tokens,
      found.map((f) => f.place.code),
      hits.length,
    )
  )
    askBack = {
      code: "multi_city",
      text: "This looks like several flights in a row: search each leg on its own (multi-city search is not there yet)",
    };
  const used = corrections.filter((c) => chips.some((x) => x.text.includes(c.from)));
  return {
    search: ParsedSearch.parse(searchOfChips(chips)),
    chips,
    unrecognised,
    ...(used.length > 0 ? { corrections: used } : {}),
    ...(askBack ? { ask_back: askBack } : {}),
  };
}
