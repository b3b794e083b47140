import { readFileSync, writeFileSync } from "node:fs";
import { argv } from "node:process";

/**
 * Splits a full evaluation table (issue 25) into a TUNE half and a HELD-BACK half, per language (and, within it,
 * per expected kind), by a seeded shuffle: the same table and seed always give the same halves. The full table and the held-back half are kept
 * outside every git worktree (/work/heldback) until the final scoring; only the tune half is committed.
 *
 *   tsx scripts/ai-eval/split.ts --all=/work/heldback/assistant.all.json --feature=assistant \
 *     --tune=scripts/ai-eval/tables/assistant.tune.json --held=/work/heldback/assistant.held.json
 *
 * then `npx biome format --write` the tune half (and `npx biome format --stdin-file-path=x.json` the held-back one)
 * so that `biome check .` accepts them once committed.
 *
 * A later, independent table takes its own seed (`--seed=skyward-issue-25-v2`), so its halves owe nothing to the
 * first table's split; without `--seed` the first table's seed is used.
 */

export const SPLIT_SEED = "skyward-issue-25";

/** mulberry32 over a string's FNV-1a hash: a small, stable pseudo-random generator. */
function generator(seed: string): () => number {
  let h = 0x811c9dc5;
  for (const ch of seed) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 0x01000193);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The stratum a row is shuffled in: its language and its expected kind, so both halves see every kind. */
const stratum = (r: { language: string; expect?: { kind?: string } }) =>
  `${r.language}/${r.expect?.kind ?? ""}`;

export function splitRows<T extends { id: string; language: string; expect?: { kind?: string } }>(
  rows: readonly T[],
  seed = SPLIT_SEED,
) {
  const tune: T[] = [];
  const held: T[] = [];
  let extraToTune = true;
  for (const key of [...new Set(rows.map(stratum))].toSorted()) {
    const mine = rows.filter((r) => stratum(r) === key);
    const random = generator(`${seed}:${key}`);
    for (let i = mine.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [mine[i], mine[j]] = [mine[j] as T, mine[i] as T];
    }
    // An odd stratum's extra row goes to the tune and the held-back half in turn, so the halves stay even.
    const odd = mine.length % 2 === 1;
    const half = odd && extraToTune ? Math.ceil(mine.length / 2) : Math.floor(mine.length / 2);
    if (odd) extraToTune = !extraToTune;
    tune.push(...mine.slice(0, half));
    held.push(...mine.slice(half));
  }
  const byId = (a: T, b: T) => a.id.localeCompare(b.id);
  return { tune: tune.toSorted(byId), held: held.toSorted(byId) };
}

function arg(name: string, fallback?: string): string {
  const found = argv.find((a) => a.startsWith(`--${name}=`));
  if (!found && fallback !== undefined) return fallback;
  if (!found) throw new Error(`--${name}=… is required`);
  return found.slice(name.length + 3);
}

if (import.meta.url === `file://${argv[1]}`) {
  const feature = arg("feature");
  const seed = arg("seed", SPLIT_SEED);
  const rows = JSON.parse(readFileSync(arg("all"), "utf8")) as { id: string; language: string }[];
  const { tune, held } = splitRows(rows, seed);
  const header = (half: string) => ({
    feature,
    half,
    today: "2026-12-01",
    split: {
      seed,
      rule: "per language and expected kind: seeded Fisher-Yates shuffle, half to tune (odd extras alternate)",
    },
    conventions: "scripts/ai-eval/README.md",
  });
  writeFileSync(arg("tune"), `${JSON.stringify({ ...header("tune"), rows: tune }, null, 1)}\n`);
  writeFileSync(arg("held"), `${JSON.stringify({ ...header("held-back"), rows: held }, null, 1)}\n`);
  console.log(`${feature}: ${tune.length} tune, ${held.length} held back`);
}
