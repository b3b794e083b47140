import type { BookingEventInput, BookingModified } from "@skyward/contracts/booking-events";
import { allows } from "@skyward/contracts/booking-lifecycle";
import { refuse } from "@skyward/infra/refusal";
import type { ActiveBooking, BookingCommandOf } from "./booking-state.ts";

/* What a booking records in any open phase (booking.ts dispatches here): comments, contacts and documents. */

export function commentBooking(command: BookingCommandOf<"CommentBooking">): BookingEventInput[] {
  return [
    {
      type: "BookingCommented",
      data: { comment: command.comment, at: command.now.toISOString(), by: command.by },
    },
  ];
}

export function modifyBooking(
  state: ActiveBooking,
  command: BookingCommandOf<"ModifyBooking">,
): BookingEventInput[] {
  if (!allows(state.status, "modify")) {
    throw refuse.notAllowed(`A ${state.status} booking cannot be modified`, "not_modifiable");
  }
  for (const p of command.change.passengers ?? []) {
    if (p.index >= state.passengers.length)
      throw refuse.notAllowed(`There is no passenger ${p.index + 1}`, "no_such_passenger");
  }
  // A change that changes nothing is refused rather than recorded: the booking's history shows only changes.
  if (!changesSomething(state, command.change))
    throw refuse.notAllowed(
      "Nothing to change: send contacts or documents that differ from the booking's",
      "nothing_to_change",
    );
  return [{ type: "BookingModified", data: command.change }];
}

function changesSomething(state: ActiveBooking, change: BookingModified): boolean {
  const contacts = Object.entries(change.contacts ?? {}) as [keyof ActiveBooking["contacts"], string][];
  const sameDocument = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    Object.keys({ ...a, ...b }).every((key) => a[key] === b[key]);
  return (
    contacts.some(([key, value]) => state.contacts[key] !== value) ||
    (change.passengers ?? []).some(
      (p) => !sameDocument(state.passengers[p.index]?.document ?? {}, p.document),
    )
  );
}

export function modified(state: ActiveBooking, change: BookingModified): ActiveBooking {
  return {
    ...state,
    contacts: { ...state.contacts, ...change.contacts },
    passengers: state.passengers.map((p, i) => {
      const document = change.passengers?.find((c) => c.index === i)?.document;
      return document ? { ...p, document } : p;
    }),
  };
}
