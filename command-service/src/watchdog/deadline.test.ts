import { describe, expect, it } from "@jest/globals";
import { autoCancelDueAt, DeadlineEvent, reminderDueAt } from "@skyward/contracts/deadline-events";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { type DeadlineCommand, decideDeadline, evolveDeadline, initialDeadline } from "./deadline.ts";

const scope = {
  locator: "E426RA",
  agency_id: "a1",
  company_id: "c1",
  agent_id: "u1",
  fake_booking: false,
  time_limit: "2026-11-25T12:00:00.000Z",
};
const remind: DeadlineCommand = {
  type: "RecordReminder",
  reminder: { ...scope, at: "2026-11-25T11:00:00.000Z", auto_cancel_at: null, emailed_to: "agent@x.test" },
};
const cancel: DeadlineCommand = {
  type: "RecordAutoCancel",
  cancelled: { ...scope, at: "2026-11-25T11:50:00.000Z", operation_id: "op-1" },
};

/** given(events).when(command) → the events the watchdog's decider records. */
const given = (...commands: DeadlineCommand[]) => {
  let state = initialDeadline;
  let position = 0;
  for (const command of commands)
    for (const event of decideDeadline(command, state))
      state = evolveDeadline(state, { ...event, streamPosition: ++position } as unknown as StoredEvent);
  return { when: (command: DeadlineCommand) => decideDeadline(command, state) };
};

describe("ticketing-deadline decider", () => {
  it("records the reminder once: a second reminder of the same booking decides nothing", () => {
    const first = given().when(remind);
    expect(first).toEqual([{ type: "TimeLimitReminderSent", data: remind.reminder }]);
    expect(() => DeadlineEvent.parse(first[0])).not.toThrow();
    expect(given(remind).when(remind)).toEqual([]);
  });

  it("records the automatic cancellation once, after the reminder", () => {
    expect(given(remind).when(cancel)).toEqual([
      { type: "HeldBookingAutoCancelled", data: cancel.cancelled },
    ]);
    expect(given(remind, cancel).when(cancel)).toEqual([]);
  });

  it("reminds an hour before the time limit, or halfway through a shorter hold, and cancels ten minutes before", () => {
    const limit = new Date("2026-11-25T12:00:00.000Z");
    expect(reminderDueAt(new Date("2026-11-24T12:00:00.000Z"), limit).toISOString()).toBe(
      "2026-11-25T11:00:00.000Z",
    );
    // A low-cost carrier's one-hour hold: reminded after half an hour, not at once.
    expect(reminderDueAt(new Date("2026-11-25T11:00:00.000Z"), limit).toISOString()).toBe(
      "2026-11-25T11:30:00.000Z",
    );
    expect(autoCancelDueAt(limit).toISOString()).toBe("2026-11-25T11:50:00.000Z");
  });
});
