import { z } from "zod";
import { EventMetadata } from "./metadata.ts";

/** A SHA-256 as 64 lowercase hex digits. */
export const ChainHash = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex digits");
export type ChainHash = z.infer<typeof ChainHash>;

/** The hash before the first event of the chain. */
export const GENESIS_HASH = "0".repeat(64);

const Digits = z.string().regex(/^\d{1,20}$/, "must be a whole number");

/**
 * An event in its canonical form: what the chain hash covers. Big numbers travel as strings so that every JSON
 * reader (and an auditor's own tool) sees them exactly.
 */
export const CanonicalEvent = z.object({
  global_position: Digits,
  transaction_id: Digits,
  stream_id: z.string(),
  stream_position: Digits,
  event_id: z.string(),
  event_type: z.string(),
  /** UTC, microseconds: "2026-11-24T06:36:57.123456Z". */
  recorded_at: z.string(),
  data: z.unknown(),
  metadata: z.unknown(),
});
export type CanonicalEvent = z.infer<typeof CanonicalEvent>;

/** The chain head at a moment: kept outside the database, it proves the chain up to it was not rewritten. */
export const ChainAnchor = z.object({
  seq: z.number().int().nonnegative(),
  transaction_id: Digits,
  global_position: Digits,
  hash: ChainHash,
  anchored_at: z.string(),
});
export type ChainAnchor = z.infer<typeof ChainAnchor>;

export const AnchorList = z.object({ anchors: z.array(ChainAnchor) });
export type AnchorList = z.infer<typeof AnchorList>;

export const ChainProblemKind = z.enum([
  /** The event's row no longer hashes to its link: it was changed. */
  "edited",
  /** A link of the chain names an event that is gone. */
  "deleted",
  /** An event sits inside the chained part of the log with no link: it was slipped in. */
  "inserted",
  /** A link is missing or out of order in the chain itself. */
  "chain_broken",
  /** The recomputed chain disagrees with an anchor: the chain was rewritten before that point. */
  "anchor_mismatch",
]);
export type ChainProblemKind = z.infer<typeof ChainProblemKind>;

export const ChainProblem = z.object({
  kind: ChainProblemKind,
  seq: z.number().int().nullable(),
  global_position: Digits.nullable(),
  transaction_id: Digits.nullable(),
  event_id: z.string().nullable(),
  stream_id: z.string().nullable(),
  stream_position: Digits.nullable(),
  expected_hash: ChainHash.nullable(),
  actual_hash: ChainHash.nullable(),
});
export type ChainProblem = z.infer<typeof ChainProblem>;

export const VerifyReport = z.object({
  ok: z.boolean(),
  /** Links checked, from `from_seq` to `to_seq`. */
  checked: z.number().int().nonnegative(),
  from_seq: z.number().int().nonnegative(),
  to_seq: z.number().int().nonnegative(),
  head: z.object({ seq: z.number().int().nonnegative(), hash: ChainHash }),
  anchors_checked: z.number().int().nonnegative(),
  /** Events appended after the chain head (the chainer has not reached them yet). */
  unchained: z.number().int().nonnegative(),
  /** The first thing that does not match, in global order; null when ok. */
  problem: ChainProblem.nullable(),
});
export type VerifyReport = z.infer<typeof VerifyReport>;

