import type { BookingEventInput, BookingModified } from "@skyward/contracts/booking-events";
import { allows } from "@skyward/contracts/booking-lifecycle";
import { loyaltyRefusal, type PassengerServices } from "@skyward/contracts/passenger-services";
import { type FieldProblem, refuse } from "@skyward/infra/refusal";
import type { ActiveBooking, BookingCommandOf } from "./booking-state.ts";

/*
 * What a booking records in any open phase (booking.ts dispatches here): comments, contacts, documents, and the
 * passengers' loyalty numbers and special-service requests (issue 23).
 */

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
  const services = changedServices(state, command.services ?? []);
  const changes = changesSomething(state, command.change);
  // A change that changes nothing is refused rather than recorded: the booking's history shows only changes.
  if (!changes && services.length === 0)
    throw refuse.notAllowed(
      "Nothing to change: send contacts, documents, loyalty numbers or SSRs that differ from the booking's",
      "nothing_to_change",
    );
  return [
    ...(changes ? [{ type: "BookingModified" as const, data: command.change }] : []),
    ...(services.length > 0
      ? [{ type: "PassengerServicesRequested" as const, data: { passengers: services } }]
      : []),
  ];
}

/**
 * The services a modify changes: each entry merged onto what its passenger has, kept only when it differs; a loyalty
 * number every marketing carrier of the flights must accept, refused on its field otherwise.
 */
function changedServices(
  state: ActiveBooking,
  requested: readonly Partial<PassengerServices>[],
): PassengerServices[] {
  const carriers = state.fare.flights.flatMap((f) => f.segments.map((segment) => segment.carrier));
  const problems: FieldProblem[] = [];
  const changed = requested.flatMap((entry, at) => {
    if (entry.index === undefined || (entry.loyalty === undefined && entry.ssrs === undefined)) return [];
    const index = entry.index;
    if (index >= state.passengers.length)
      throw refuse.notAllowed(`There is no passenger ${index + 1}`, "no_such_passenger");
    const had = state.passenger_services?.find((s) => s.index === index) ?? {
      index,
      loyalty: null,
      ssrs: [],
    };
    const next = {
      index,
      loyalty: entry.loyalty === undefined ? had.loyalty : entry.loyalty,
      ssrs: entry.ssrs ?? had.ssrs,
    };
    const refusal = next.loyalty && entry.loyalty ? loyaltyRefusal(carriers, next.loyalty.carrier) : null;
    if (refusal)
      problems.push({ pointer: `/passengers/${at}/loyalty/carrier`, detail: refusal, location: "body" });
    return JSON.stringify(next) === JSON.stringify(had) ? [] : [next];
  });
  if (problems.length > 0) throw refuse.invalid(problems);
  return changed;
}

/** Each named passenger's services replace what they had; the others keep theirs. */
export const withServices = (
  kept: readonly PassengerServices[] = [],
  changed: readonly PassengerServices[],
) =>
  [...kept.filter((k) => !changed.some((c) => c.index === k.index)), ...changed].sort(
    (a, b) => a.index - b.index,
  );

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
