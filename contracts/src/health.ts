import { z } from "zod";
import { ApiError } from "./errors.ts";

/** What a process's readiness probe reports of one projector it runs. */
export const ProjectorReadiness = z.object({
  projection: z.string(),
  /** Whether this process leads it (another process may, while this one stands by). */
  leader: z.boolean(),
  /** Set while its loop is failing and being retried. */
  failing: z.object({ error: z.string(), since: z.iso.datetime(), attempts: z.number().int() }).nullable(),
});
export type ProjectorReadiness = z.infer<typeof ProjectorReadiness>;

export const Readiness = z.object({
  status: z.enum(["ready", "not_ready"]),
  database: z.object({ ok: z.boolean(), latency_ms: z.number().optional(), error: z.string().optional() }),
  /** Whether the database can write: not while its disk is full (commands then answer 503 storage_full). */
  storage: z
    .object({ ok: z.boolean(), error: z.string().optional(), since: z.iso.datetime().optional() })
    .optional(),
  /** How far the database's clock is ahead of this process's (ms); not ok beyond a few seconds (a warning). */
  clock: z.object({ skew_ms: z.number().int(), ok: z.boolean() }).optional(),
  projectors: z.array(ProjectorReadiness),
  /** What an operator should fix that does not make the process unready (clocks that disagree). */
  warnings: z.array(z.string()).optional(),
});
export type Readiness = z.infer<typeof Readiness>;

/** `GET /ready`: 200 with the readiness, or 503 with the error envelope and the readiness as `meta`. */
export const NotReady = z.object({ errors: z.array(ApiError).min(1), meta: Readiness });
export type NotReady = z.infer<typeof NotReady>;
