import {
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationSetting,
  notificationsStream,
  UserNotificationEvent,
} from "@skyward/contracts/agent-notifications";
import { unhandledEvent } from "@skyward/contracts/events";
import { formatPosition } from "@skyward/contracts/position";
import { decidedAppends, runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import type { CommandDeps } from "../deps.ts";

/**
 * A user's own notification inbox (issue 24, item 2), stream `notifications-{user_id}`: their switches per kind (both
 * on until turned off) and the notifications they read. Only the user writes it, and only about themselves: the
 * projection applies a read mark to that user's notifications alone.
 */

export type InboxState = Record<NotificationKind, { in_app: boolean; mail: boolean }>;
export const noInbox: InboxState = Object.fromEntries(
  NOTIFICATION_KINDS.map((kind) => [kind, { in_app: true, mail: true }]),
) as InboxState;

export function evolveInbox(state: InboxState, stored: StoredEvent): InboxState {
  const event = UserNotificationEvent.parse({ type: stored.type, data: stored.data });
  switch (event.type) {
    case "NotificationSettingChanged":
      return { ...state, [event.data.kind]: { in_app: event.data.in_app, mail: event.data.mail } };
    case "NotificationsMarkedRead":
      return state;
    default:
      return unhandledEvent(event);
  }
}

export type InboxCommand =
  | { type: "ChangeSettings"; user_id: string; settings: NotificationSetting[]; now: Date }
  | { type: "MarkRead"; user_id: string; notification_ids: string[]; all: boolean; now: Date };

/** One event per kind whose switches change; a read mark always (reading twice is harmless and says when). */
export function decideInbox(command: InboxCommand, state: InboxState): UserNotificationEvent[] {
  const at = command.now.toISOString();
  switch (command.type) {
    case "ChangeSettings":
      return command.settings
        .filter((s) => state[s.kind].in_app !== s.in_app || state[s.kind].mail !== s.mail)
        .map((s) => ({
          type: "NotificationSettingChanged",
          data: { user_id: command.user_id, kind: s.kind, in_app: s.in_app, mail: s.mail, at },
        }));
    case "MarkRead":
      return [
        {
          type: "NotificationsMarkedRead",
          data: {
            user_id: command.user_id,
            notification_ids: command.all ? [] : [...new Set(command.notification_ids)],
            all: command.all,
            at,
          },
        },
      ];
    default:
      return unhandledEvent(command);
  }
}

export const settingsList = (state: InboxState): NotificationSetting[] =>
  NOTIFICATION_KINDS.map((kind) => ({ kind, ...state[kind] }));

/** Runs a command on the caller's own inbox stream; answers the state after it and the position of its events. */
export async function runInboxCommand(
  deps: CommandDeps,
  context: RequestContext,
  p: Principal,
  command: InboxCommand,
): Promise<{ state: InboxState; position: string | null }> {
  const stream = notificationsStream(p.userId);
  const metadata = metadataFor(context);
  const { result, append } = await runCommand(deps.store, async (cmd) => {
    const { state, version } = await cmd.load(stream, evolveInbox, noInbox);
    const events = decideInbox(command, state);
    const after = events.reduce(
      (s, e) => evolveInbox(s, { type: e.type, data: e.data } as StoredEvent),
      state,
    );
    return {
      appends: decidedAppends(stream, version, events, metadata),
      result: after,
    };
  });
  return { state: result, position: append.position ? formatPosition(append.position) : null };
}
