import { z } from "zod";
import { CommandPosition } from "./account.ts";

/**
 * Notifications to the agent (issue 24, item 2): what happened to a booking that the agent should know, in the app
 * (a list with an unread count) and by mail. The notifications themselves are derived from the bookings' events by
 * the `agent_notifications` projection; what a user writes is kept on their own stream `notifications-{user_id}`:
 * their switches per kind and which notifications they have read.
 */
export const notificationsStream = (userId: string) => `notifications-${userId}`;

/** What the agent is told of: tickets issued, a held booking auto-cancelled, an asynchronous booking settled, a schedule change. */
export const NotificationKind = z.enum([
  "issued",
  "auto_cancelled",
  "booking_confirmed",
  "booking_failed",
  "schedule_change",
]);
export type NotificationKind = z.infer<typeof NotificationKind>;
export const NOTIFICATION_KINDS = NotificationKind.options;

/** A user's switches for one kind: shown in the app, sent by mail. Both are on until the user turns one off. */
export const NotificationSettingChanged = z.object({
  user_id: z.string(),
  kind: NotificationKind,
  in_app: z.boolean(),
  mail: z.boolean(),
  at: z.string(),
});
export type NotificationSettingChanged = z.infer<typeof NotificationSettingChanged>;

/** Notifications the user has read: these ids, or every one up to `at` (mark all read). */
export const NotificationsMarkedRead = z.object({
  user_id: z.string(),
  notification_ids: z.array(z.string()),
  all: z.boolean(),
  at: z.string(),
});
export type NotificationsMarkedRead = z.infer<typeof NotificationsMarkedRead>;

export const UserNotificationEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("NotificationSettingChanged"), data: NotificationSettingChanged }),
  z.object({ type: z.literal("NotificationsMarkedRead"), data: NotificationsMarkedRead }),
]);
export type UserNotificationEvent = z.infer<typeof UserNotificationEvent>;
export const USER_NOTIFICATION_EVENT_TYPES = UserNotificationEvent.options.map((o) => o.shape.type.value);

/** One kind's switches as the account page shows them. */
export const NotificationSetting = z.object({
  kind: NotificationKind,
  in_app: z.boolean(),
  mail: z.boolean(),
});
export type NotificationSetting = z.infer<typeof NotificationSetting>;

/** One notification of `GET /notifications`. */
export const AgentNotification = z.object({
  id: z.string(),
  kind: NotificationKind,
  locator: z.string(),
  route: z.string().nullable(),
  at: z.string(),
  read: z.boolean(),
  /** The change's kind for a schedule change (minor, major, cancelled); the supplier's reason for a failed booking. */
  detail: z.string().nullable(),
});
export type AgentNotification = z.infer<typeof AgentNotification>;

/** `GET /notifications`: the caller's own notifications, newest first, and how many are unread. */
export const NotificationsQuery = z.object({ unread: z.enum(["true", "false"]).optional() });
export const NotificationsResponse = z.object({
  data: z.array(AgentNotification),
  unread: z.number().int().nonnegative(),
});
export type NotificationsResponse = z.infer<typeof NotificationsResponse>;

/** `POST /notifications/read`: these notifications read, or `all` of them. */
export const MarkNotificationsReadRequest = z
  .object({
    notification_ids: z.array(z.string().trim().min(1).max(200)).max(200).optional(),
    all: z.literal(true).optional(),
  })
  .strict()
  .refine((r) => (r.notification_ids?.length ?? 0) > 0 || r.all === true, {
    message: "name the notifications read, or all",
    path: ["notification_ids"],
  });
export type MarkNotificationsReadRequest = z.infer<typeof MarkNotificationsReadRequest>;
export const MarkNotificationsReadResponse = z.object({
  data: z.object({ notification_ids: z.array(z.string()), all: z.boolean() }),
  position: CommandPosition,
});
export type MarkNotificationsReadResponse = z.infer<typeof MarkNotificationsReadResponse>;

/** `GET /notification_settings` and `PUT /notification_settings`: every kind's switches. */
export const NotificationSettingsResponse = z.object({ data: z.array(NotificationSetting) });
export type NotificationSettingsResponse = z.infer<typeof NotificationSettingsResponse>;
export const UpdateNotificationSettingsRequest = z
  .object({ settings: z.array(NotificationSetting.strict()).min(1).max(NOTIFICATION_KINDS.length) })
  .strict()
  .refine((r) => new Set(r.settings.map((s) => s.kind)).size === r.settings.length, {
    message: "each kind once",
    path: ["settings"],
  });
export type UpdateNotificationSettingsRequest = z.infer<typeof UpdateNotificationSettingsRequest>;
export const UpdateNotificationSettingsResponse = z.object({
  data: z.array(NotificationSetting),
  position: CommandPosition,
});
export type UpdateNotificationSettingsResponse = z.infer<typeof UpdateNotificationSettingsResponse>;
