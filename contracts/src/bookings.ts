import { z } from "zod";
import { AncillaryLine } from "./ancillaries.ts";
import { RefundLine, RefundQuoted, ReshopPricedOffer, ScheduleChanged } from "./booking-events.ts";
import { PaidBy } from "./cards.ts";
import { ErrorEnvelope } from "./errors.ts";
import { Money } from "./money.ts";
import { Fare, Flight, IsoDate, MAX_SLICES, PriceDetail, SearchResult, SliceFareRule } from "./offers.ts";
import { LoyaltyNumber, SsrCodes } from "./passenger-services.ts";
import { Position } from "./position.ts";
import {
  BookingContacts,
  BookingPassenger,
  ProviderStatus,
  ScheduleChangeChoice,
  Ticket,
  TravelDocument,
} from "./supplier.ts";

/** 6 characters from an alphabet without 0/O/1/I/L. */
export const Locator = z.string().regex(/^[2-9A-HJKMNP-Z]{6}$/, "must be a 6-character booking locator");
/** POST /bookings */
/** A passenger to book, with the loyalty number and SSRs sent to the airline (issue 23). */
export const PassengerToBook = BookingPassenger.extend({
  loyalty: LoyaltyNumber.optional(),
  ssrs: SsrCodes.optional(),
});
export type PassengerToBook = z.infer<typeof PassengerToBook>;
export const BookOfferRequest = z.object({
  search_result_id: z.string().min(1).max(100),
  fare_id: z.string().min(1).max(200),
  passengers: z.array(PassengerToBook).min(1).max(9),
  contacts: BookingContacts,
});
export type BookOfferRequest = z.infer<typeof BookOfferRequest>;

export const BookOfferResponse = z.object({
  locator: Locator,
  time_limit: z.string().nullable(),
  fake_booking: z.boolean(),
  provider_status: z.enum(["confirmed", "in_progress", "failed"]),
  error: z.string().nullable(),
  price: Money,
  /** Instant-payment fares are issued by the booking call itself: status "issued" with the tickets. */
  instant_payment: z.boolean(),
  status: z.enum(["held", "issued"]),
  tickets: z.array(Ticket).optional(),
  position: Position.nullable(),
});
export type BookOfferResponse = z.infer<typeof BookOfferResponse>;

export const IssueRequest = z.object({ locator: Locator, reshop: z.boolean().optional() });
/**
 * What an issue charges, split: the fare (the booking's `price`, which stays the fare's price as booked) and the
 * extras (bags and seats added while held, paid with the tickets); `total` is what issue takes.
 */
export const IssueCharge = z.object({ fare: Money, extras: Money, total: Money });
export type IssueCharge = z.infer<typeof IssueCharge>;
/** `POST /bookings/issue` answers the tickets, what the issue cost and what the company balance was charged. */
export const IssueResponse = z.object({
  locator: Locator,
  status: z.literal("issued"),
  tickets: z.array(Ticket),
  void_until: z.string().nullable(),
  /** Fare + extras, as the booking page and its confirmation showed them. */
  charge: IssueCharge,
  /** What the company balance was charged: the charge's total, or null when no balance moves (demo, card). */
  charged: Money.nullable(),
  position: Position.nullable(),
});
export type IssueResponse = z.infer<typeof IssueResponse>;
export const LocatorRequest = z.object({ locator: Locator });
/** `POST /bookings/reprice` answers today's price; `changed` when it replaced the booking's (then a position). */
export const RepriceResponse = z.object({
  locator: Locator,
  changed: z.boolean(),
  price: Money,
  price_detail: PriceDetail,
  position: Position.nullable(),
});
export type RepriceResponse = z.infer<typeof RepriceResponse>;
/** `POST /bookings/reshop` answers a fresh search of the held booking's journey, to book from. */
export const ReshopHeldResponse = z.object({ locator: Locator, result: SearchResult });
export type ReshopHeldResponse = z.infer<typeof ReshopHeldResponse>;
/** `DELETE /bookings/{locator}`: an issued booking voided, a held one cancelled. */
export const VoidOrCancelResponse = z.object({
  locator: Locator,
  status: z.enum(["voided", "cancelled"]),
  position: Position.nullable(),
});
export type VoidOrCancelResponse = z.infer<typeof VoidOrCancelResponse>;
/** What a comment or a modify of a booking answers: the feed position to read the booking at. */
export const BookingChangeResponse = z.object({ locator: Locator, position: Position.nullable() });
export type BookingChangeResponse = z.infer<typeof BookingChangeResponse>;
export const CommentRequest = z.object({ locator: Locator, comment: z.string().trim().min(1).max(2000) });
export const ModifyRequest = z.object({
  locator: Locator,
  contacts: BookingContacts.partial().optional(),
  passengers: z
    .array(
      z.object({
        index: z.number().int().min(0).max(8),
        document: TravelDocument.optional(),
        /** The passenger's loyalty number from now on (null: none); absent: unchanged. */
        loyalty: LoyaltyNumber.nullable().optional(),
        /** The passenger's whole set of SSRs from now on; absent: unchanged. */
        ssrs: SsrCodes.optional(),
      }),
    )
    .max(9)
    .optional(),
});
export type ModifyRequest = z.infer<typeof ModifyRequest>;

