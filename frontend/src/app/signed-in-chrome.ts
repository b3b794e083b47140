/**
 * What the header adds once someone is signed in, the bell and the keyboard shortcuts: one chunk with the first
 * signed-in screen (one request rather than two), and none on a signed-out visitor's first page.
 */
export { NotificationBell } from "../features/agent-notifications/components/notification-bell.tsx";
export { KeyboardShortcuts } from "./shortcuts.tsx";
