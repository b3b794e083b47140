import { useSyncExternalStore } from "react";
import { i18n } from "./i18n.ts";

/** Timings of the notification bar (seed spec, section 9). */
export const NOTIFICATION_START_DELAY_MS = 50;
export const SUCCESS_DISPLAY_MS = 4_000;
export const ERROR_DISPLAY_MS = 15_000;
export const FADE_OUT_MS = 1_000;

/** A warning is news to act on that is not a failure (a price that rose): shown as long as an error. */
export type NotificationType = "success" | "warning" | "error";

/** The spec's notification entity; `start` and `finish` drive the entrance and the fade-out. */
export interface Notification {
  id: number;
  text: string;
  type: NotificationType;
  start: boolean;
  finish: boolean;
  permanent: boolean;
  link?: string;
  link_text?: string;
}

export interface NotificationInput {
  text: string;
  type: NotificationType;
  permanent?: boolean;
  link?: string;
  link_text?: string;
}

let notifications: readonly Notification[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>[]>();

function publish(next: readonly Notification[]): void {
  notifications = next;
  for (const listener of listeners) listener();
}

function update(id: number, patch: Partial<Notification>): void {
  publish(
    notifications.map((notification) =>
      notification.id === id ? { ...notification, ...patch } : notification,
    ),
  );
}

function schedule(id: number, delay: number, run: () => void): void {
  const timer = setTimeout(run, delay);
  timers.set(id, [...(timers.get(id) ?? []), timer]);
}

function clearTimers(id: number): void {
  for (const timer of timers.get(id) ?? []) clearTimeout(timer);
  timers.delete(id);
}

export function displayTime(type: NotificationType): number {
  return type === "success" ? SUCCESS_DISPLAY_MS : ERROR_DISPLAY_MS;
}

/** Shows a notification; the same text already on screen is not stacked twice. Returns its id. */
export function notify(input: NotificationInput): number {
  const showing = notifications.find(
    (notification) =>
      !notification.finish && notification.text === input.text && notification.type === input.type,
  );
  if (showing) return showing.id;

  const id = nextId++;
  publish([
    ...notifications,
    { ...input, id, permanent: input.permanent ?? false, start: false, finish: false },
  ]);
  schedule(id, NOTIFICATION_START_DELAY_MS, () => update(id, { start: true }));
  if (!input.permanent) schedule(id, displayTime(input.type), () => dismissNotification(id));
  return id;
}

/** Starts the fade-out, then removes the notification. */
export function dismissNotification(id: number): void {
  const notification = notifications.find((candidate) => candidate.id === id);
  if (!notification || notification.finish) return;
  clearTimers(id);
  update(id, { finish: true });
  schedule(id, FADE_OUT_MS, () => {
    timers.delete(id);
    publish(notifications.filter((candidate) => candidate.id !== id));
  });
}

/** A new attempt makes the refusals of earlier ones moot: only the answer to this one should show. */
export function dismissErrors(): void {
  for (const notification of notifications)
    if (notification.type === "error") dismissNotification(notification.id);
}

export function clearNotifications(): void {
  for (const id of timers.keys()) clearTimers(id);
  publish([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentNotifications(): readonly Notification[] {
  return notifications;
}

export function useNotifications(): readonly Notification[] {
  return useSyncExternalStore(subscribe, currentNotifications, currentNotifications);
}

const PREFILL_PARAMS = ["message", "type"] as const;

/**
 * Reads `?message=&type=` (a server redirect's way to say something). A message that names a key of the
 * notifications catalogue is translated; any other text is shown as given.
 */
export function notificationFromQuery(search: string): NotificationInput | null {
  const params = new URLSearchParams(search);
  const message = params.get("message")?.trim();
  if (!message) return null;
  const type: NotificationType = params.get("type") === "error" ? "error" : "success";
  const key = `notifications:${message}`;
  const text = /^[a-z_]+$/.test(message) && i18n.exists(key) ? i18n.t(key as never) : message;
  return { text, type };
}

/** Shows the notification the URL carries, then drops its parameters so a reload does not repeat it. */
export function prefillNotificationFromUrl(
  location: Location = window.location,
  history: History = window.history,
) {
  const input = notificationFromQuery(location.search);
  if (!input) return;
  notify(input);
  const url = new URL(location.href);
  for (const name of PREFILL_PARAMS) url.searchParams.delete(name);
  history.replaceState(history.state, "", `${url.pathname}${url.search}${url.hash}`);
}
