import type { BookingList } from "@skyward/contracts/bookings";
import { assign, setup } from "xstate";

export const BOOKING_LISTS: readonly BookingList[] = ["new", "issued", "cancelled", "refunded"];

/** Which list a booking status shows under; issued and exchanged both belong to "issued" (seed spec, section 4). */
export function listOfStatus(status: string): BookingList {
  switch (status) {
    case "issued":
    case "exchanged":
      return "issued";
    case "voided":
    case "cancelled":
    case "expired":
      return "cancelled";
    case "refunded":
      return "refunded";
    default:
      return "new";
  }
}

export interface BookingListContext {
  /** Locator, passenger name or ticket number; while set, the server searches every list. */
  query: string;
  page: number;
}

export type BookingListEvent =
  | { type: "list.select"; list: BookingList }
  | { type: "query.change"; query: string }
  | { type: "page.change"; page: number }
  /** A booking was opened: its list is shown, so it sits among its kind. */
  | { type: "booking.opened"; status: string };

const targetList = (event: BookingListEvent): BookingList | null => {
  if (event.type === "list.select") return event.list;
  if (event.type === "booking.opened") return listOfStatus(event.status);
  return null;
};

const toList = (firstPage: boolean) =>
  BOOKING_LISTS.map((list) => ({
    guard: { type: "goesTo" as const, params: { list } },
    target: `.${list}`,
    ...(firstPage ? { actions: "firstPage" as const } : {}),
  }));

/** The booking-list selection (seed spec, section 4): "new" by default; a state per list. */
export const bookingListMachine = setup({
  types: {
    context: {} as BookingListContext,
    events: {} as BookingListEvent,
  },
  guards: {
    goesTo: ({ event }, params: { list: BookingList }) => targetList(event) === params.list,
  },
  actions: {
    firstPage: assign({ page: 1 }),
    setQuery: assign((_, params: { query: string }) => ({ query: params.query, page: 1 })),
    setPage: assign((_, params: { page: number }) => ({ page: Math.max(1, Math.floor(params.page)) })),
  },
}).createMachine({
  id: "bookingList",
  context: { query: "", page: 1 },
  initial: "new",
  on: {
    "list.select": toList(true),
    "booking.opened": toList(false),
    "query.change": { actions: { type: "setQuery", params: ({ event }) => ({ query: event.query }) } },
    "page.change": { actions: { type: "setPage", params: ({ event }) => ({ page: event.page }) } },
  },
  states: {
    new: {},
    issued: {},
    cancelled: {},
    refunded: {},
  },
});