/** POST /orders/{locator}/refund_requests/create: the passengers (indexes) to refund; all not yet refunded if absent. */
export const RefundCreateRequest = z.object({
  passengers: z.array(z.number().int().min(0).max(8)).min(1).max(9).optional(),
});
/** POST /orders/{locator}/refund_requests/confirm: the quote the agent saw. */
export const RefundConfirmRequest = z.object({ quote_id: z.string().min(1).max(100) });
/**
 * POST /orders/{locator}/flights_change_requests/create: the new dates of the same journey; or, with `slice`, the new
 * date of that one slice (0 the first) of a round trip or multi-city journey, the other slices keeping their flights.
 */
export const FlightsChangeCreateRequest = z
  .object({
    departure_date: IsoDate,
    return_date: IsoDate.optional(),
    slice: z
      .number()
      .int()
      .min(0)
      .max(MAX_SLICES - 1)
      .optional(),
  })
  .refine((r) => r.return_date === undefined || r.return_date >= r.departure_date, {
    path: ["return_date"],
    message: "must not be before the departure date",
  })
  .refine((r) => r.slice === undefined || r.return_date === undefined, {
    path: ["return_date"],
    message: "must be empty when one slice is changed: its new date is the departure date",
  });
/** POST /orders/{locator}/flights_change_requests/confirm: the reshop offer the agent chose. */
export const FlightsChangeConfirmRequest = z.object({ reshop_offer_id: z.string().min(1).max(200) });
/** POST /orders/{locator}/schedule_change/answer: the airline's change the agent saw, and the answer. */
export const ScheduleChangeAnswerRequest = z
  .object({
    change_id: z.string().min(1).max(100),
    choice: ScheduleChangeChoice,
    /** The alternative flight an exchange takes (the change's `alternatives`). */
    option_id: z.string().min(1).max(100).optional(),
  })
  .refine((r) => r.choice !== "exchange" || r.option_id !== undefined, {
    path: ["option_id"],
    message: "is required for an exchange",
  });
/** `POST /orders/{locator}/schedule_change/check`: recorded (a new change), known (recorded before) or none. */
export const ScheduleChangeCheckResponse = z.object({
  locator: Locator,
  outcome: z.enum(["recorded", "known", "none"]),
  change_id: z.string().nullable(),
  /** The recording's position; null when nothing was written. */
  position: Position.nullable(),
});
export type ScheduleChangeCheckResponse = z.infer<typeof ScheduleChangeCheckResponse>;
/** `POST /orders/{locator}/schedule_change/answer`: the answer recorded, and what an involuntary refund credited. */
export const ScheduleChangeAnswerResponse = z.object({
  locator: Locator,
  change_id: z.string(),
  choice: ScheduleChangeChoice,
  status: z.string(),
  credited: Money.nullable(),
  position: Position.nullable(),
});
export type ScheduleChangeAnswerResponse = z.infer<typeof ScheduleChangeAnswerResponse>;

