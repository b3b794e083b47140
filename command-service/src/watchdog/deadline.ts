import {
  DeadlineEvent,
  type HeldBookingAutoCancelled,
  type TimeLimitReminderSent,
} from "@skyward/contracts/deadline-events";
import { unhandledEvent } from "@skyward/contracts/events";
import type { StoredEvent } from "@skyward/infra/event-store/types";

/** The watchdog's stream of one held booking: its reminder and its automatic cancellation, each at most once. */
export const deadlineStream = (locator: string) => `deadline-${locator}`;

export interface DeadlineState {
  reminded_at: string | null;
  auto_cancelled_at: string | null;
}

export const initialDeadline: DeadlineState = { reminded_at: null, auto_cancelled_at: null };

export type DeadlineCommand =
  | { type: "RecordReminder"; reminder: TimeLimitReminderSent }
  | { type: "RecordAutoCancel"; cancelled: HeldBookingAutoCancelled };

export function evolveDeadline(state: DeadlineState, stored: StoredEvent): DeadlineState {
  const event = DeadlineEvent.parse({ type: stored.type, data: stored.data });
  switch (event.type) {
    case "TimeLimitReminderSent":
      return { ...state, reminded_at: event.data.at };
    case "HeldBookingAutoCancelled":
      return { ...state, auto_cancelled_at: event.data.at };
    default:
      return unhandledEvent(event);
  }
}

/** Once each: a second reminder or a second record of the cancellation decides nothing. */
export function decideDeadline(command: DeadlineCommand, state: DeadlineState): DeadlineEvent[] {
  switch (command.type) {
    case "RecordReminder":
      return state.reminded_at ? [] : [{ type: "TimeLimitReminderSent", data: command.reminder }];
    case "RecordAutoCancel":
      return state.auto_cancelled_at ? [] : [{ type: "HeldBookingAutoCancelled", data: command.cancelled }];
    default:
      return unhandledEvent(command);
  }
}
