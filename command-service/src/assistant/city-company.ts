import type { Directory, Entity } from "./directory.ts";
import { cityOf, foldedTokens, type Token } from "./text.ts";

/**
 * A company named by its city (issue 25): "the Lviv office", "la société de Kyiv", "львівської компанії", "Lviv
 * company (dnipro)". The demo world has one company per city per partner, so a city names a company only when
 * exactly one company the caller sees (of the partner named, if one is) is in that city, and the city stands apart from
 * every name nothing matched ("Vistula Varsovie", "Lviv Express" are asked back). Shared by the parser and the safety checks.
 */

/** A place a request names a company by its city: the city's token and the one company it names. */
export interface CityMention {
  /** The first token naming it (the partner's first word before the city: "Dnipro Kyiv"), and the city's. */
  start: number;
  index: number;
  entity: Entity;
}

/** A span the way the parser groups mentions (structural, to keep this file free of the parser's imports). */
interface SpanLike {
  start: number;
  end: number;
  best: readonly { entity: Entity; full: boolean; start: number; length: number }[];
}

/** Ukrainian and Polish adjective endings of a city (львівськ|ої, kijowsk|iej, warszawsk|iej). */
const ADJECTIVE = /^(\p{L}{3,}?)(?:ськ|цьк|зьк|sk)\p{L}{0,4}$/u;

/** The city a folded word names, as a noun (Lviv, Львові, Lwów) or an adjective (львівської, kijowskiej), and its stem. */
export function cityOfWord(norm: string): { city: string; stem: string } | undefined {
  const city = cityOf(norm);
  if (city) return { city, stem: norm };
  const m = ADJECTIVE.exec(norm);
  if (!m) return undefined;
  const stem = m[1] as string;
  for (const s of [stem, `${stem}a`, `${stem}а`]) {
    const c = cityOf(s);
    if (c) return { city: c, stem: s };
  }
  return undefined;
}

/** The words of a company's name that are its city (its name's words beyond its partner's name). */
function cityWords(e: Entity): string[] {
  const partner = foldedTokens(e.detail ?? "");
  return e.tokens.filter((w) => !partner.includes(w) && cityOf(w) !== undefined);
}

/** The city as the company's name writes it, an inflection of it, or in Cyrillic (Kyiv, Києві), not translated. */
function writtenAsInName(stem: string, word: string): boolean {
  if (stem === word || /[а-яіїєґ]/u.test(stem)) return true;
  const base = word.replace(/[aeiouy]$/u, "");
  return base.length >= 4 && stem.startsWith(base) && stem.length - word.length <= 3;
}

/**
 * The companies a request names by their city alone (a city word outside every name, not part of an unknown
 * capitalised name like "Lviv Express"): one per city word, only when exactly one company matches.
 */
export function companiesByCity(
  tokens: readonly Token[],
  spans: readonly SpanLike[],
  dir: Directory,
  skip: (i: number) => boolean,
  text: string,
): CityMention[] {
  const out: CityMention[] = [];
  const inSpan = (i: number) => spans.some((s) => i >= s.start && i < s.end);
  // Partners the request mentions (partly or whole).
  const partners = new Set(
    spans.flatMap((s) => s.best.filter((m) => m.entity.kind === "agency").map((m) => m.entity.id)),
  );
  const sentenceStart = (i: number) =>
    i === 0 || /[.!?;:\n]\s*[¡¿]?$/u.test(text.slice(0, (tokens[i] as Token).start));
  const capitalisedOther = (i: number) => {
    const t = tokens[i];
    return !!t && /^\p{Lu}/u.test(t.raw) && !inSpan(i) && !sentenceStart(i);
  };
  tokens.forEach((t, i) => {
    if (inSpan(i) || skip(i)) return;
    const found = cityOfWord(t.norm);
    if (!found) return;
    // "Lviv Express", "Warsaw Center": a city inside a name nothing matched names no company. Only the partner's
    // first word may stand before it, the city written as the company's name writes it ("Dnipro Kyiv"; "Vistula
    // Varsovie" is asked back).
    if (capitalisedOther(i + 1)) return;
    const before = capitalisedOther(i - 1) ? (tokens[i - 1] as Token).norm : undefined;
    if (before !== undefined && !dir.entities.some((e) => e.kind === "agency" && e.tokens[0] === before))
      return;
    const matches = dir.entities.filter((e) => {
      if (e.kind !== "company") return false;
      if (partners.size > 0 && !partners.has(e.agency_id ?? "")) return false;
      // The city as the name writes it, or in another language ("we Lwowie", "Kiev"): a city standing apart from
      // every other name is one place whatever its language.
      if (before !== undefined && foldedTokens(e.detail ?? "")[0] !== before) return false;
      return cityWords(e).some(
        (w) => cityOf(w) === found.city && (before === undefined || writtenAsInName(found.stem, w)),
      );
    });
    if (matches.length === 1)
      out.push({ start: before !== undefined ? i - 1 : i, index: i, entity: matches[0] as Entity });
  });
  return out;
}

/**
 * A company's whole name with its city translated ("Dnipro Travel Lwów" for Dnipro Travel Lviv): named exactly when
 * its other words are its partner's whole name as written, and the city is the same city.
 */
export function translatedCityMention(
  tokens: readonly Token[],
  m: { entity: Entity; start: number; length: number; full: boolean },
): boolean {
  if (!m.full || m.entity.kind !== "company") return false;
  const partner = foldedTokens(m.entity.detail ?? "");
  const city = cityWords(m.entity);
  if (partner.length === 0 || city.length === 0) return false;
  const rest = m.entity.tokens.filter((w) => !city.includes(w));
  if (rest.join(" ") !== partner.join(" ")) return false;
  return m.entity.tokens.every((w, j) => {
    const word = (tokens[m.start + j] as Token | undefined)?.norm ?? "";
    return city.includes(w) ? cityOf(word) === cityOf(w) : word === w;
  });
}
