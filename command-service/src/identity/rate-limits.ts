import { TooManyRequests } from "@skyward/infra/http/errors";
import type pg from "pg";

export interface Limit {
  max: number;
  windowSeconds: number;
}

/** How often codes may be requested and sign-ins tried, per e-mail address (or user) and per client IP. */
export interface SignInLimits {
  codesPerEmail: Limit;
  codesPerIp: Limit;
  attemptsPerEmail: Limit;
  attemptsPerIp: Limit;
}

export const defaultSignInLimits: SignInLimits = {
  codesPerEmail: { max: 5, windowSeconds: 600 },
  codesPerIp: { max: 30, windowSeconds: 600 },
  attemptsPerEmail: { max: 10, windowSeconds: 600 },
  attemptsPerIp: { max: 60, windowSeconds: 600 },
};

/**
 * Fixed-window counters in `app.rate_limits`: each hit counts (even when refused), and the caller is refused with
 * a 429 once any of its keys is past its limit for the current window.
 */
export class RateLimiter {
  constructor(private readonly pool: pg.Pool) {}

  async hit(checks: readonly { key: string; limit: Limit }[], now: Date): Promise<void> {
    let retryAfterSeconds = 0;
    for (const { key, limit } of checks) {
      const windowMs = limit.windowSeconds * 1000;
      const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
      const { rows } = await this.pool.query<{ count: number }>(
        `INSERT INTO app.rate_limits (key, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (key, window_start) DO UPDATE SET count = app.rate_limits.count + 1
         RETURNING count`,
        [key, new Date(windowStart)],
      );
      if ((rows[0]?.count ?? 0) > limit.max)
        retryAfterSeconds = Math.max(
          retryAfterSeconds,
          Math.ceil((windowStart + windowMs - now.getTime()) / 1000),
        );
    }
    if (retryAfterSeconds > 0) {
      const minutes = Math.ceil(retryAfterSeconds / 60);
      throw new TooManyRequests(
        `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        "rate_limited",
      );
    }
  }

  /** Windows that ended a day ago count for nothing any more. */
  async prune(now: Date): Promise<void> {
    await this.pool.query("DELETE FROM app.rate_limits WHERE window_start < $1", [
      new Date(now.getTime() - 86_400_000),
    ]);
  }
}