export const BookingStatus = z.enum([
  "held",
  "ticketing",
  "issued",
  "voided",
  "cancelled",
  "expired",
  "refunded",
  "exchanged",
]);
export type BookingStatus = z.infer<typeof BookingStatus>;
/** Lists the booking page offers; issued and exchanged both show under "issued". */
export const BookingList = z.enum(["new", "issued", "cancelled", "refunded"]);
export type BookingList = z.infer<typeof BookingList>;

/** `POST /orders/{locator}/refund_requests/create` answers the quote recorded on the booking, to confirm. */
export const RefundQuoteResponse = z.object({
  locator: Locator,
  quote: RefundQuoted,
  position: Position.nullable(),
});
export type RefundQuoteResponse = z.infer<typeof RefundQuoteResponse>;
/** `POST /orders/{locator}/refund_requests/confirm`: refunded, and what the company balance was credited. */
export const RefundConfirmResponse = z.object({
  locator: Locator,
  status: BookingStatus,
  credited: Money.nullable(),
  refunded_passengers: z.array(z.number().int()),
  position: Position.nullable(),
});
export type RefundConfirmResponse = z.infer<typeof RefundConfirmResponse>;
/** A refund confirm of a quote that expired (a fresh one) or is not the current one (that one): 409. */
export const RefundRequotedResponse = z.object({
  errors: ErrorEnvelope.shape.errors,
  quote: RefundQuoted,
  position: Position.nullable(),
});
export type RefundRequotedResponse = z.infer<typeof RefundRequotedResponse>;
/** `POST /orders/{locator}/flights_change_requests/create`: the request the offers are priced for. */
export const FlightsChangeCreateResponse = z.object({
  locator: Locator,
  request_id: z.string(),
  departure_date: IsoDate,
  return_date: IsoDate.nullable(),
  /** The one slice changed (0 the first); null: the whole journey. */
  slice: z.number().int().nullable(),
  position: Position.nullable(),
});
export type FlightsChangeCreateResponse = z.infer<typeof FlightsChangeCreateResponse>;
/** An exchange offer as priced for the agent: the airline's offer with our prices, and what its fare gives up. */
export const ReshopOfferAnswer = ReshopPricedOffer.extend({ fare: Fare, price_detail: PriceDetail });
/** `POST /orders/{locator}/reshop_offers/price`: the offers of the open request (none after a failure). */
export const ReshopOffersResponse = z.object({
  locator: Locator,
  request_id: z.string(),
  expires_at: z.string(),
  offers: z.array(ReshopOfferAnswer),
  /**
   * A multi-city exchange of one slice: that slice's booked fare and rules, whose change fee each offer charges (the
   * other slices keep their fares); null when the journey changes as a whole.
   */
  slice_rule: SliceFareRule.nullable(),
  position: Position.nullable(),
});
export type ReshopOffersResponse = z.infer<typeof ReshopOffersResponse>;
/** `POST /orders/{locator}/flights_change_requests/confirm`: the new tickets, and the charge to the balance. */
export const FlightsChangeConfirmResponse = z.object({
  locator: Locator,
  status: BookingStatus,
  tickets: z.array(Ticket),
  old_tickets: z.array(z.string()),
  price: Money,
  /** What the company balance was charged for it; null when nothing moved (a card, nothing to pay). */
  charged: Money.nullable(),
  position: Position.nullable(),
});
export type FlightsChangeConfirmResponse = z.infer<typeof FlightsChangeConfirmResponse>;

export const BookingListQuery = z.object({
  /** The list to read; a text search within it when `q` is given. No list: "new", or with `q` every list. */
  list: BookingList.optional(),
  q: z.string().trim().max(100).optional(),
  /** Created on or after / before this day (YYYY-MM-DD, in UTC): the team views' date filter. */
  created_from: z.iso.date().optional(),
  created_to: z.iso.date().optional(),
  /** `time_limit`: the queue of held bookings whose time limit comes first. */
  sort: z.enum(["created", "time_limit"]).default("created"),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});

