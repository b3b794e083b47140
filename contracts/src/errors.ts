import { z } from "zod";

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

export const ErrorEnvelope = z.object({ errors: z.array(ApiError).min(1) });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
