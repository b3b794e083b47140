import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { RequestHandler } from "express";
import type pg from "pg";
import { Conflict, InvalidInput } from "./errors.ts";
import { CSRF_COOKIE, readCookie } from "./middleware.ts";

/**
 * Commands accept an `Idempotency-Key`: the first request runs and its answer is stored; a repeat (same caller,
 * same key, same request) gets the stored answer and writes nothing; a concurrent repeat waits for the first.
 */
export function idempotency(pool: pg.Pool, options: { waitMs?: number } = {}): RequestHandler {
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
    const inserted = await pool.query(
      `INSERT INTO app.idempotency_keys(scope, key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [scope, key, hash],
    );
    if (inserted.rowCount === 1) {
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        const store =
          res.statusCode < 500
            ? pool.query(
                "UPDATE app.idempotency_keys SET status = $3, response = $4 WHERE scope = $1 AND key = $2",
                [scope, key, res.statusCode, JSON.stringify(body ?? null)],
              )
            : pool.query("DELETE FROM app.idempotency_keys WHERE scope = $1 AND key = $2", [scope, key]);
        // Answer only once the outcome is stored, so a repeat that arrives next can replay it.
        store.then(
          () => json(body),
          () => json(body),
        );
        return res;
      };
      return next();
    }
    const deadline = Date.now() + (options.waitMs ?? 10_000);
    for (;;) {
      const { rows } = await pool.query<{ request_hash: string; status: number | null; response: unknown }>(
        "SELECT request_hash, status, response FROM app.idempotency_keys WHERE scope = $1 AND key = $2",
        [scope, key],
      );
      const row = rows[0];
      if (!row) return next(); // the first attempt failed and was forgotten: this one runs
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
      if (Date.now() > deadline)
        throw new Conflict("A request with this Idempotency-Key is still running", "idempotency_in_progress");
      await sleep(25);
    }
  };
}
