import { isIPv6 } from "node:net";
import { TooManyRequests } from "@skyward/infra/http/errors";
import type pg from "pg";

export interface Limit {
  max: number;
  windowSeconds: number;
}

/**
 * How often codes may be requested and sign-ins tried. Nothing is counted per address alone: such a limit is one
 * an attacker could use up to lock the address's owner out. Per address it is always per address and client.
 */
export interface SignInLimits {
  codesPerEmailAndIp: Limit;
  codesPerIp: Limit;
  attemptsPerIp: Limit;
  /** A signed-in user's own e-mail change: only they can use these up. */
  emailChangesPerUser: Limit;
  emailChangeAttemptsPerUser: Limit;
  /** Failed sign-ins of one address from one client: `free` of them, then waits doubling from `baseSeconds`. */
  failureBackoff: Backoff;
}

export interface Backoff {
  free: number;
  baseSeconds: number;
  maxSeconds: number;
}

export const defaultSignInLimits: SignInLimits = {
  codesPerEmailAndIp: { max: 5, windowSeconds: 600 },
  codesPerIp: { max: 30, windowSeconds: 600 },
  attemptsPerIp: { max: 60, windowSeconds: 600 },
  emailChangesPerUser: { max: 5, windowSeconds: 600 },
  emailChangeAttemptsPerUser: { max: 10, windowSeconds: 600 },
  // Ten: a user who used up one code's five attempts still has a fresh code's five before any wait.
  failureBackoff: { free: 10, baseSeconds: 30, maxSeconds: 3600 },
};

/**
 * The client a limit counts: an IPv4 address, or the /64 network of an IPv6 one (a single host is given a whole
 * /64 and can take a new address in it for every request).
 */
export function clientOf(ip: string | null): string {
  if (!ip) return "unknown";
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (v4) return v4[1] as string;
  if (!isIPv6(ip)) return ip;
  const [head = "", tail] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

const inMinutes = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
};

const tooMany = (retryAfterSeconds: number) =>
  new TooManyRequests(
    `Too many attempts. Try again in ${inMinutes(retryAfterSeconds)}.`,
    "rate_limited",
    retryAfterSeconds,
  );

/** Sign-in codes asked for too often: not a failed sign-in, and the answer says which limit and until when. */
export const codeRequestsLimited = (retryAfterSeconds: number, now: Date) =>
  new TooManyRequests(
    `Too many sign-in codes were asked for; ask for a new one in ${inMinutes(retryAfterSeconds)} (after ${new Date(
      now.getTime() + retryAfterSeconds * 1000,
    ).toISOString()}). A code already sent still works.`,
    "code_requests_limited",
    retryAfterSeconds,
  );

/**
 * Fixed-window counters in `app.rate_limits`: each hit counts (even when refused), and the caller is refused with
 * a 429 once any of its keys is past its limit for the current window.
 */
export class RateLimiter {
  constructor(private readonly pool: pg.Pool) {}

  async hit(
    checks: readonly { key: string; limit: Limit }[],
    now: Date,
    refuse: (retryAfterSeconds: number, now: Date) => Error = tooMany,
  ): Promise<void> {
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
    if (retryAfterSeconds > 0) throw refuse(retryAfterSeconds, now);
  }

  /** Takes back one hit of `key` in the current window (a request that turned out to be the owner's). */
  async refund(key: string, limit: Limit, now: Date): Promise<void> {
    const windowMs = limit.windowSeconds * 1000;
    await this.pool.query(
      "UPDATE app.rate_limits SET count = count - 1 WHERE key = $1 AND window_start = $2 AND count > 0",
      [key, new Date(Math.floor(now.getTime() / windowMs) * windowMs)],
    );
  }

  /**
   * Refuses while `key` (an address and a client) is backing off: after `free` failures in the last day, the next
   * attempt waits `baseSeconds` after the last failure, doubling with each further failure up to `maxSeconds`.
   */
  async assertNotBackingOff(key: string, backoff: Backoff, now: Date): Promise<void> {
    const { rows } = await this.pool.query<{ failures: number; last: Date | null }>(
      `SELECT coalesce(sum(count), 0)::int AS failures, max(window_start) AS last
         FROM app.rate_limits WHERE key = $1 AND window_start > $2`,
      [key, new Date(now.getTime() - 86_400_000)],
    );
    const { failures = 0, last = null } = rows[0] ?? {};
    if (failures < backoff.free || !last) return;
    const waitSeconds = Math.min(backoff.maxSeconds, backoff.baseSeconds * 2 ** (failures - backoff.free));
    const retryAfterMs = last.getTime() + waitSeconds * 1000 - now.getTime();
    if (retryAfterMs > 0) throw tooMany(Math.ceil(retryAfterMs / 1000));
  }

  /** One failure of `key`, timed to the millisecond (failures in the same millisecond add up). */
  async recordFailure(key: string, now: Date): Promise<void> {
    await this.pool.query(
      `INSERT INTO app.rate_limits (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = app.rate_limits.count + 1`,
      [key, now],
    );
  }

  /** A success wipes the slate for `key`. */
  async clear(key: string): Promise<void> {
    await this.pool.query("DELETE FROM app.rate_limits WHERE key = $1", [key]);
  }

  /** Windows that ended a day ago count for nothing any more. */
  async prune(now: Date): Promise<void> {
    await this.pool.query("DELETE FROM app.rate_limits WHERE window_start < $1", [
      new Date(now.getTime() - 86_400_000),
    ]);
  }
}
