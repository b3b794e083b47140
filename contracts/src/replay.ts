import { z } from "zod";

/** Replays of projections side by side from the audit screen (issue 14), run as jobs; see infra/src/audit/replay.ts. */

/** One table of a projection: live generation against the replay, by row count and an order-free checksum. */
export const ReplayTable = z.object({
  table: z.string(),
  live_rows: z.number().int(),
  replay_rows: z.number().int(),
  live_checksum: z.string(),
  replay_checksum: z.string(),
  equal: z.boolean(),
});
export type ReplayTable = z.infer<typeof ReplayTable>;

export const ReplayReport = z.object({
  events: z.number().int(),
  seconds: z.number(),
  agree: z.boolean(),
  /** The generation put in service by a switch run (only when the replay still agreed), else null. */
  switched_to: z.number().int().nullable(),
  tables: z.array(ReplayTable),
});
export type ReplayReport = z.infer<typeof ReplayReport>;

export const ReplayRunStatus = z.enum(["queued", "running", "done", "failed"]);

/** A compare run replays and compares; a switch run (asked on a compare that agreed) does it again and switches. */
export const ReplayRun = z.object({
  id: z.uuid(),
  projection: z.string(),
  kind: z.enum(["compare", "switch"]),
  status: ReplayRunStatus,
  started_by: z.string(),
  done_events: z.number().int(),
  total_events: z.number().int(),
  report: ReplayReport.nullable(),
  error: z.string().nullable(),
  compare_id: z.uuid().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ReplayRun = z.infer<typeof ReplayRun>;

/** POST /audit/replays */
export const ReplayStartRequest = z.object({ projection: z.string().min(1).max(100) });

/** GET /audit/replays: the projections in service, and the latest runs, newest first. */
export const ReplayOverview = z.object({ projections: z.array(z.string()), runs: z.array(ReplayRun) });
export type ReplayOverview = z.infer<typeof ReplayOverview>;
