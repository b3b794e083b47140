import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { RequestHandler, Response } from "express";
import type pg from "pg";
import { Conflict, InvalidInput } from "./errors.ts";
import { CSRF_COOKIE, readCookie } from "./middleware.ts";

export interface IdempotencyOptions {
  /**
   * How long a key stays leased to a first request that stopped renewing it: its process died, and the key can be
   * used again. A running request renews its lease every third of this.
   */
  leaseMs?: number;
  /** How long a repeat waits for the first request to finish before answering 409. */
  waitMs?: number;
  /** How long a request keeps renewing its lease at most (one that never answers must not hold its key forever). */
  maxRunMs?: number;
}

export const IDEMPOTENCY_LEASE_MS = 30_000;

/**
 * Commands accept an `Idempotency-Key`: the first request runs and its answer is stored; a repeat (same caller,
 * same key, same request) gets the stored answer and writes nothing; a concurrent repeat waits briefly for the
 * first, then answers 409. A key whose first request died with its process is free again once its lease ran out.
 */
export function idempotency(pool: pg.Pool, options: IdempotencyOptions = {}): RequestHandler {
  const leaseMs = options.leaseMs ?? IDEMPOTENCY_LEASE_MS;
  const waitMs = options.waitMs ?? 1000;
  const maxRunMs = options.maxRunMs ?? 10 * 60_000;
  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    if (key === undefined || req.method === "GET") return next();
    if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
      throw new InvalidInput(
        [
          {
            pointer: "/Idempotency-Key",
            detail: "must be 1-200 visible ASCII characters",
            location: "header",
          },
        ],
        400,
      );
    }
    const scope = req.context.principal?.userId ?? `browser:${readCookie(req, CSRF_COOKIE) ?? req.ip}`;
    const hash = createHash("sha256")
      .update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`)
      .digest("hex");
    const deadline = Date.now() + waitMs;
    for (let pause = 10; ; pause = Math.min(pause * 2, 100)) {
      // A new key, or one whose lease ran out with no answer stored (its request died), is claimed by this one.
      const claimed = await pool.query(
        `INSERT INTO app.idempotency_keys AS k (scope, key, request_hash, lease_until)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4))
         ON CONFLICT (scope, key) DO UPDATE SET lease_until = excluded.lease_until, created_at = now()
          WHERE k.status IS NULL AND k.lease_until < now() AND k.request_hash = excluded.request_hash`,
        [scope, key, hash, leaseMs / 1000],
      );
      if (claimed.rowCount === 1) {
        keepAnswer(pool, res, { scope, key, leaseMs, maxRunMs });
        return next();
      }
      const { rows } = await pool.query<{ request_hash: string; status: number | null; response: unknown }>(
        "SELECT request_hash, status, response FROM app.idempotency_keys WHERE scope = $1 AND key = $2",
        [scope, key],
      );
      const row = rows[0];
      if (!row) continue; // the first attempt failed and was forgotten: claim the key again
      if (row.request_hash !== hash) {
        throw new InvalidInput([
          {
            pointer: "/Idempotency-Key",
            detail: "was already used for a different request",
            location: "header",
          },
        ]);
      }
      if (row.status !== null) {
        res.setHeader("idempotent-replayed", "true");
        res.status(row.status).json(row.response);
        return;
      }
      if (Date.now() + pause > deadline) {
        res.setHeader("retry-after", "1");
        throw new Conflict(
          "A request with this Idempotency-Key is still running; try again in a moment",
          "idempotency_in_progress",
        );
      }
      await sleep(pause);
    }
  };
}

/**
 * Stores the answer of the request that holds the key before it is sent (so a repeat arriving next replays it),
 * and renews the key's lease until then. A 5xx, or an answer that is not JSON, releases the key instead.
 */
function keepAnswer(
  pool: pg.Pool,
  res: Response,
  held: { scope: string; key: string; leaseMs: number; maxRunMs: number },
): void {
  const { scope, key, leaseMs, maxRunMs } = held;
  const renewing = setInterval(() => {
    pool
      .query(
        `UPDATE app.idempotency_keys SET lease_until = now() + make_interval(secs => $3)
          WHERE scope = $1 AND key = $2 AND status IS NULL`,
        [scope, key, leaseMs / 1000],
      )
      .catch(() => {}); // a missed renewal only shortens the lease
  }, leaseMs / 3);
  renewing.unref();
  const giveUp = setTimeout(() => clearInterval(renewing), maxRunMs);
  giveUp.unref();
  let settled = false;
  const settle = () => {
    settled = true;
    clearInterval(renewing);
    clearTimeout(giveUp);
  };
  const release = () =>
    pool.query("DELETE FROM app.idempotency_keys WHERE scope = $1 AND key = $2 AND status IS NULL", [
      scope,
      key,
    ]);

  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    // An object goes through res.json, which comes back here with its text.
    if (settled || (typeof body === "object" && body !== null && !Buffer.isBuffer(body))) return send(body);
    settle();
    const text = Buffer.isBuffer(body) ? body.toString("utf8") : typeof body === "string" ? body : null;
    const json = /^application\/json\b/i.test(String(res.getHeader("content-type") ?? ""));
    const stored =
      res.statusCode < 500 && json && text !== null
        ? pool
            .query(
              "UPDATE app.idempotency_keys SET status = $3, response = $4::jsonb WHERE scope = $1 AND key = $2",
              [scope, key, res.statusCode, text],
            )
            .catch(release)
        : release();
    // Answer only once the outcome is stored, so a repeat that arrives next can replay it.
    stored.then(
      () => send(body),
      () => send(body),
    );
    return res;
  };
  // An answer that never went through send (res.end): nothing to replay, so the key is free again.
  res.on("finish", () => {
    if (settled) return;
    settle();
    // A key that could not be released frees itself when its lease runs out.
    release().catch(() => {});
  });
}
