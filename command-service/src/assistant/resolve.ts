import type { EntityKind } from "@skyward/contracts/assistant-catalogue";
import type { Directory, Entity } from "./directory.ts";
import { fold, foldedTokens, tokenMatches } from "./text.ts";

export type Resolution =
  | { kind: "one"; entity: Entity }
  | { kind: "many"; candidates: Entity[] }
  | { kind: "none" };

/** Do the words `ref` (folded) name the start of `name` (folded tokens), allowing inflections and typos? */
function prefixOf(ref: readonly string[], name: readonly string[]): boolean {
  if (ref.length === 0 || ref.length > name.length) return false;
  return ref.every((w, i) => tokenMatches(w, name[i] as string));
}

/** Does the whole name appear, word by word, somewhere in `ref` (a model may send "the company X")? */
function containedIn(name: readonly string[], ref: readonly string[]): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i + name.length <= ref.length; i++)
    if (name.every((w, j) => tokenMatches(ref[i + j] as string, w))) return true;
  return false;
}

/**
 * An id or a name of an entity of `kind`, resolved against what the caller may see: its id, else its exact name
 * (accents and case aside), else names it starts or that it contains; a partner's name for a company or channel
 * means that partner's ones. Two or more left over are a question back, never a guess.
 */
export function resolveRef(dir: Directory, kind: EntityKind, ref: string): Resolution {
  const pool = dir.entities.filter((e) => e.kind === kind);
  const byId = pool.find((e) => e.id === ref);
  if (byId) return { kind: "one", entity: byId };
  const folded = foldedTokens(ref);
  const exact = pool.filter((e) => fold(e.tokens.join(" ")) === folded.join(" "));
  const found = exact.length > 0 ? exact : pool.filter((e) => prefixOf(folded, e.tokens));
  let candidates = found.length > 0 ? found : pool.filter((e) => containedIn(e.tokens, folded));
  if (candidates.length === 0 && kind !== "agency") {
    const agency = resolveRef(dir, "agency", ref);
    if (agency.kind === "one") candidates = pool.filter((e) => e.agency_id === agency.entity.id);
  }
  // One name contained in another (Dnipro Travel Kyiv, Dnipro Travel Kyiv Airport): the longest one named wins.
  if (candidates.length > 1 && found.length === 0) {
    const longest = Math.max(...candidates.map((c) => c.tokens.length));
    candidates = candidates.filter((c) => c.tokens.length === longest);
  }
  if (candidates.length === 1) return { kind: "one", entity: candidates[0] as Entity };
  if (candidates.length === 0) return { kind: "none" };
  return { kind: "many", candidates };
}
