import {
  MarkNotificationsReadRequest,
  type MarkNotificationsReadResponse,
  UpdateNotificationSettingsRequest,
  type UpdateNotificationSettingsResponse,
} from "@skyward/contracts/agent-notifications";
import { requirePrincipal } from "@skyward/infra/http/auth";
import { parseInput } from "@skyward/infra/http/validate";
import { Router } from "express";
import type { CommandDeps } from "../deps.ts";
import { runInboxCommand, settingsList } from "./inbox.ts";

/** The caller's own notification inbox: mark read, and the switches per kind. Nobody writes another's. */
export function agentNotificationRoutes(deps: CommandDeps): Router {
  const router = Router();

  router.post("/notifications/read", async (req, res) => {
    const p = requirePrincipal(req);
    const request = parseInput(MarkNotificationsReadRequest, req.body);
    const all = request.all === true;
    const notification_ids = all ? [] : (request.notification_ids ?? []);
    const { position } = await runInboxCommand(deps, req.context, p, {
      type: "MarkRead",
      user_id: p.userId,
      notification_ids,
      all,
      now: deps.now(),
    });
    res.json({ data: { notification_ids, all }, position } satisfies MarkNotificationsReadResponse);
  });

  router.put("/notification_settings", async (req, res) => {
    const p = requirePrincipal(req);
    const { settings } = parseInput(UpdateNotificationSettingsRequest, req.body);
    const { state, position } = await runInboxCommand(deps, req.context, p, {
      type: "ChangeSettings",
      user_id: p.userId,
      settings,
      now: deps.now(),
    });
    res.json({ data: settingsList(state), position } satisfies UpdateNotificationSettingsResponse);
  });

  return router;
}
