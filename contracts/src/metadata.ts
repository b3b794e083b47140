import { z } from "zod";

export const UserType = z.enum(["Agent", "Supervisor", "Admin", "Support", "Auditor"]);
export type UserType = z.infer<typeof UserType>;

/** `assistant`: run by the AI admin assistant on its user's behalf (the plan id is the causation). */
export const SourceChannel = z.enum(["web", "api", "extension", "system", "assistant"]);
export type SourceChannel = z.infer<typeof SourceChannel>;

/** Metadata stamped on every stored event. */
export const EventMetadata = z.object({
  actor: z.object({ user_id: z.string().nullable(), role: z.union([UserType, z.literal("System")]) }),
  scope: z.object({ agency_id: z.string().nullable(), company_id: z.string().nullable() }),
  trace_id: z.string(),
  /** With tracing on (issue 30): the OpenTelemetry span that decided the event; a projector's span is its child. */
  span_id: z.string().optional(),
  correlation_id: z.string(),
  causation_id: z.string().nullable(),
  source: SourceChannel,
  /** The version of its type the event was written at (event-versions.ts); absent: version 1. */
  schema_version: z.number().int().min(1).optional(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;
