import type { SeatMap, SupplierAncillary } from "@skyward/contracts/ancillaries";
import type { Currency } from "@skyward/contracts/money";
import type {
  FareRules,
  JourneySearchRequest,
  SupplierOfferDetails,
  SupplierSearchResult,
} from "@skyward/contracts/offers";
import type {
  AncillaryOrderResult,
  AncillarySelection,
  CancelResult,
  CredentialsCheck,
  EmdRefundResult,
  IssueResult,
  RefundQuote,
  RefundResult,
  ReissueResult,
  RepriceResult,
  ReshopRequest,
  ReshopResult,
  ScheduleChange,
  ScheduleChangeChoice,
  ScheduleChangeResult,
  SupplierBooking,
  SupplierBookRequest,
  SupplierCredentials,
  VoidResult,
} from "@skyward/contracts/supplier";

/** What an operation idempotent on its id answers. */
export type OperationResult =
  | IssueResult
  | VoidResult
  | CancelResult
  | RefundResult
  | ReissueResult
  | AncillaryOrderResult
  | EmdRefundResult
  | ScheduleChangeResult;

export type OperationLookup =
  | { status: "done"; result: OperationResult }
  | { status: "failed"; code: string; message: string }
  | { status: "unknown" };

/**
 * What every supplier call carries: the moment of the command (never read the clock inside), the currency the
 * agency sells in, and the ticketing channel's credentials.
 */
export interface SupplierCall {
  now: Date;
  currency: Currency;
  credentials: SupplierCredentials;
  /** The card-vault token tickets are paid with when the channel's form of payment is "card". */
  card_token?: string;
}

/**
 * The port every airline content source implements (GDS, NDC, the built-in sandbox). Failures are the errors in
 * `./errors.ts` (and `InvalidInput` for a request the supplier cannot read); business outcomes the agent must decide
 * on (a price change at issue) are results, not errors.
 *
 * Calls after `book` take the latest `SupplierBooking` snapshot our events hold, so an adapter can work from it when
 * its own state is gone.
 */
export interface Supplier {
  readonly code: string;

  checkCredentials(credentials: SupplierCredentials, call: { now: Date }): Promise<CredentialsCheck>;

  search(request: JourneySearchRequest, call: SupplierCall): Promise<SupplierSearchResult>;
  offerDetails(input: { fare_id: string }, call: SupplierCall): Promise<SupplierOfferDetails>;
  fareRules(input: { fare_id: string }, call: SupplierCall): Promise<FareRules>;
  /** Confirms the offer is still sold at its price right before booking. */
  price(input: { fare_id: string }, call: SupplierCall): Promise<SupplierOfferDetails>;
  /** Bags, cabin bags and seats (by zone) per segment, at the airline's prices. */
  ancillaryCatalogue(
    input: { fare_id: string } | { booking: SupplierBooking },
    call: SupplierCall,
  ): Promise<SupplierAncillary[]>;
  /**
   * A segment's cabin: free, paid and occupied seats, and the seats this booking's passengers hold; by fare id for a
   * booking no airline holds (a demo booking), whose own seats the caller marks.
   */
  seatMap(
    input: ({ booking: SupplierBooking } | { fare_id: string }) & { segment_id: string },
    call: SupplierCall,
  ): Promise<SeatMap>;

  book(request: SupplierBookRequest, call: SupplierCall): Promise<SupplierBooking>;
  /** The booking as the supplier has it now (an asynchronous booking confirms or fails here). */
  retrieve(input: { booking: SupplierBooking }, call: SupplierCall): Promise<SupplierBooking>;
  reprice(input: { booking: SupplierBooking }, call: SupplierCall): Promise<RepriceResult>;
  /** `accepted_total` is the supplier total the agent agreed to; another current price yields `price_changed`. */
  issue(
    input: { operation_id: string; booking: SupplierBooking; accepted_total: number },
    call: SupplierCall,
  ): Promise<IssueResult>;
  /** Adds ancillaries (EMDs after issue), idempotent on the operation id like issue. */
  orderAncillaries(
    input: { operation_id: string; booking: SupplierBooking; items: AncillarySelection[] },
    call: SupplierCall,
  ): Promise<AncillaryOrderResult>;
  /** Refunds an unused EMD in full, idempotent on the operation id. */
  refundEmd(
    input: { operation_id: string; booking: SupplierBooking; emd_number: string },
    call: SupplierCall,
  ): Promise<EmdRefundResult>;
  /**
   * Issue, void, cancel, refund confirmation and reissue are idempotent on their operation id: a repeat answers the first outcome. The id is what
   * `operationOutcome` looks them up by after a crash or a lost answer.
   */
  void(input: { operation_id: string; booking: SupplierBooking }, call: SupplierCall): Promise<VoidResult>;
  cancel(
    input: { operation_id: string; booking: SupplierBooking },
    call: SupplierCall,
  ): Promise<CancelResult>;
  /**
   * What became of an operation: done (with the result the call answered or would have answered), failed (with the
   * supplier's error), or unknown, in which case the supplier never acted on it and never will: asking fences the
   * id, so a call still on its way is refused.
   */
  operationOutcome(
    input: { operation_id: string; booking: SupplierBooking },
    call: SupplierCall,
  ): Promise<OperationLookup>;

  /** What refunding the tickets of these passengers (indexes) gives back now. */
  refundQuote(
    input: { booking: SupplierBooking; passenger_indexes: number[] },
    call: SupplierCall,
  ): Promise<RefundQuote>;
  refundConfirm(
    input: { operation_id: string; booking: SupplierBooking; quote: RefundQuote },
    call: SupplierCall,
  ): Promise<RefundResult>;
  /** Exchange offers: the booking's journey on the dates of a flights-change request, with what each costs. */
  reshop(
    input: { booking: SupplierBooking; request: ReshopRequest },
    call: SupplierCall,
  ): Promise<ReshopResult>;
  reissue(
    input: {
      operation_id: string;
      booking: SupplierBooking;
      reshop_offer_id: string;
      accepted_total_due: number;
      /** The one slice the exchange changes (a flights-change request's `slice`), whose fare rule sets the fee. */
      slice?: number;
    },
    call: SupplierCall,
  ): Promise<ReissueResult>;
  /**
   * The airline's change to an issued booking's flights not yet answered, if any: asked by the polling job (an
   * airline that sends notices answers the same). Asking twice answers the same change with the same id.
   */
  scheduleChange(input: { booking: SupplierBooking }, call: SupplierCall): Promise<ScheduleChange | null>;
  /** Accepts a schedule change, or refunds the tickets in full for it; idempotent on the operation id. */
  answerScheduleChange(
    input: {
      operation_id: string;
      booking: SupplierBooking;
      change_id: string;
      choice: ScheduleChangeChoice;
      /** The alternative an exchange takes. */
      option_id: string | null;
    },
    call: SupplierCall,
  ): Promise<ScheduleChangeResult>;
}
