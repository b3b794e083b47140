import type { EventMetadata } from "@skyward/contracts/metadata";
import type { Money } from "@skyward/contracts/money";
import type { Fare, Flight, PriceDetail, SupplierPrice } from "@skyward/contracts/offers";
import type {
  BookingContacts,
  BookingPassenger,
  SupplierBooking,
  Ticket,
  TravelDocument,
} from "@skyward/contracts/supplier";
import type { NewEvent, StoredEvent } from "@skyward/infra/event-store/types";
import { Conflict, IllegalState } from "@skyward/infra/http/errors";

export const bookingStream = (locator: string) => `booking-${locator}`;

/** What was booked, as offered and priced: kept whole so the booking page never needs the search again. */
export interface BookedFare {
  fare_id: string;
  carrier: string;
  route: string;
  departure_at: string;
  fare: Fare;
  flights: Flight[];
}

export interface BookingHeld {
  locator: string;
  company_id: string;
  agency_id: string;
  agent_id: string;
  channel_id: string;
  /** The supplier's latest word on the booking; null for a fake (demo) booking, which never reaches one. */
  supplier_booking: SupplierBooking | null;
  fare: BookedFare;
  passengers: BookingPassenger[];
  contacts: BookingContacts;
  price: Money;
  price_detail: PriceDetail;
  time_limit: string | null;
  fake_booking: boolean;
  provider_status: "confirmed" | "in_progress" | "failed";
  instant_payment: boolean;
  held_at: string;
}

export interface TicketsIssued {
  tickets: Ticket[];
  issued_at: string;
  void_until: string | null;
  supplier_booking: SupplierBooking | null;
}

type Active = BookingHeld & {
  status: "held" | "ticketing" | "issued" | "voided" | "cancelled" | "expired" | "failed";
  tickets: Ticket[];
  charged: Money | null;
  issued_at: string | null;
  void_until: string | null;
  /** A price the supplier quoted at a failed issue, waiting for the agent to accept it (issue with reshop). */
  pending_price: { price: Money; price_detail: PriceDetail; supplier_price: SupplierPrice | null } | null;
  comments: { text: string; at: string; by: string | null }[];
};

export type BookingState = { status: "none" } | Active;
export type ActiveBooking = Active;
export const initialBooking: BookingState = { status: "none" };

export function evolveBooking(state: BookingState, event: StoredEvent): BookingState {
  const data = event.data as Record<string, unknown>;
  if (event.type === "BookingHeld") {
    const held = data as unknown as BookingHeld;
    return {
      ...held,
      status: held.provider_status === "failed" ? "failed" : "held",
      tickets: [],
      charged: null,
      issued_at: null,
      void_until: null,
      pending_price: null,
      comments: [],
    };
  }
  if (state.status === "none") return state;
  switch (event.type) {
    case "BookingConfirmedByProvider":
      return {
        ...state,
        provider_status: "confirmed",
        supplier_booking: (data.supplier_booking as SupplierBooking | undefined) ?? state.supplier_booking,
      };
    case "BookingFailedByProvider":
      return { ...state, provider_status: "failed", status: "failed" };
    case "TicketingStarted":
      return { ...state, status: "ticketing", charged: (data.charged as Money | null) ?? null };
    case "TicketingFailed":
      return { ...state, status: "held", charged: null };
    case "TicketsIssued": {
      const issued = data as unknown as TicketsIssued;
      return {
        ...state,
        status: "issued",
        tickets: issued.tickets,
        issued_at: issued.issued_at,
        void_until: issued.void_until,
      };
    }
    case "BookingPriceChanged":
      return {
        ...state,
        pending_price: {
          price: data.new_price as Money,
          price_detail: data.new_price_detail as PriceDetail,
          supplier_price: (data.supplier_price as SupplierPrice | undefined) ?? null,
        },
      };
    case "BookingRepriced":
      return {
        ...state,
        price: data.price as Money,
        price_detail: data.price_detail as PriceDetail,
        supplier_booking: (data.supplier_booking as SupplierBooking | undefined) ?? state.supplier_booking,
        pending_price: null,
      };
    case "BookingVoided":
      return { ...state, status: "voided" };
    case "BookingCancelled":
      return { ...state, status: "cancelled" };
    case "BookingExpired":
      return { ...state, status: "expired" };
    case "BookingCommented":
      return {
        ...state,
        comments: [
          ...state.comments,
          { text: data.comment as string, at: data.at as string, by: data.by as string | null },
        ],
      };
    case "BookingModified":
      return {
        ...state,
        contacts: { ...state.contacts, ...(data.contacts as object | undefined) },
        passengers: state.passengers.map((p, i) => {
          const change = (data.passengers as { index: number; document: TravelDocument }[] | undefined)?.find(
            (c) => c.index === i,
          );
          return change ? { ...p, document: change.document } : p;
        }),
      };
    default:
      return state;
  }
}

const event = <T extends string, D>(type: T, data: D, metadata: EventMetadata): NewEvent<T, D> => ({
  type,
  data,
  metadata,
});

function requireBooking(state: BookingState): Active {
  if (state.status === "none") throw new IllegalState("This booking does not exist", "booking_missing");
  return state;
}