/** A row of the booking lists (`GET /bookings`). */
export const BookingRow = z.object({
  locator: Locator,
  status: BookingStatus,
  list: BookingList,
  fake_booking: z.boolean(),
  provider_status: ProviderStatus,
  route: z.string(),
  carrier: z.string(),
  /** Local time at the departure airport, with its offset. */
  departure_at: z.string().nullable(),
  passenger_names: z.string(),
  ticket_numbers: z.string(),
  price: Money,
  time_limit: z.string().nullable(),
  /** A held booking's real deadline: its agency's automatic cancellation when it has one, else the time limit. */
  cancel_before: z.string().nullable().optional(),
  created_at: z.string(),
  company_id: z.string(),
  agent_id: z.string(),
  /** Who booked it and for which company, for the team views (null when the directory lacks the name). */
  booked_by: z.string().nullable(),
  company_name: z.string().nullable(),
});
export type BookingRow = z.infer<typeof BookingRow>;

export const BookingListPage = z.object({
  data: z.array(BookingRow),
  meta: z.object({
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    /** null: a text search through every list (`q` without `list`). */
    list: BookingList.nullable(),
  }),
});
export type BookingListPage = z.infer<typeof BookingListPage>;

export const BookingComment = z.object({ text: z.string(), at: z.string(), by: z.string().nullable() });
export type BookingComment = z.infer<typeof BookingComment>;

export const BookingActionName = z.enum([
  "issue",
  "cancel",
  "void",
  "refund",
  "exchange",
  "add_bags",
  "answer_schedule_change",
]);
export type BookingActionName = z.infer<typeof BookingActionName>;

/**
 * "What can I do now": one action as the server decides it at read time. An allowed action carries its deadline and
 * its money (what issue charges, void or refund gives back, exchange costs at least); a refused one says why.
 */
export const BookingAction = z.object({
  action: BookingActionName,
  allowed: z.boolean(),
  deadline: z.string().nullable(),
  money: Money.nullable(),
  /** Whether `money` is the airline's word (void) or an estimate from the fare rules (refund, exchange fee). */
  estimate: z.boolean(),
  reason_code: z.string().nullable(),
  reason: z.string().nullable(),
});
export type BookingAction = z.infer<typeof BookingAction>;

/** One supplier operation in the booking's history, as the booking page lists it. */
export const BookingOperation = z.object({
  operation_id: z.string(),
  kind: z.enum([
    "issue",
    "void",
    "cancel",
    "refund",
    "exchange",
    "ancillaries",
    "emd_refund",
    "schedule_change",
  ]),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  outcome: z.enum(["in_flight", "done", "failed"]),
  /** What the balance was charged (positive) or credited (negative) by it. */
  balance_effect: Money.nullable(),
  tickets: z.array(z.string()),
  error: z.string().nullable(),
  /** How the operation paid what it charged: the balance or a card (null: nothing to pay, or not recorded then). */
  paid_by: PaidBy.nullable().optional(),
});
export type BookingOperation = z.infer<typeof BookingOperation>;

/** How a document was paid (the balance, or a card's brand and last four); null when not known (sold before). */
const Paid = { paid_by: PaidBy.nullable().optional() };
/** A ticket as the booking page shows it: the airline's ticket and how it was paid. */
export const BookedTicket = Ticket.extend(Paid);
export type BookedTicket = z.infer<typeof BookedTicket>;
/** An ancillary line as the booking page shows it: its EMD, once issued, and how it was paid. */
export const BookedAncillary = AncillaryLine.extend(Paid);