export const VerifyQuery = z.object({
  from_seq: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  to_seq: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type VerifyQuery = z.infer<typeof VerifyQuery>;

/** One line of a JSON Lines export after the header: an event, its link and the link before it. */
export const ExportedEvent = z.object({
  kind: z.literal("event"),
  seq: z.number().int().positive(),
  prev_hash: ChainHash,
  hash: ChainHash,
  event: CanonicalEvent,
});
export type ExportedEvent = z.infer<typeof ExportedEvent>;

/** The first line of an export: what it holds and the anchors known when it was written. */
export const ExportHeader = z.object({
  kind: z.literal("header"),
  format: z.literal("skyward-event-log/1"),
  exported_at: z.string(),
  filter: z.record(z.string(), z.string()),
  head: z.object({ seq: z.number().int().nonnegative(), hash: ChainHash }),
  anchors: z.array(ChainAnchor),
});
export type ExportHeader = z.infer<typeof ExportHeader>;
/** `GET /audit/export` asked for JSON: the export's lines as one document, the header first. */
export const ExportJsonResponse = z.object({ data: z.array(z.union([ExportHeader, ExportedEvent])) });
export type ExportJsonResponse = z.infer<typeof ExportJsonResponse>;

const Text = z.string().min(1).max(200);
const Instant = z.iso.datetime({ offset: true });

/** Filters of the event history (and of an export); any combination, all optional. */
export const HistoryQuery = z.object({
  stream_id: Text.optional(),
  locator: Text.optional(),
  company_id: Text.optional(),
  agency_id: Text.optional(),
  actor_id: Text.optional(),
  trace_id: Text.optional(),
  from: Instant.optional(),
  to: Instant.optional(),
  /** Only links after this one (paging). */
  after_seq: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const HistoryEvent = z.object({
  seq: z.number().int().positive(),
  global_position: Digits,
  stream_id: z.string(),
  stream_position: z.number().int().positive(),
  event_id: z.string(),
  type: z.string(),
  recorded_at: z.string(),
  data: z.unknown(),
  metadata: EventMetadata.partial(),
  /** The acting user's name as the directory has it now (null for the system or a user without one). */
  actor_name: z.string().nullable(),
  hash: ChainHash,
  /**
   * A traveller event's sealed names, read with the traveller's key while it is kept; `erased` (names null) once
   * the key is gone. Absent on every other event. Not part of the chained data.
   */
  traveller: z
    .object({ erased: z.boolean(), first_name: z.string().nullable(), last_name: z.string().nullable() })
    .optional(),
});
export type HistoryEvent = z.infer<typeof HistoryEvent>;

/** `GET /audit/names?q=`: people and companies of the caller's history scope whose names (or e-mails) hold `q`, or
 * whose id it is. */
export const AuditNamesQuery = z.object({ q: z.string().trim().min(1).max(100) });
export type AuditNamesQuery = z.infer<typeof AuditNamesQuery>;

export const AuditNames = z.object({
  people: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
  companies: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AuditNames = z.infer<typeof AuditNames>;

export const HistoryPage = z.object({
  events: z.array(HistoryEvent),
  /** Pass as after_seq for the next page; null at the end. */
  next_after_seq: z.number().int().nullable(),
});
export type HistoryPage = z.infer<typeof HistoryPage>;

/** Time travel: a stream's state folded up to `at`, and optionally compared with the state at `compare`. */
export const AsOfQuery = z.object({
  at: Instant,
  compare: Instant.optional(),
});
export type AsOfQuery = z.infer<typeof AsOfQuery>;

export const AsOfKind = z.enum(["booking", "balance", "channel", "traveller"]);
export type AsOfKind = z.infer<typeof AsOfKind>;

/** One difference between two states: a JSON path and its value before and after (absent = undefined). */
export const StateChange = z.object({
  path: z.string(),
  before: z.unknown(),
  after: z.unknown(),
});
export type StateChange = z.infer<typeof StateChange>;

export const AsOfState = z.object({
  at: z.string(),
  /** The stream position folded to (0 = nothing had happened yet). */
  version: z.number().int().nonnegative(),
  /** The last event folded. */
  last_event: z.object({ type: z.string(), recorded_at: z.string() }).nullable(),
  state: z.unknown(),
});
export type AsOfState = z.infer<typeof AsOfState>;

export const AsOfResponse = z.object({
  kind: AsOfKind,
  id: z.string(),
  stream_id: z.string(),
  as_of: AsOfState,
  compared: AsOfState.nullable(),
  /** From `as_of` to `compared`; empty without a comparison. */
  changes: z.array(StateChange),
});
export type AsOfResponse = z.infer<typeof AsOfResponse>;