export function decideHold(state: BookingState, held: BookingHeld, metadata: EventMetadata) {
  if (state.status !== "none") throw new Conflict("This locator is already taken", "locator_taken");
  return [event("BookingHeld", held, metadata)];
}

/**
 * The first half of issuing: claims the booking so that only one issue can reach the supplier. Returns the amount
 * to charge (null when nothing moves: a fake booking or a card form of payment).
 */
export function decideStartIssue(
  state: BookingState,
  command: { now: Date; pays_by_card: boolean },
  metadata: EventMetadata,
) {
  const booking = requireBooking(state);
  switch (booking.status) {
    case "held":
      break;
    case "ticketing":
      throw new Conflict("This booking is being issued right now", "issue_in_progress");
    case "issued":
      throw new IllegalState("This booking is already issued", "already_issued");
    case "voided":
    case "cancelled":
    case "expired":
    case "failed":
      throw new IllegalState(
        `This booking is ${booking.status} and cannot be issued`,
        `booking_${booking.status}`,
      );
    default:
      return assertNever(booking.status);
  }
  if (booking.provider_status !== "confirmed") {
    throw new IllegalState("The airline has not confirmed this booking yet", "provider_in_progress");
  }
  if (booking.time_limit && new Date(booking.time_limit) <= command.now) {
    throw new IllegalState("The time limit of this booking has passed", "time_limit_passed");
  }
  if (booking.pending_price) {
    throw new IllegalState(
      "The price has changed: reprice the booking to accept the new price first",
      "price_changed",
    );
  }
  const charged = booking.fake_booking || command.pays_by_card ? null : booking.price;
  return {
    events: [event("TicketingStarted", { charged, at: command.now.toISOString() }, metadata)],
    charge: charged,
  };
}

/** Void is allowed until the end of the issue day (UTC) within the channel's window; low-cost carriers allow none. */
export function voidUntil(issuedAt: Date, windowHours: number, lowCost: boolean): Date | null {
  if (lowCost || windowHours === 0) return null;
  const endOfDay = new Date(
    Date.UTC(issuedAt.getUTCFullYear(), issuedAt.getUTCMonth(), issuedAt.getUTCDate(), 23, 59, 59),
  );
  const byWindow = new Date(issuedAt.getTime() + windowHours * 3600_000);
  return byWindow < endOfDay ? byWindow : endOfDay;
}

export function decideVoid(state: BookingState, command: { now: Date }, metadata: EventMetadata) {
  const booking = requireBooking(state);
  if (booking.status !== "issued")
    throw new IllegalState(
      `Only issued tickets can be voided; this booking is ${booking.status}`,
      "not_issued",
    );
  if (!booking.void_until || new Date(booking.void_until) < command.now) {
    throw new IllegalState(
      "The void window of these tickets has closed; request a refund instead",
      "void_window_closed",
    );
  }
  return {
    events: [event("BookingVoided", { at: command.now.toISOString(), credited: booking.charged }, metadata)],
    credit: booking.charged,
  };
}

export function decideCancel(state: BookingState, command: { now: Date }, metadata: EventMetadata) {
  const booking = requireBooking(state);
  if (booking.status !== "held" && booking.status !== "failed") {
    throw new IllegalState(
      `Only held bookings can be cancelled; this booking is ${booking.status}`,
      "not_held",
    );
  }
  return [event("BookingCancelled", { at: command.now.toISOString() }, metadata)];
}

export function decideExpire(state: BookingState, command: { now: Date }, metadata: EventMetadata) {
  const booking = requireBooking(state);
  if (booking.status !== "held" || !booking.time_limit || new Date(booking.time_limit) > command.now)
    return [];
  return [event("BookingExpired", { at: command.now.toISOString() }, metadata)];
}

export function decideComment(
  state: BookingState,
  command: { comment: string; now: Date; by: string | null },
  metadata: EventMetadata,
) {
  requireBooking(state);
  return [
    event(
      "BookingCommented",
      { comment: command.comment, at: command.now.toISOString(), by: command.by },
      metadata,
    ),
  ];
}

export function decideModify(
  state: BookingState,
  command: {
    contacts?: Partial<BookingContacts>;
    passengers?: { index: number; document: TravelDocument }[];
  },
  metadata: EventMetadata,
) {
  const booking = requireBooking(state);
  if (booking.status !== "held" && booking.status !== "issued") {
    throw new IllegalState(`A ${booking.status} booking cannot be modified`, "not_modifiable");
  }
  for (const p of command.passengers ?? []) {
    if (p.index >= booking.passengers.length)
      throw new IllegalState(`There is no passenger ${p.index + 1}`, "no_such_passenger");
  }
  return [event("BookingModified", command, metadata)];
}

export function decideReprice(
  state: BookingState,
  command: { price: Money; price_detail: PriceDetail; supplier_booking: SupplierBooking | null },
  metadata: EventMetadata,
) {
  const booking = requireBooking(state);
  if (booking.status !== "held")
    throw new IllegalState(
      `Only held bookings can be repriced; this booking is ${booking.status}`,
      "not_held",
    );
  return [event("BookingRepriced", command, metadata)];
}

function assertNever(value: never): never {
  throw new Error(`unhandled ${String(value)}`);
}
