import { createHash } from "node:crypto";
import {
  type CanonicalEvent,
  type ChainProblem,
  ExportedEvent,
  ExportHeader,
  GENESIS_HASH,
} from "@skyward/contracts/audit";

/**
 * JSON with object keys sorted (by UTF-16 code units) and no whitespace: the same value always gives the same text,
 * whatever order PostgreSQL's jsonb or a JSON Lines file stored its keys in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    // undefined, functions and symbols have no JSON form; events read from jsonb never hold them.
    if (text === undefined) throw new Error(`no canonical JSON for ${typeof value}`);
    return text;
  }
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += `${i > 0 ? "," : ""}${canonicalJson(value[i])}`;
    return `${text}]`;
  }
  // Built in one pass, without an array per entry (issue 26: the chain hashes every event appended, on the app's
  // main thread). sort() with no comparator orders strings by UTF-16 code units.
  const record = value as Record<string, unknown>;
  let text = "{";
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined) continue;
    text += `${first ? "" : ","}${JSON.stringify(key)}:${canonicalJson(v)}`;
    first = false;
  }
  return `${text}}`;
}

/** A link of the chain: the hash of the link before it, a newline, and the event's canonical JSON. */
export function linkHash(prevHash: string, event: CanonicalEvent): string {
  return createHash("sha256")
    .update(`${prevHash}\n${canonicalJson(event)}`)
    .digest("hex");
}

/** The outcome of checking a JSON Lines export offline. */
export interface ExportCheck {
  ok: boolean;
  events: number;
  /** Line number (1 = the header) and what is wrong, for the first line that does not match. */
  problem: { line: number; reason: string; problem?: Partial<ChainProblem> } | null;
}

/**
 * Checks a JSON Lines export with nothing but the file: every event hashes to its link from the link before it,
 * consecutive links follow each other, and an anchor the export carries (or `anchors` kept elsewhere) matches the
 * link at its place.
 */
export function verifyExportLines(
  lines: readonly string[],
  anchors: readonly { seq: number; hash: string }[] = [],
): ExportCheck {
  const fail = (line: number, reason: string, problem?: Partial<ChainProblem>): ExportCheck => ({
    ok: false,
    events: Math.max(0, line - 2),
    problem: { line, reason, ...(problem ? { problem } : {}) },
  });
  const nonEmpty = lines.filter((l, i) => l.trim() !== "" || i < lines.length - 1);
  let header: ExportHeader;
  try {
    header = ExportHeader.parse(JSON.parse(nonEmpty[0] ?? ""));
  } catch {
    return fail(1, "the first line is not an export header");
  }
  const anchorAt = new Map<number, string>();
  for (const a of [...header.anchors, ...anchors]) anchorAt.set(a.seq, a.hash);
  let previous: { seq: number; hash: string } | null = null;
  for (let i = 1; i < nonEmpty.length; i++) {
    const lineNo = i + 1;
    let entry: ExportedEvent;
    try {
      entry = ExportedEvent.parse(JSON.parse(nonEmpty[i] as string));
    } catch {
      return fail(lineNo, "not an exported event");
    }
    const where = {
      seq: entry.seq,
      global_position: entry.event.global_position,
      event_id: entry.event.event_id,
      stream_id: entry.event.stream_id,
    };
    if (entry.seq === 1 && entry.prev_hash !== GENESIS_HASH)
      return fail(lineNo, "the first link does not start from the genesis hash", where);
    if (previous && previous.seq + 1 === entry.seq && previous.hash !== entry.prev_hash)
      return fail(lineNo, "does not follow the link before it", { ...where, kind: "chain_broken" });
    if (previous && entry.seq <= previous.seq)
      return fail(lineNo, "links out of order", { ...where, kind: "chain_broken" });
    const actual = linkHash(entry.prev_hash, entry.event);
    if (actual !== entry.hash)
      return fail(lineNo, "the event does not hash to its link", {
        ...where,
        kind: "edited",
        expected_hash: entry.hash,
        actual_hash: actual,
      });
    const anchored = anchorAt.get(entry.seq);
    if (anchored !== undefined && anchored !== entry.hash)
      return fail(lineNo, "the link disagrees with its anchor", {
        ...where,
        kind: "anchor_mismatch",
        expected_hash: anchored,
        actual_hash: entry.hash,
      });
    previous = { seq: entry.seq, hash: entry.hash };
  }
  return { ok: true, events: nonEmpty.length - 1, problem: null };
}
