import type pg from "pg";

/**
 * The list's text filter reads the trigram index (`search gin_trgm_ops`), and an index search costs what its most
 * common trigrams cost: every match is confirmed against each trigram's posting list, so a name part that most
 * lines share (measured: "PASSENGER1234/" over a million lines, 2,740 buffers and 93 ms, against 253 buffers and
 * 6 ms for its rare part "1234/") spends nearly all the time on trigrams that select nothing. Here the index is
 * asked for the text's rarest part only, judged on a small sample of the lines, and the whole text is checked on
 * the few lines that part finds.
 */

/** A trigram shared by more than this share of the sampled lines is left to the check, not asked of the index. */
export const COMMON_TRIGRAM_SHARE = 0.05;
/** Below this many sampled lines the sample says nothing: the whole text goes to the index. */
const MIN_SAMPLE = 500;
const SAMPLE_TTL_MS = 10 * 60_000;
const SAMPLE_LINES = 5_000;

/** The trigrams inside the words (letters and digits, as pg_trgm splits them) of an upper-case text. */
function trigramsOf(text: string): Set<string> {
  const found = new Set<string>();
  for (const word of text.split(/[^\p{L}\p{N}]+/u))
    for (let i = 0; i + 3 <= word.length; i++) found.add(word.slice(i, i + 3));
  return found;
}

/** How many sampled lines hold each trigram. */
export interface TrigramSample {
  lines: number;
  counts: Map<string, number>;
}

export function sampleOf(texts: readonly string[]): TrigramSample {
  const counts = new Map<string, number>();
  for (const text of texts) for (const t of trigramsOf(text)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return { lines: texts.length, counts };
}

/**
 * The part of `text` (upper case) the index is asked for: the longest run inside one word whose trigrams are all
 * uncommon in the sample, or null when the whole text is that already (or no part is: then nothing is gained).
 */
export function selectivePart(text: string, sample: TrigramSample): string | null {
  if (sample.lines < MIN_SAMPLE) return null;
  const common = (t: string) => (sample.counts.get(t) ?? 0) / sample.lines > COMMON_TRIGRAM_SHARE;
  let best = "";
  for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
    // Runs of consecutive uncommon trigrams: a run of n trigrams spans n + 2 characters.
    let start = -1;
    for (let i = 0; i <= word.length - 3 + 1; i++) {
      const uncommon = i + 3 <= word.length && !common(word.slice(i, i + 3));
      if (uncommon && start < 0) start = i;
      if (!uncommon && start >= 0) {
        const run = word.slice(start, i + 2);
        if (run.length > best.length) best = run;
        start = -1;
      }
    }
  }
  return best.length >= 3 && best !== text ? best : null;
}

/** Per pool: a sample of the lines' search texts, taken again after SAMPLE_TTL_MS (frequencies drift slowly). */
const samples = new WeakMap<pg.Pool, { at: number; sample: Promise<TrigramSample> }>();

/**
 * The latest 5,000 lines, read off the list's index (read.sales is a view of the projection's live generation, so
 * TABLESAMPLE cannot apply): what is searched is mostly recent, and names and routes change from line to line.
 */
export function trigramSample(pool: pg.Pool, now = Date.now()): Promise<TrigramSample> {
  const kept = samples.get(pool);
  if (kept && now - kept.at < SAMPLE_TTL_MS) return kept.sample;
  const sample = pool
    .query<{ search: string }>(
      `SELECT search FROM read.sales s ORDER BY s.sale_date DESC, s.sold_at DESC, s.id LIMIT ${SAMPLE_LINES}`,
    )
    .then((r) => sampleOf(r.rows.map((row) => row.search)))
    .catch(() => sampleOf([]));
  samples.set(pool, { at: now, sample });
  return sample;
}
