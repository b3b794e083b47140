import type { AncillaryLine } from "@skyward/contracts/ancillaries";
import { firstDeparture } from "@skyward/contracts/booking-actions";
import type { BookingCommand } from "@skyward/contracts/booking-commands";
import type { BookingEvent, BookingEventInput } from "@skyward/contracts/booking-events";
import { allows, transitionOf } from "@skyward/contracts/booking-lifecycle";
import { type Money, money } from "@skyward/contracts/money";
import type { SupplierBooking } from "@skyward/contracts/supplier";
import { refuse } from "@skyward/infra/refusal";
import type { ActiveBooking } from "../bookings/booking-state.ts";
import { decidePayment } from "../ticketing/card.ts";

/**
 * The ancillary part of the booking decider (booking.ts delegates here): ancillaries added to a held booking are
 * charged with the issue and get their EMDs with the tickets; after issue they are an operation of their own whose
 * claim charges the balance for their EMDs, and an unused EMD is refunded by another, which credits it back once.
 */

type AncillaryEvent = Extract<
  BookingEvent,
  {
    type:
      | "AncillariesStarted"
      | "AncillariesAdded"
      | "AncillariesFailed"
      | "EmdsIssued"
      | "EmdRefundStarted"
      | "EmdRefunded"
      | "EmdRefundFailed";
  }
>;
type AncillaryCommand = Extract<
  BookingCommand,
  {
    type:
      | "StartAncillaries"
      | "RecordAncillariesOutcome"
      | "RecordEmdsIssued"
      | "StartEmdRefund"
      | "RecordEmdRefundOutcome";
  }
>;

const plus = (a: Money | null, b: Money | null): Money | null =>
  b === null ? a : a === null ? b : money(a.amount + b.amount, a.currency);
const minus = (a: Money | null, b: Money | null): Money | null =>
  b === null || a === null ? a : money(a.amount - b.amount, a.currency);

/** Lines that still hold their ancillary (not refunded, not voided). */
export const openLines = (lines: readonly AncillaryLine[]) =>
  lines.filter((l) => l.status !== "refunded" && l.status !== "voided");

const replaced = (lines: readonly AncillaryLine[], changed: readonly AncillaryLine[]) =>
  lines.map((l) => changed.find((c) => c.line_id === l.line_id) ?? l);

export function evolveAncillaries(state: ActiveBooking, event: AncillaryEvent): ActiveBooking {
  // An outcome closes the operation, as the lifecycle table says; each start opens its own below.
  const closed = transitionOf(event.type).operation === "closes" ? { ...state, operation: null } : state;
  switch (event.type) {
    case "AncillariesStarted":
      return {
        ...state,
        charged: plus(state.charged, event.data.charged),
        operation: {
          id: event.data.operation_id,
          kind: "ancillaries",
          started_at: event.data.at,
          charged: event.data.charged,
          lines: event.data.lines,
        },
      };
    case "AncillariesAdded":
      return {
        ...closed,
        ancillaries: [...state.ancillaries, ...event.data.lines],
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
      };
    case "AncillariesFailed":
      return { ...closed, charged: minus(state.charged, event.data.credited) };
    case "EmdsIssued":
      return {
        ...state,
        ancillaries: replaced(state.ancillaries, event.data.lines),
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
      };
    case "EmdRefundStarted":
      return {
        ...state,
        operation: {
          id: event.data.operation_id,
          kind: "emd_refund",
          started_at: event.data.at,
          charged: null,
          emd_number: event.data.emd_number,
        },
      };
    case "EmdRefunded":
      return {
        ...closed,
        refunded: plus(state.refunded, event.data.credited),
        ancillaries: state.ancillaries.map((l) =>
          l.line_id === event.data.line_id ? { ...l, status: "refunded" } : l,
        ),
        supplier_booking: event.data.supplier_booking ?? state.supplier_booking,
      };
    case "EmdRefundFailed":
      return closed;
  }
}

