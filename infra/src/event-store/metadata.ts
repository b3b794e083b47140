import { randomUUID } from "node:crypto";
import type { EventMetadata } from "@skyward/contracts/metadata";
import type { RequestContext } from "../http/context.ts";
import { currentSpanIds } from "../telemetry/tracing.ts";

/** Metadata for events a request causes; scope defaults to the caller's agency and first company. */
export function metadataFor(
  context: RequestContext,
  scope?: Partial<EventMetadata["scope"]>,
  causationId: string | null = null,
): EventMetadata {
  const p = context.principal;
  return {
    actor: { user_id: p?.userId ?? null, role: p?.userType ?? "System" },
    scope: {
      agency_id: scope?.agency_id ?? p?.agencyId ?? null,
      company_id: scope?.company_id ?? p?.companyIds[0] ?? null,
    },
    trace_id: context.traceId,
    ...currentSpanIds(context.traceId),
    correlation_id: context.traceId,
    causation_id: causationId ?? context.causationId ?? null,
    source: context.source,
  };
}

/** Metadata for events the system writes on its own (seeding, scheduled expiry). */
export function systemMetadata(traceId: string = randomUUID()): EventMetadata {
  return {
    actor: { user_id: null, role: "System" },
    scope: { agency_id: null, company_id: null },
    trace_id: traceId,
    correlation_id: traceId,
    causation_id: null,
    source: "system",
  };
}
