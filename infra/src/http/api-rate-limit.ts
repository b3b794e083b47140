import type { RequestHandler } from "express";
import type pg from "pg";
import { TooManyRequests } from "./errors.ts";

/** A token bucket: `burst` calls at once, refilled at `perSecond`. */
export interface ApiRateLimit {
  burst: number;
  perSecond: number;
}

/** Room for a page of parallel calls, and a steady 10 a second (36,000 an hour) per token. */
export const defaultApiRateLimit: ApiRateLimit = { burst: 60, perSecond: 10 };

/**
 * Per-token rate limit of the public API (issue 14). The bucket lives in PostgreSQL (app.api_token_buckets), taken
 * from in one UPSERT per bearer call, so the limit is one limit however many processes serve the API: a bucket per
 * process would multiply it by their number, and nothing else here is shared by every process. The statement costs
 * far less than any API call it guards. The bucket is kept under the token's user (a user holds one token at a
 * time), so issuing a new token does not refill it. Web sessions never reach it.
 */
export function apiRateLimit(pool: pg.Pool, limit: ApiRateLimit = defaultApiRateLimit): RequestHandler {
  return async (req, res, next) => {
    const principal = req.context.principal;
    // Only a bearer that authenticated counts (an unknown token was already answered 401); sessions never do.
    if (!principal || principal.sessionId !== null || !/^Bearer\s/i.test(req.get("authorization") ?? ""))
      return next();
    const { rows } = await pool.query<{ allowed: boolean; tokens: number }>(
      `INSERT INTO app.api_token_buckets AS b (user_id, tokens, refilled_at, allowed)
       VALUES ($1, $2::float8 - 1, now(), true)
       ON CONFLICT (user_id) DO UPDATE SET
         tokens = least($2::float8, b.tokens + extract(epoch FROM now() - b.refilled_at) * $3::float8)
                  - CASE WHEN least($2::float8, b.tokens + extract(epoch FROM now() - b.refilled_at)
                                                 * $3::float8) >= 1 THEN 1 ELSE 0 END,
         allowed = least($2::float8, b.tokens + extract(epoch FROM now() - b.refilled_at)
                                    * $3::float8) >= 1,
         refilled_at = now()
       RETURNING allowed, tokens`,
      [principal.userId, limit.burst, limit.perSecond],
    );
    const bucket = rows[0];
    if (!bucket || bucket.allowed) return next();
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
    res.setHeader("Retry-After", String(retryAfter));
    next(
      new TooManyRequests(
        `This API token may make ${limit.burst} calls at once and ${limit.perSecond} a second; try again in ${retryAfter} s`,
        "api_rate_limited",
      ),
    );
  };
}
