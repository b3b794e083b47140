/** A word of the line: as typed, normalised for matching, where it stands, and whether a rule has taken it. */
export interface Token {
  raw: string;
  norm: string;
  start: number;
  end: number;
  used: boolean;
}

/** Lower case, no accents (ł too), one apostrophe: "Kraków", "krakow" and "KRAKÓW" read the same. */
export function normalise(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/ł/g, "l")
    .replace(/[’ʼ`´]/g, "'")
    .normalize("NFC");
}

const WORD = /[\p{L}\p{N}]+(?:['’ʼ][\p{L}\p{N}]+)*/gu;
const ELISION = /^(d|l|qu|jusqu)['’ʼ](?=\p{L})/iu;

/** Words and numbers, split at hyphens and punctuation; French elisions (d'Amsterdam) become two words. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    let raw = m[0];
    let start = m.index;
    const elided = ELISION.exec(raw);
    if (elided) {
      const head = elided[0];
      tokens.push({
        raw: head,
        norm: normalise(head.slice(0, -1)),
        start,
        end: start + head.length,
        used: false,
      });
      raw = raw.slice(head.length);
      start += head.length;
    }
    tokens.push({ raw, norm: normalise(raw), start, end: start + raw.length, used: false });
  }
  return tokens;
}

/** A phrase as the normalised words it is matched by. */
export const phraseWords = (phrase: string): string[] => tokenize(phrase).map((t) => t.norm);

/** The words of several phrases, longest first (so "first class" wins over "first"). */
export function phraseList<V>(entries: readonly (readonly [string, V])[]): { words: string[]; value: V }[] {
  return entries
    .map(([phrase, value]) => ({ words: phraseWords(phrase), value }))
    .sort((a, b) => b.words.length - a.words.length);
}

/** The phrase (of unused words) starting at token i, if any. */
export function matchAt<V>(
  tokens: Token[],
  i: number,
  phrases: { words: string[]; value: V }[],
): { value: V; length: number } | null {
  for (const p of phrases) {
    if (i + p.words.length > tokens.length) continue;
    let ok = true;
    for (let k = 0; k < p.words.length; k++) {
      const t = tokens[i + k] as Token;
      if (t.used || t.norm !== p.words[k]) {
        ok = false;
        break;
      }
    }
    if (ok) return { value: p.value, length: p.words.length };
  }
  return null;
}

/** Marks tokens i..i+length-1 taken and returns the span they cover. */
export function take(tokens: Token[], i: number, length: number): { start: number; end: number } {
  for (let k = i; k < i + length; k++) (tokens[k] as Token).used = true;
  return { start: (tokens[i] as Token).start, end: (tokens[i + length - 1] as Token).end };
}
