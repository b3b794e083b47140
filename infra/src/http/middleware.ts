import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { ErrorEnvelope } from "@skyward/contracts/errors";
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { isDiskFull, type StorageHealth } from "../storage-health.ts";
import { ERROR_CODE, metrics } from "../telemetry/metrics.ts";
import "./context.ts";
import { Forbidden, NotFound, TooManyRequests } from "./errors.ts";
import { clientErrorOf } from "./input-hygiene.ts";

export const CSRF_COOKIE = "skyward_csrf";
export const TRACE_HEADER = "x-trace-id";

/** Every request gets a trace id (the caller's if well-formed), echoed on the response. */
export const traceId: RequestHandler = (req, res, next) => {
  const incoming = req.get(TRACE_HEADER);
  const id = incoming && /^[A-Za-z0-9-]{8,64}$/.test(incoming) ? incoming : randomUUID();
  req.context = { traceId: id, source: "web", principal: null };
  res.setHeader(TRACE_HEADER, id);
  next();
};

/** PUT, PATCH and DELETE may arrive as POST with `X-HTTP-Method-Override`. */
export const methodOverride: RequestHandler = (req, _res, next) => {
  const override = req.get("x-http-method-override")?.toUpperCase();
  if (req.method === "POST" && override && ["PUT", "PATCH", "DELETE"].includes(override))
    req.method = override;
  next();
};

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) {
      // Our cookies are always well-formed: one that does not decode was not set by us, so there is none.
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface CsrfOptions {
  secret: string;
  secureCookies: boolean;
}

/** Double-submit CSRF: a random HttpOnly cookie, and the page's token is its HMAC under the server secret. */
export class Csrf {
  constructor(private readonly options: CsrfOptions) {}

  private sign(value: string): string {
    return createHmac("sha256", this.options.secret).update(value).digest("base64url");
  }

  /** The token for this browser, setting its cookie when it has none. */
  tokenFor(req: Request, res: Response): string {
    let value = readCookie(req, CSRF_COOKIE);
    if (!value || !/^[A-Za-z0-9_-]{20,100}$/.test(value)) {
      value = randomBytes(24).toString("base64url");
      res.cookie(CSRF_COOKIE, value, {
        httpOnly: true,
        sameSite: "lax",
        secure: this.options.secureCookies,
        path: "/",
      });
    }
    return this.sign(value);
  }

  readonly verify: RequestHandler = (req, _res, next) => {
    if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return next();
    // Bearer-token clients (api, extension) carry no ambient credentials, so CSRF does not apply.
    if (/^Bearer /i.test(req.get("authorization") ?? "")) return next();
    const cookie = readCookie(req, CSRF_COOKIE);
    const header = req.get("x-csrf-token");
    if (!cookie || !header) return next(new Forbidden("Missing CSRF token", "csrf_missing"));
    const expected = Buffer.from(this.sign(cookie));
    const given = Buffer.from(header);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return next(new Forbidden("Invalid CSRF token", "csrf_invalid"));
    }
    next();
  };
}

export const notFound: RequestHandler = (req, _res, next) => {
  next(new NotFound(`No route for ${req.method} ${req.path}`, "route_not_found"));
};

/** A database that is down, restarting or cut off: nothing the client did, and worth retrying shortly. */
function databaseUnavailable(error: unknown): boolean {
  const { code, message, syscall } = (error ?? {}) as {
    code?: unknown;
    message?: unknown;
    syscall?: unknown;
  };
  if (
    typeof code === "string" &&
    (code.startsWith("08") ||
      code.startsWith("57P") ||
      ["ECONNREFUSED", "ECONNRESET", "EPIPE"].includes(code) ||
      // The server's Unix socket is gone while it restarts.
      (code === "ENOENT" && syscall === "connect"))
  )
    return true;
  return (
    typeof message === "string" &&
    /Connection terminated|not queryable|connect (ECONNREFUSED|ECONNRESET|ENOENT)/.test(message)
  );
}

/** How long a client should wait before sending a write again while the database's disk is full. */
export const STORAGE_FULL_RETRY_AFTER_S = 30;

function envelopeFor(error: unknown): {
  status: number;
  body: ErrorEnvelope;
  unexpected: boolean;
  retryAfter?: number;
} {
  // Ours, body-parser's (malformed JSON, too large, wrong charset) and the router's (a path it cannot decode).
  const known = clientErrorOf(error);
  if (known) {
    const errors = known.toApiErrors();
    const body = known.position ? { errors, position: known.position } : { errors };
    return { status: known.status, body, unexpected: false };
  }
  if (isDiskFull(error)) {
    const detail = "The database cannot write: its disk is full. Nothing was changed; try again later";
    return {
      status: 503,
      body: { errors: [{ status: "503", code: "storage_full", title: "Service unavailable", detail }] },
      unexpected: true,
      retryAfter: STORAGE_FULL_RETRY_AFTER_S,
    };
  }
  if (databaseUnavailable(error)) {
    const detail = "The database is restarting; try again in a moment";
    return {
      status: 503,
      body: {
        errors: [{ status: "503", code: "database_unavailable", title: "Service unavailable", detail }],
      },
      unexpected: true,
    };
  }
  return {
    status: 500,
    body: { errors: [{ status: "500", code: "internal", title: "There are problems on the server" }] },
    unexpected: true,
  };
}

/** `storage` hears of every disk-full refusal, so readiness turns 503 while the database cannot write. */
export function errorHandler(logger: Logger, storage?: StorageHealth): ErrorRequestHandler {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { status, body, unexpected, retryAfter } = envelopeFor(error);
    if (unexpected) logger.error({ err: error, traceId: req.context?.traceId }, "unhandled error");
    storage?.note(error);
    res.locals[ERROR_CODE] = body.errors[0]?.code;
    if (status === 429) metrics.rateLimited(body.errors[0]?.code ?? "too_many_requests");
    if (res.headersSent) return;
    const wait = retryAfter ?? (error instanceof TooManyRequests ? error.retryAfterSeconds : undefined);
    if (wait !== undefined) res.setHeader("Retry-After", String(Math.max(1, Math.ceil(wait))));
    res.status(status).json(body);
  };
}
