import compression from "compression";
import express, { type Express, type RequestHandler } from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { loggedRequest } from "../logger.ts";
import type { StorageHealth } from "../storage-health.ts";
import { metrics } from "../telemetry/metrics.ts";
import { traceRequest } from "../telemetry/tracing.ts";
import { compressAnswers } from "./compress-answers.ts";
import { readInput, urlHygiene } from "./input-hygiene.ts";
import { rememberLastWrite } from "./last-write.ts";
import { type Csrf, errorHandler, methodOverride, notFound, traceId } from "./middleware.ts";

export interface HttpAppOptions {
  logger: Logger;
  csrf: Csrf;
  /** Resolves `req.context.principal` (sessions, bearer tokens). */
  authenticate?: RequestHandler;
  bodyLimit?: string;
  /** HSTS and upgrade-insecure-requests only make sense behind TLS. */
  production?: boolean;
  /** Liveness and readiness probes: answered before the request log (polled often) and authentication. */
  probes?: RequestHandler;
  /** Express `trust proxy` (config TRUST_PROXY): which hops may name the client; none by default. */
  trustProxy?: false | number | string[];
  /** Origins the page may call besides its own (product analytics). */
  connectSources?: string[];
  /** Scripts the page may run besides its own files: the hashes of its inline scripts. */
  scriptSources?: string[];
  /** Told of every disk-full refusal a request meets (readiness reports it). */
  storage?: StorageHealth;
  /** `GET /metrics` (telemetry/metrics.ts metricsRoute): answered beside the probes, before the request log. */
  metricsRoute?: RequestHandler;
  /** Tests: checks each answer of the routes against its contract (scripts/src/testing/answer-check.ts). */
  checkAnswers?: RequestHandler;
}

/**
 * The conventions both services share (DESIGN.md section 6), around the routes `mount` adds: security headers,
 * trace id, request log, method override, JSON bodies, CSRF, authentication; then 404 and the error envelope.
 */
export function createHttpApp(options: HttpAppOptions, mount: (app: Express) => void): Express {
  const app = express();
  app.disable("x-powered-by");
  // Without a configured proxy a forwarded-for header is the client's own claim: the socket's peer is the client.
  app.set("trust proxy", options.trustProxy ?? false);
  app.set("query parser", "extended");
  // No ETags on API answers: they are per caller and change with every write, and hashing a 100 KB result page
  // for each search was pure cost. Static assets keep theirs (express.static sets its own).
  app.set("etag", false);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          "default-src": ["'self'"],
          "script-src": ["'self'", ...(options.scriptSources ?? [])],
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:"],
          // Product analytics' endpoints when configured (the browser SDK posts its events there).
          "connect-src": ["'self'", ...(options.connectSources ?? [])],
          "upgrade-insecure-requests": options.production ? [] : null,
        },
      },
      strictTransportSecurity: options.production ?? false,
    }),
  );
  // Brotli (quality 4: fast enough per request) or gzip for every text answer; precompressed assets pass untouched.
  // An answer sent whole (every JSON answer) is compressed in one call instead of through a stream (compress-answers.ts).
  app.use(compression());
  app.use(compressAnswers());
  app.use(traceId);
  // The request's span when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT); its trace id becomes the request's.
  app.use(traceRequest);
  // Before the probes too: no route answers a URL whose escapes do not decode to storable text.
  app.use(urlHygiene);
  if (options.probes) app.use(options.probes);
  if (options.metricsRoute) app.use(options.metricsRoute);
  // Every request but the probes and scrapes: its route template, status and latency (issue 30).
  app.use(metrics.http);
  // A request log costs a child logger and listeners per request even when nothing is written: none when silent.
  if (options.logger.level !== "silent")
    app.use(
      pinoHttp({
        logger: options.logger,
        customProps: (req) => ({ traceId: (req as express.Request).context?.traceId }),
        serializers: { req: loggedRequest },
        autoLogging: { ignore: (req) => req.url?.startsWith("/packs/") ?? false },
      }),
    );
  // Before CSRF and authentication, so that their refusals are checked too.
  if (options.checkAnswers) app.use(options.checkAnswers);
  app.use(methodOverride);
  app.use(rememberLastWrite(options.production ?? false));
  app.use(readInput({ limit: options.bodyLimit ?? "100kb" }));
  app.use(options.csrf.verify);
  if (options.authenticate) app.use(options.authenticate);
  mount(app);
  app.use(notFound);
  app.use(errorHandler(options.logger, options.storage));
  return app;
}
