import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import type { NextFunction, Request, Response } from "express";

/**
 * OpenTelemetry traces (issue 30), behind this one module. Off unless `OTEL_EXPORTER_OTLP_ENDPOINT` is set: then no
 * SDK is loaded and every call here returns after one boolean test. On, the NodeSDK exports over OTLP/HTTP with the
 * http, express and pg instrumentations, and the spans below tie one request to its command, its supplier call, its
 * append and, through the trace and span ids stamped in the event's metadata, to each projector that applies it.
 */
let enabled = false;
let sdk: { shutdown(): Promise<void> } | null = null;
let flushing: (() => Promise<void>) | null = null;
const tracer = trace.getTracer("skyward");

export const tracingEnabled = (): boolean => enabled;

/** Starts exporting to `endpoint` (once per process; later calls reuse it). Returns a flush for tests and shutdown. */
export async function startTracing(endpoint: string | undefined, serviceName = "skyward"): Promise<void> {
  if (!endpoint || enabled) return;
  const [
    { NodeSDK },
    { OTLPTraceExporter },
    { HttpInstrumentation },
    { ExpressInstrumentation, ExpressLayerType },
    { PgInstrumentation },
  ] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-express"),
    import("@opentelemetry/instrumentation-pg"),
  ]);
  const { BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
  const processor = new BatchSpanProcessor(
    new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` }),
    { scheduledDelayMillis: 1000 },
  );
  const started = new NodeSDK({
    serviceName,
    spanProcessors: [processor],
    // Lean by default: no span per Express middleware or router (only the route's handler), none per pool checkout, and a query only inside a
    // traced request, job or batch (the projectors' idle polling would otherwise start a trace per query).
    // OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (e.g. parentbased_traceidratio, 0.1) sample as usual.
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => ["/metrics", "/health", "/ready"].includes(req.url ?? ""),
        requireParentforOutgoingSpans: true,
      }),
      new ExpressInstrumentation({
        ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER],
      }),
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    ],
  });
  started.start();
  sdk = started;
  flushing = () => processor.forceFlush();
  enabled = true;
}

/** Sends the spans ended so far (tests; a stopping process). */
export async function flushTraces(): Promise<void> {
  await flushing?.();
}

export async function stopTracing(): Promise<void> {
  const stopping = sdk;
  sdk = null;
  flushing = null;
  enabled = false;
  await stopping?.shutdown();
}

/**
 * The request's server span (the route template becomes its name once known), continuing a caller's `traceparent`.
 * The request's trace id becomes the OpenTelemetry one, so the events it appends carry it.
 */
export function traceRequest(req: Request, res: Response, next: NextFunction): void {
  if (!enabled) {
    next();
    return;
  }
  // The http instrumentation's server span when it hooked this server (serve.ts); else one of our own.
  const current = trace.getSpan(context.active());
  const parent = current ? context.active() : propagation.extract(context.active(), req.headers);
  const span = current ?? tracer.startSpan(`${req.method}`, { kind: SpanKind.SERVER }, parent);
  const ids = span.spanContext();
  if (req.context) req.context.traceId = ids.traceId;
  res.setHeader("x-trace-id", ids.traceId);
  res.once("finish", () => {
    const route = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof route === "string") span.updateName(`${req.method} ${req.baseUrl}${route}`);
    span.setAttribute("http.response.status_code", res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    if (!current) span.end();
  });
  if (current) next();
  else context.with(trace.setSpan(parent, span), next);
}

/** Runs `work` in a span of its own under the current one (none when tracing is off). */
export function traced<T>(
  name: string,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> {
  if (!enabled) return work();
  return tracer.startActiveSpan(name, { attributes }, async (span: Span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The ids of the span current where an event's metadata is made, to stamp in it (nothing when tracing is off). */
export function currentSpanIds(traceId: string): { span_id: string } | Record<string, never> {
  if (!enabled) return {};
  const ids = trace.getActiveSpan()?.spanContext();
  return ids && ids.traceId === traceId ? { span_id: ids.spanId } : {};
}

const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

/**
 * One span per trace among the events a projector just applied, each a child of the span that decided the event
 * (the ids in its metadata), from `startedAt` (ms) to now.
 */
export function projected(
  projection: string,
  events: readonly { type: string; metadata: { trace_id: string; span_id?: string } }[],
  startedAt: number,
): void {
  if (!enabled) return;
  const seen = new Map<string, { spanId: string; types: Set<string> }>();
  for (const e of events) {
    const { trace_id: traceId, span_id: spanId } = e.metadata;
    if (!spanId || !HEX32.test(traceId) || !HEX16.test(spanId) || seen.size >= 50) continue;
    const entry = seen.get(`${traceId}/${spanId}`) ?? { spanId, types: new Set<string>() };
    entry.types.add(e.type);
    seen.set(`${traceId}/${spanId}`, entry);
  }
  for (const [key, { spanId, types }] of seen) {
    const traceId = key.split("/")[0] as string;
    const parent: Context = trace.setSpanContext(ROOT_CONTEXT, {
      traceId,
      spanId,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    tracer
      .startSpan(
        `project ${projection}`,
        {
          kind: SpanKind.CONSUMER,
          startTime: startedAt,
          attributes: { "skyward.projection": projection, "skyward.event_types": [...types].join(",") },
        },
        parent,
      )
      .end();
  }
}
