import {
  type AgentNotification,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationSettingsResponse,
  NotificationsQuery,
  type NotificationsResponse,
} from "@skyward/contracts/agent-notifications";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import type pg from "pg";
import type { QueryDeps } from "../deps.ts";

/** Shown in the list: the newest this many (the unread count counts them all). */
const LIST_LIMIT = 50;

/**
 * What `GET /notifications` answers: the user's own newest notifications and the unread count. Also written into the
 * page's HTML for the signed-in caller (scripts/src/page-data.ts): the header's bell needs no request of its own.
 */
export async function notificationsOf(
  pool: pg.Pool,
  userId: string,
  unreadOnly = false,
): Promise<NotificationsResponse> {
  const { rows } = await pool.query<{
    id: string;
    kind: NotificationKind;
    locator: string;
    route: string | null;
    detail: string | null;
    at: Date;
    read_at: Date | null;
  }>(
    `SELECT id, kind, locator, route, detail, at, read_at FROM read.notifications
        WHERE user_id = $1 AND in_app AND ($2::boolean IS NOT TRUE OR read_at IS NULL)
        ORDER BY at DESC, id LIMIT ${LIST_LIMIT}`,
    [userId, unreadOnly],
  );
  const count = await pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM read.notifications WHERE user_id = $1 AND in_app AND read_at IS NULL",
    [userId],
  );
  const data: AgentNotification[] = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    locator: r.locator,
    route: r.route,
    at: r.at.toISOString(),
    read: r.read_at !== null,
    detail: r.detail,
  }));
  return { data, unread: count.rows[0]?.n ?? 0 };
}

/** The caller's own notifications and switches (issue 24, item 2): nobody reads another user's. */
export function agentNotificationReadRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["agent_notifications"]);

  router.get("/notifications", fresh, async (req, res) => {
    const p = requirePrincipal(req);
    const { unread } = parseInput(NotificationsQuery, req.query, "query");
    res.json(await notificationsOf(pool, p.userId, unread === "true"));
  });

  router.get("/notification_settings", fresh, async (req, res) => {
    const p = requirePrincipal(req);
    const { rows } = await pool.query<{ kind: NotificationKind; in_app: boolean; mail: boolean }>(
      "SELECT kind, in_app, mail FROM read.notification_settings WHERE user_id = $1",
      [p.userId],
    );
    const data = NOTIFICATION_KINDS.map((kind) => {
      const set = rows.find((r) => r.kind === kind);
      return { kind, in_app: set?.in_app ?? true, mail: set?.mail ?? true };
    });
    res.json({ data } satisfies NotificationSettingsResponse);
  });

  return router;
}