export function decideAncillaries(command: AncillaryCommand, state: ActiveBooking): BookingEventInput[] {
  switch (command.type) {
    case "StartAncillaries":
      return startAncillaries(state, command);
    case "RecordAncillariesOutcome": {
      const open = state.operation;
      if (open?.id !== command.operation_id || open.kind !== "ancillaries") return [];
      const { outcome } = command;
      if (!outcome.ok)
        return [
          {
            type: "AncillariesFailed",
            data: {
              operation_id: open.id,
              code: outcome.code,
              reason: outcome.reason,
              credited: open.charged,
            },
          },
        ];
      const lines = (open.lines ?? []).map((line): AncillaryLine => {
        const taken = outcome.done.taken.find(
          (t) =>
            t.ancillary_id === line.ancillary_id &&
            t.passenger_index === line.passenger_index &&
            (t.seat ?? null) === line.seat,
        );
        if (!taken) return line;
        return { ...line, emd_number: taken.emd_number, status: taken.status };
      });
      return [
        {
          type: "AncillariesAdded",
          data: {
            operation_id: open.id,
            at: command.now.toISOString(),
            lines,
            supplier_booking: outcome.done.supplier_booking,
          },
        },
      ];
    }
    case "RecordEmdsIssued": {
      const lines = state.ancillaries.flatMap((l) => {
        const emd = command.emds.find((e) => e.line_id === l.line_id);
        return l.status === "pending" && emd
          ? [{ ...l, emd_number: emd.emd_number, status: "issued" as const }]
          : [];
      });
      if (lines.length === 0) return [];
      return [
        {
          type: "EmdsIssued",
          data: {
            at: command.now.toISOString(),
            lines,
            paid_with: "ancillaries",
            supplier_booking: command.supplier_booking,
          },
        },
      ];
    }
    case "StartEmdRefund": {
      if (!allows(state.status, "refund_emd"))
        throw refuse.notAllowed(`This booking is ${state.status}: its EMDs cannot be refunded`, "not_issued");
      const line = state.ancillaries.find((l) => l.emd_number === command.emd_number);
      if (line?.status !== "issued")
        throw refuse.notAllowed(
          `EMD ${command.emd_number} is not open on this booking`,
          "emd_not_refundable",
        );
      const segment = state.fare.flights.flatMap((f) => f.segments).find((s) => s.id === line.segment_id);
      if (segment && new Date(segment.departure_at) <= command.now)
        throw refuse.notAllowed(`The flight of EMD ${command.emd_number} has departed`, "emd_used");
      return [
        {
          type: "EmdRefundStarted",
          data: {
            operation_id: command.operation_id,
            at: command.now.toISOString(),
            emd_number: command.emd_number,
          },
        },
      ];
    }
    case "RecordEmdRefundOutcome": {
      const open = state.operation;
      if (open?.id !== command.operation_id || open.kind !== "emd_refund") return [];
      const { outcome } = command;
      const line = state.ancillaries.find((l) => l.emd_number === open.emd_number && l.status === "issued");
      if (!outcome.ok || !line) {
        const failure = outcome.ok
          ? { code: "emd_not_refundable", reason: "The EMD changed while it was refunded" }
          : { code: outcome.code, reason: outcome.reason };
        return [{ type: "EmdRefundFailed", data: { operation_id: open.id, ...failure } }];
      }
      return [
        {
          type: "EmdRefunded",
          data: {
            operation_id: open.id,
            at: command.now.toISOString(),
            emd_number: line.emd_number ?? "",
            line_id: line.line_id,
            refunded: line.price,
            // Money moves back only where it came from: a balance charge (not a card, not a demo booking).
            credited: state.charged && line.price.amount > 0 ? line.price : null,
            supplier_booking: outcome.done.supplier_booking,
          },
        },
      ];
    }
  }
}

/**
 * The claim of ancillaries: on a held booking (confirmed, within its time limit) they are added, to be charged with
 * the issue; on issued tickets before departure their EMDs are charged now. Every line names a passenger who can have
 * it and a segment of the booking; a passenger has each bag once and one seat per segment.
 */
