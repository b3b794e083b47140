import { describe, expect, it } from "@jest/globals";
import type { UserNotificationEvent } from "@skyward/contracts/agent-notifications";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { decideInbox, evolveInbox, type InboxCommand, noInbox } from "./inbox.ts";

const now = new Date("2026-11-29T08:00:00.000Z");
const user_id = "user-1";
const fold = (events: UserNotificationEvent[]) =>
  events.reduce((state, e) => evolveInbox(state, { type: e.type, data: e.data } as StoredEvent), noInbox);
const given = (events: UserNotificationEvent[]) => ({
  when: (command: InboxCommand) => decideInbox(command, fold(events)),
});

describe("a user's notification inbox", () => {
  it("given nothing, every kind is on in the app and by mail", () => {
    expect(Object.values(noInbox).every((s) => s.in_app && s.mail)).toBe(true);
  });

  it("given nothing, when the user turns a kind's mail off, then one event says so; the same again changes nothing", () => {
    const off: InboxCommand = {
      type: "ChangeSettings",
      user_id,
      settings: [
        { kind: "issued", in_app: true, mail: false },
        { kind: "schedule_change", in_app: true, mail: true },
      ],
      now,
    };
    const events = given([]).when(off);
    expect(events).toEqual([
      {
        type: "NotificationSettingChanged",
        data: { user_id, kind: "issued", in_app: true, mail: false, at: now.toISOString() },
      },
    ]);
    expect(given(events).when(off)).toEqual([]);
    expect(fold(events).issued).toEqual({ in_app: true, mail: false });
  });

  it("when the user marks all read, then the mark names no ids; marking some names each once", () => {
    expect(given([]).when({ type: "MarkRead", user_id, notification_ids: ["a"], all: true, now })).toEqual([
      {
        type: "NotificationsMarkedRead",
        data: { user_id, notification_ids: [], all: true, at: now.toISOString() },
      },
    ]);
    const [some] = given([]).when({
      type: "MarkRead",
      user_id,
      notification_ids: ["a", "b", "a"],
      all: false,
      now,
    });
    expect(some?.data).toMatchObject({ notification_ids: ["a", "b"], all: false });
  });
});
