import { z } from "zod";
import { Position } from "./position.ts";

/** One entry of the `{errors: [...]}` envelope every error response uses. */
export const ApiError = z.object({
  status: z.string(),
  code: z.string(),
  title: z.string(),
  detail: z.string().optional(),
  source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).optional(),
  /** What the client may act on instead (the existing traveller a likely duplicate names). */
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export const ErrorEnvelope = z.object({
  errors: z.array(ApiError).min(1),
  /** Set when the refused operation still wrote (a failed issue's charge credited back): read with X-Min-Position. */
  position: Position.optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