/** The booking page (`GET /bookings/{locator}`). */
export const BookingDetails = z.object({
  locator: Locator,
  status: BookingStatus,
  list: BookingList,
  /** Held: when it is really lost (the agency's automatic cancellation, else the time limit); issued: void window. */
  cancel_before: z.string().nullable(),
  /** The fare's price as booked (extras not included: see `issue_charge`). */
  price: Money,
  price_detail: PriceDetail,
  /** While held: what issue will charge, fare + extras (null once the booking is no longer held). */
  issue_charge: IssueCharge.nullable().optional(),
  /**
   * While held: what issue charges, the company balance or the channel's card (the ticketing channel's form of
   * payment as it is now); null when nothing moves (a demo booking) or the booking is no longer held.
   */
  issue_paid_by: z.enum(["balance", "card"]).nullable().optional(),
  /** The airline's new price after a refused issue, waiting for the agent to accept it. */
  pending_price: z.object({ price: Money, price_detail: PriceDetail }).nullable(),
  time_limit: z.string().nullable(),
  /** When the agency's setting cancels this held booking (before the airline's time limit); null without it. */
  auto_cancel_at: z.string().nullable().optional(),
  /** When the ticketing-deadline watchdog cancelled it for the agency's setting, if it did. */
  auto_cancelled_at: z.string().nullable().optional(),
  provider_status: ProviderStatus,
  fake_booking: z.boolean(),
  tickets_present: z.boolean(),
  tickets: z.array(BookedTicket),
  async_emd_issue: z.boolean(),
  error: z.string().nullable(),
  fare: z.object({
    fare_id: z.string(),
    carrier: z.string(),
    route: z.string(),
    departure_at: z.string(),
    fare: Fare,
    flights: z.array(Flight),
  }),
  /** As booked, each with the loyalty number and SSRs the airline took (issue 23). */
  passengers: z.array(PassengerToBook),
  contacts: BookingContacts,
  comments: z.array(BookingComment),
  issued_at: z.string().nullable(),
  void_until: z.string().nullable(),
  /** A supplier operation in flight: the booking page shows it as being completed. */
  operation: z
    .object({
      kind: z.enum([
        "issue",
        "void",
        "cancel",
        "refund",
        "exchange",
        "ancillaries",
        "emd_refund",
        "schedule_change",
      ]),
      started_at: z.string(),
    })
    .nullable(),
  // After-sales parts: always sent by the server; optional so that clients built before them still read a booking.
  /** Passengers (indexes) whose tickets were refunded. */
  refunded_passengers: z.array(z.number().int()).optional(),
  refunds: z
    .array(z.object({ at: z.string(), lines: z.array(RefundLine), credited: Money.nullable() }))
    .optional(),
  /** The refund quote waiting for confirmation, if any. */
  refund_quote: RefundQuoted.nullable().optional(),
  /** The flights-change request and its priced offers; offers empty until priced or after a failed exchange. */
  change_request: z
    .object({
      request_id: z.string(),
      departure_date: z.string(),
      return_date: z.string().nullable(),
      /** The one slice changed (0 the first); null: the whole journey. Optional: older clients read without it. */
      slice: z.number().int().nullable().optional(),
      /** When it was asked for (the read model keeps the request's event as it came). */
      at: z.string(),
      offers: z.array(ReshopPricedOffer),
      expires_at: z.string().nullable(),
    })
    .nullable()
    .optional(),
  /**
   * The airline's latest schedule change: old and new flights, what the agent may answer and by when, and the answer
   * once given (null while it waits).
   */
  schedule_change: ScheduleChanged.extend({ answer: ScheduleChangeChoice.nullable() }).nullable().optional(),
  history: z.array(BookingOperation).optional(),
  /** Bags, cabin bags and seats per passenger and segment, with their EMDs once issued. */
  ancillaries: z.array(BookedAncillary).optional(),
  actions: z.array(BookingAction).optional(),
  created_at: z.string(),
  company_id: z.string(),
  agent_id: z.string(),
});
export type BookingDetails = z.infer<typeof BookingDetails>;
/** `GET /bookings/{locator}` answers the booking with what the caller can do with it now. */
export const BookingDetailsResponse = z.object({ data: BookingDetails });
export type BookingDetailsResponse = z.infer<typeof BookingDetailsResponse>;