function startAncillaries(
  state: ActiveBooking,
  command: Extract<BookingCommand, { type: "StartAncillaries" }>,
): BookingEventInput[] {
  const held = state.status === "held";
  if (held) {
    if (state.provider_status !== "confirmed")
      throw refuse.notAllowed("The airline has not confirmed this booking yet", "provider_in_progress");
    if (state.time_limit && new Date(state.time_limit) <= command.now)
      throw refuse.notAllowed("The time limit of this booking has passed", "time_limit_passed");
  } else {
    if (!allows(state.status, "add_bags"))
      throw refuse.notAllowed(
        `Ancillaries can be added to held or issued bookings; this booking is ${state.status}`,
        "not_issued",
      );
    const departure = firstDeparture(state.fare.flights);
    if (departure && new Date(departure) <= command.now)
      throw refuse.notAllowed("The journey has begun: ask the airline at the airport", "departed");
  }
  const segments = new Set(state.fare.flights.flatMap((f) => f.segments.map((s) => s.id)));
  const taken = [...openLines(state.ancillaries)];
  for (const line of command.lines) {
    const passenger = state.passengers[line.passenger_index];
    if (!passenger || passenger.type === "infant" || state.refunded_passengers.includes(line.passenger_index))
      throw refuse.notAllowed(
        `Passenger ${line.passenger_index + 1} cannot have ${line.title}`,
        "no_such_passenger",
      );
    if (segments.size > 0 && !segments.has(line.segment_id))
      throw refuse.notAllowed(`${line.title} is not sold on this booking's flights`, "no_such_segment");
    const samePassengerSegment = (l: AncillaryLine) =>
      l.passenger_index === line.passenger_index && l.segment_id === line.segment_id;
    if (line.type === "seat") {
      if (taken.some((l) => l.type === "seat" && l.segment_id === line.segment_id && l.seat === line.seat))
        throw refuse.conflict(`Seat ${line.seat} is already taken`, "seat_taken");
      if (taken.some((l) => l.type === "seat" && samePassengerSegment(l)))
        throw refuse.conflict("This passenger already has a seat on this flight", "seat_already_assigned");
    } else if (taken.some((l) => l.ancillary_id === line.ancillary_id && samePassengerSegment(l))) {
      throw refuse.conflict(`${line.title} is already booked for this passenger`, "ancillary_already_booked");
    }
    taken.push(line);
  }
  const total = command.lines.reduce((sum, l) => sum + l.price.amount, 0);
  // Held lines are paid with the tickets (the issue decides how); free ones need nothing.
  const paidBy = held || total === 0 ? null : decidePayment(command.payment, command.now);
  const charged =
    paidBy?.method !== "balance" || state.fake_booking ? null : money(total, state.price.currency);
  return [
    {
      type: "AncillariesStarted",
      data: {
        operation_id: command.operation_id,
        at: command.now.toISOString(),
        lines: command.lines.map((l) => ({ ...l, status: held ? "held" : "pending", emd_number: null })),
        charged,
        paid_by: paidBy,
      },
    },
  ];
}

/**
 * EMDs the tickets brought: lines added while held, numbered by the airline at issue (matched by item, passenger
 * and seat). A free seat has none and is simply assigned.
 */
export function emdsAtIssue(
  state: ActiveBooking,
  supplierBooking: SupplierBooking | null,
  now: string,
): BookingEventInput[] {
  const booked = supplierBooking?.ancillaries ?? [];
  const lines = state.ancillaries.flatMap((l): AncillaryLine[] => {
    if (l.status !== "held") return [];
    const match = booked.find(
      (a) =>
        a.ancillary_id === l.ancillary_id &&
        a.passenger_index === l.passenger_index &&
        (a.seat ?? null) === l.seat,
    );
    if (match?.emd_number) return [{ ...l, emd_number: match.emd_number, status: "issued" }];
    return l.price.amount === 0 || (supplierBooking === null && state.fake_booking)
      ? [{ ...l, status: "assigned" }]
      : [];
  });
  if (lines.length === 0) return [];
  return [
    {
      type: "EmdsIssued",
      data: { at: now, lines, paid_with: "issue", supplier_booking: null },
    },
  ];
}
