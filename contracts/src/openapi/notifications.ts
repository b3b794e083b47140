import {
  MarkNotificationsReadRequest,
  MarkNotificationsReadResponse,
  NotificationSettingsResponse,
  NotificationsQuery,
  NotificationsResponse,
  UpdateNotificationSettingsRequest,
  UpdateNotificationSettingsResponse,
} from "../agent-notifications.ts";
import { type DocumentedRoute, invalid, unauthorized } from "./shared.ts";

/** The caller's own notifications (issue 24, item 2), tagged "Account": nobody reads or marks another's. */
export const notificationsRoutes: readonly DocumentedRoute[] = [
  {
    method: "get",
    path: "/notifications",
    operationId: "listNotifications",
    summary:
      "The caller's notifications (tickets issued, auto-cancelled, asynchronous booking confirmed or failed, schedule change), newest first, with the unread count",
    tag: "Account",
    secured: true,
    minPosition: "read_models",
    query: NotificationsQuery,
    responses: {
      200: {
        description: "The newest 50 notifications and how many are unread",
        schema: NotificationsResponse,
      },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/notifications/read",
    operationId: "markNotificationsRead",
    summary: "Marks the caller's notifications read: the ids named, or all of them",
    tag: "Account",
    secured: true,
    body: MarkNotificationsReadRequest,
    responses: {
      200: { description: "The mark, recorded", schema: MarkNotificationsReadResponse },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/notification_settings",
    operationId: "notificationSettings",
    summary: "The caller's switches per kind of notification: in the app, and by e-mail",
    tag: "Account",
    secured: true,
    minPosition: "read_models",
    responses: {
      200: { description: "Every kind's switches", schema: NotificationSettingsResponse },
      401: unauthorized,
    },
  },
  {
    method: "put",
    path: "/notification_settings",
    operationId: "updateNotificationSettings",
    summary: "Turns the caller's notifications of some kinds on or off, in the app and by e-mail",
    tag: "Account",
    secured: true,
    body: UpdateNotificationSettingsRequest,
    responses: {
      200: {
        description: "Every kind's switches after the change",
        schema: UpdateNotificationSettingsResponse,
      },
      401: unauthorized,
      422: invalid,
    },
  },
];
