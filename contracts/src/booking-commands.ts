import { z } from "zod";
import { AncillaryLine, AncillaryTaken } from "./ancillaries.ts";
import {
  BookingHeld,
  BookingModified,
  RefundQuoted,
  ReshopPricedOffer,
  TicketsExchanged,
} from "./booking-events.ts";
import { PaymentChoice } from "./cards.ts";
import { Money } from "./money.ts";
import { PriceDetail, SupplierPrice } from "./offers.ts";
import { PassengerServices } from "./passenger-services.ts";
import { ScheduleChange, ScheduleChangeChoice, SupplierBooking, Ticket } from "./supplier.ts";

/**
 * The commands of a booking stream, one discriminated union on `type`: what the booking decider decides on. Time and
 * operation ids come with the command, never from inside the decider.
 */

export const PriceChange = z.object({
  price: Money,
  price_detail: PriceDetail,
  supplier_price: SupplierPrice,
});
export type PriceChange = z.infer<typeof PriceChange>;

export const IssuedOutcome = z.object({
  tickets: z.array(Ticket),
  issued_at: z.string(),
  void_until: z.string().nullable(),
  supplier_booking: SupplierBooking.nullable(),
});
export type IssuedOutcome = z.infer<typeof IssuedOutcome>;

/** What a confirmed refund came to: the supplier's booking after it (null for a fake booking). */
export const RefundedOutcome = z.object({ supplier_booking: SupplierBooking.nullable() });
export type RefundedOutcome = z.infer<typeof RefundedOutcome>;

/** What a confirmed exchange came to: the new tickets, fare and price. */
export const ExchangedOutcome = TicketsExchanged.omit({
  operation_id: true,
  reshop_offer_id: true,
  old_tickets: true,
});
export type ExchangedOutcome = z.infer<typeof ExchangedOutcome>;

/** What the airline took of an ancillaries order, and its booking after it (null for a fake booking). */
export const AncillariesOutcome = z.object({
  taken: z.array(AncillaryTaken),
  supplier_booking: SupplierBooking.nullable(),
});
export type AncillariesOutcome = z.infer<typeof AncillariesOutcome>;

/** What a supplier operation came to, as the command that records it reports. */
const outcome = <D extends z.ZodType>(done: D) =>
  z.discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), done }),
    z.object({
      ok: z.literal(false),
      code: z.string(),
      reason: z.string(),
      price_changed: PriceChange.optional(),
    }),
  ]);
export type OperationOutcome<Done> =
  | { ok: true; done: Done }
  | { ok: false; code: string; reason: string; price_changed?: PriceChange | undefined };

const cmd = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...shape });
const OperationId = z.string().min(1);

export const BookingCommand = z.discriminatedUnion("type", [
  cmd("HoldBooking", { held: BookingHeld, services: z.array(PassengerServices).optional() }),
  cmd("SettleProviderStatus", { supplier_booking: SupplierBooking }),
  cmd("StartIssue", {
    operation_id: OperationId,
    now: z.date(),
    payment: PaymentChoice,
    accept_pending_price: z.boolean(),
  }),
  cmd("RecordIssueOutcome", { operation_id: OperationId, outcome: outcome(IssuedOutcome) }),
  cmd("StartVoid", { operation_id: OperationId, now: z.date() }),
  cmd("RecordVoidOutcome", { operation_id: OperationId, now: z.date(), outcome: outcome(z.null()) }),
  cmd("StartCancel", { operation_id: OperationId, now: z.date() }),
  cmd("RecordCancelOutcome", { operation_id: OperationId, now: z.date(), outcome: outcome(z.null()) }),
  cmd("QuoteRefund", { quote: RefundQuoted, now: z.date() }),
  cmd("StartRefund", { operation_id: OperationId, quote_id: z.string(), now: z.date() }),
  cmd("RecordRefundOutcome", { operation_id: OperationId, now: z.date(), outcome: outcome(RefundedOutcome) }),
  cmd("RequestFlightsChange", {
    request_id: z.string(),
    departure_date: z.string(),
    return_date: z.string().nullable(),
    slice: z.number().int().min(0).nullable(),
    now: z.date(),
  }),
  cmd("PriceReshopOffers", {
    request_id: z.string(),
    offers: z.array(ReshopPricedOffer),
    expires_at: z.string(),
    now: z.date(),
  }),
  cmd("StartExchange", {
    operation_id: OperationId,
    reshop_offer_id: z.string(),
    now: z.date(),
    payment: PaymentChoice,
  }),
  cmd("RecordExchangeOutcome", { operation_id: OperationId, outcome: outcome(ExchangedOutcome) }),
  cmd("StartAncillaries", {
    operation_id: OperationId,
    now: z.date(),
    lines: z.array(AncillaryLine).min(1),
    payment: PaymentChoice,
  }),
  cmd("RecordAncillariesOutcome", {
    operation_id: OperationId,
    now: z.date(),
    outcome: outcome(AncillariesOutcome),
  }),
  cmd("RecordEmdsIssued", {
    now: z.date(),
    emds: z.array(z.object({ line_id: z.string(), emd_number: z.string() })).min(1),
    supplier_booking: SupplierBooking.nullable(),
  }),
  cmd("StartEmdRefund", { operation_id: OperationId, now: z.date(), emd_number: z.string() }),
  cmd("RecordEmdRefundOutcome", {
    operation_id: OperationId,
    now: z.date(),
    outcome: outcome(RefundedOutcome),
  }),
  cmd("RecordScheduleChange", { change: ScheduleChange, now: z.date() }),
  cmd("StartScheduleChangeAnswer", {
    operation_id: OperationId,
    change_id: z.string(),
    choice: ScheduleChangeChoice,
    option_id: z.string().nullable(),
    now: z.date(),
  }),
  cmd("RecordScheduleChangeOutcome", {
    operation_id: OperationId,
    now: z.date(),
    outcome: outcome(RefundedOutcome),
  }),
  cmd("ExpireBooking", { now: z.date() }),
  cmd("RepriceBooking", {
    price: Money,
    price_detail: PriceDetail,
    supplier_booking: SupplierBooking.nullable(),
  }),
  cmd("CommentBooking", { comment: z.string(), now: z.date(), by: z.string().nullable() }),
  cmd("ModifyBooking", {
    change: BookingModified,
    /** Per entry of the request's passengers (same order): what it changes of their services; absent: unchanged. */
    services: z.array(PassengerServices.partial({ loyalty: true, ssrs: true })).optional(),
  }),
]);
export type BookingCommand = z.infer<typeof BookingCommand>;

/** The commands of a company balance (`balance-{company_id}`); amounts are positive minor units. */
export const BalanceCommand = z.discriminatedUnion("type", [
  cmd("TopUpBalance", { company_id: z.string(), amount: Money, comment: z.string().max(500) }),
  cmd("ChargeBalance", {
    company_id: z.string(),
    amount: Money,
    locator: z.string(),
    reason: z.string(),
    operation_id: z.string().optional(),
  }),
  cmd("CreditBalance", {
    company_id: z.string(),
    amount: Money,
    locator: z.string(),
    reason: z.string(),
    operation_id: z.string().optional(),
  }),
]);
export type BalanceCommand = z.infer<typeof BalanceCommand>;
