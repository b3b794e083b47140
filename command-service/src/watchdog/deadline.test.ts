import { describe, expect, it } from "@jest/globals";
import { autoCancelDueAt, DeadlineEvent, reminderDueAt } from "@skyward/contracts/deadline-events";
import type { StoredEvent } from "@skyward/infra/event-store/types";
import { deciderKit } from "../testing/decider-kit.ts";
import {
  type DeadlineCommand,
  type DeadlineState,
  decideDeadline,
  evolveDeadline,
  initialDeadline,
} from "./deadline.ts";

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

const reminded: DeadlineEvent = { type: "TimeLimitReminderSent", data: remind.reminder };
const autoCancelled: DeadlineEvent = { type: "HeldBookingAutoCancelled", data: cancel.cancelled };

/** given(events).when(command) → thenEvents: the events the watchdog's decider records (each valid). */
const { given } = deciderKit<DeadlineCommand, DeadlineState, DeadlineEvent>({
  decide: decideDeadline,
  evolve: (state, event) => evolveDeadline(state, event as StoredEvent),
  initial: initialDeadline,
  check: (e) => DeadlineEvent.parse(e),
});

describe("ticketing-deadline decider", () => {
  it("records the reminder once: a second reminder of the same booking decides nothing", () => {
    given()
      .when(remind)
      .thenEvents([{ type: "TimeLimitReminderSent", data: remind.reminder }]);
    given(reminded).when(remind).thenEvents([]);
  });

  it("records the automatic cancellation once, after the reminder", () => {
    given(reminded)
      .when(cancel)
      .thenEvents([{ type: "HeldBookingAutoCancelled", data: cancel.cancelled }]);
    given(reminded, autoCancelled).when(cancel).thenEvents([]);
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
