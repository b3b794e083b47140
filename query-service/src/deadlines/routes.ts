import type { TimeLimitNotice, TimeLimitNoticesResponse } from "@skyward/contracts/deadline-events";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { Router } from "express";
import type { QueryDeps } from "../deps.ts";
import { bookingScope } from "../scope.ts";

/** Auto-cancelled bookings stay in the notices this long. */
const CANCELLED_SHOWN_FOR = "24 hours";

export function deadlineRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["time_limit_notices", "bookings"]);

  /**
   * The watchdog's in-app notices the caller may see (scoped like bookings): held bookings reminded of their time
   * limit and still held, soonest first, then those it cancelled automatically in the last day.
   */
  router.get("/time_limit_notices", fresh, async (req, res) => {
    const p = requirePrincipal(req);
    const scope = bookingScope(p, 0);
    const { rows } = await pool.query<{
      locator: string;
      time_limit: Date;
      reminded_at: Date | null;
      auto_cancel_at: Date | null;
      auto_cancelled_at: Date | null;
      route: string | null;
    }>(
      `SELECT b.locator, b.time_limit, b.reminded_at, b.auto_cancel_at, b.auto_cancelled_at, bk.route
         FROM read.time_limit_notices b JOIN read.bookings bk ON bk.locator = b.locator
        WHERE ${scope.sql}
          AND ((b.auto_cancelled_at IS NULL AND bk.status = 'held')
               OR b.auto_cancelled_at > now() - interval '${CANCELLED_SHOWN_FOR}')
        ORDER BY (b.auto_cancelled_at IS NOT NULL), b.time_limit LIMIT 50`,
      scope.params,
    );
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    const data: TimeLimitNotice[] = rows.map((r) => ({
      locator: r.locator,
      kind: r.auto_cancelled_at ? "auto_cancelled" : "time_limit_near",
      time_limit: r.time_limit.toISOString(),
      reminded_at: iso(r.reminded_at),
      auto_cancel_at: iso(r.auto_cancel_at),
      auto_cancelled_at: iso(r.auto_cancelled_at),
      route: r.route,
    }));
    res.json({ data } satisfies TimeLimitNoticesResponse);
  });

  return router;
}
