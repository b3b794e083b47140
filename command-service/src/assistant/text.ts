/** Text helpers of the embedded parser: accent- and case-insensitive tokens, fuzzy token equality. */
import { cityForms } from "../text-search/cities.ts";

const FOLD: Record<string, string> = { ł: "l", đ: "d", ø: "o", ß: "ss", æ: "ae", œ: "oe", ı: "i" };

/** Lower case, accents and marks removed (é → e, ł → l, й → и), apostrophes dropped. */
export function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[łđøßæœı]/g, (c) => FOLD[c] ?? c)
    .replace(/['’ʼ`]/g, "");
}

export interface Token {
  /** Folded form. */
  norm: string;
  /** As written. */
  raw: string;
  start: number;
  end: number;
}

/** Words and numbers of a text with their places in it (folding keeps one character per character for matching). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  // Apostrophes split words: French elisions (l'entreprise) are two words, as "Travel's" is "Travel" and "s".
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const raw = m[0];
    tokens.push({ norm: fold(raw), raw, start: m.index ?? 0, end: (m.index ?? 0) + raw.length });
  }
  return tokens;
}

export const foldedTokens = (text: string): string[] => tokenize(text).map((t) => t.norm);

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

let cities: Map<string, string> | undefined;
/** The city a one-word form names in any of the five languages, in any case (Kiev, Kijów, Києва → KBP). */
export function cityOf(word: string): string | undefined {
  if (!cities) {
    const map = new Map<string, string>();
    for (const f of cityForms()) {
      const key = fold(f.form);
      if (!/^[\p{L}]+$/u.test(key)) continue;
      // A form two cities share is no one city's.
      const known = map.get(key);
      map.set(key, known && known !== f.code ? "" : f.code);
    }
    cities = map;
  }
  return cities.get(word) || undefined;
}

/** The same city written in another language or case ("Dnipro Travel Kiev" is "Dnipro Travel Kyiv"). */
export function sameCity(word: string, name: string): boolean {
  const a = cityOf(word);
  return a !== undefined && a === cityOf(name);
}

const UA_LATIN: Record<string, string> = Object.fromEntries(
  "а a|б b|в v|г h|ґ g|д d|е e|є ie|ж zh|з z|и y|і i|ї i|й i|к k|л l|м m|н n|о o|п p|р r|с s|т t|у u|ф f|х kh|ц ts|ч ch|ш sh|щ shch|ь |ю iu|я ia"
    .split("|")
    .map((pair) => [pair[0] as string, pair.slice(2)]),
);
/** A folded Cyrillic word in Latin letters (Ukrainian national system; и also as i, г also as g). */
export function latinForms(word: string): string[] {
  if (!/[а-яіїєґ]/u.test(word)) return [];
  // Folding turned й into и and ї into і: both read as i here.
  const plain = [...word].map((c) => UA_LATIN[c] ?? c).join("");
  const western = [...word].map((c) => (c === "г" ? "g" : c === "и" ? "i" : (UA_LATIN[c] ?? c))).join("");
  return [...new Set([plain, western])];
}

/** A Latin name written in Cyrillic (Олени Коваленко for Olena Kovalenko), compared letter for letter. */
export function sameInLatin(word: string, name: string, same: (a: string, b: string) => boolean): boolean {
  return /^[a-z]+$/u.test(name) && latinForms(word).some((l) => same(l, name));
}

/**
 * A word of the text names a word of an entity's name: equal, an inflected form (Warszawy ~ Warszawa, Vistuli ~
 * Vistula: a long common stem) or one typo in a long word.
 */
export function tokenMatches(word: string, name: string): boolean {
  if (word === name || sameCity(word, name)) return true;
  if (sameInLatin(word, name, tokenMatches)) return true;
  if (word.length < 4 || name.length < 4) return false;
  const prefix = commonPrefix(word, name);
  if (prefix >= 4 && prefix >= Math.max(word.length, name.length) - 2) return true;
  return name.length >= 5 && withinOneEdit(word, name);
}

/** Does any token start with one of the stems (folded)? */
export function hasStem(tokens: readonly string[], stems: readonly string[]): boolean {
  return tokens.some((t) => stems.some((s) => t.startsWith(s)));
}

/** Does the folded text hold one of the phrases (folded, whole words)? */
export function hasPhrase(folded: string, phrases: readonly string[]): boolean {
  const padded = ` ${folded.replace(/[^\p{L}\p{N}%]+/gu, " ")} `;
  return phrases.some((p) => padded.includes(` ${p} `));
}
