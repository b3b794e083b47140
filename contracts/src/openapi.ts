import { z } from "zod";
import { ApiTokenResponse, ApiTokenStatusResponse, UpdateAccountDetailsRequest } from "./account.ts";
import {
  AgencyFlagRequest,
  CompanyMarkupsRequest,
  CreateAgencyRequest,
  CreateCompanyRequest,
  DirectoryHistoryQuery,
  InviteUserRequest,
  JoinAgencyDecision,
  JoinAgencyRequestBody,
  JoinRequestsQuery,
  RelationshipsQuery,
  SellingCompanyRequest,
  SharedBookingsRequest,
  TransactionFeeRequest,
  UpdateAgencyRequest,
  UpdateSupervisorRequest,
} from "./administration.ts";
import {
  AddAncillariesRequest,
  AncillaryCatalogueQuery,
  AncillaryLine,
  EmdNumberParam,
  PricedAncillary,
  SeatMap,
  SeatMapQuery,
} from "./ancillaries.ts";
import { AskRequest, AskResponse, ExecuteRequest, ExecuteResponse } from "./assistant.ts";
import {
  AnchorList,
  AsOfQuery,
  AsOfResponse,
  HistoryPage,
  HistoryQuery,
  VerifyQuery,
  VerifyReport,
} from "./audit.ts";
import { BalanceHistoryQuery, BalanceRow, CreditLimitRequest, TransactionRequest } from "./balances.ts";
import {
  BookingDetails,
  BookingListPage,
  BookingListQuery,
  BookOfferRequest,
  BookOfferResponse,
  CommentRequest,
  FlightsChangeConfirmRequest,
  FlightsChangeCreateRequest,
  IssueRequest,
  IssueResponse,
  Locator,
  LocatorRequest,
  ModifyRequest,
  RefundConfirmRequest,
  RefundCreateRequest,
} from "./bookings.ts";
import { CreateCardRequest, UpdateCardRequest } from "./cards.ts";
import { AgencyFlag } from "./directory.ts";
import { ErrorEnvelope } from "./errors.ts";
import { Money } from "./money.ts";
import { FareRules, OfferDetails, SearchRequest, SearchResult } from "./offers.ts";
import { Position } from "./position.ts";
import { ReplayOverview, ReplayRun, ReplayStartRequest } from "./replay.ts";
import { AnalyticsQuery, SaleId, SalesExportQuery, SalesQuery, TicketDownloadQuery } from "./sales.ts";
import { AirportsQuery, ApplyFiltersRequest, FilterKey, OfferDetailsQuery } from "./search.ts";
import { TextSearchRequest, TextSearchResponse } from "./text-search.ts";
import {
  AttachCardRequest,
  ChannelHistoryQuery,
  ChannelListQuery,
  CreateChannelRequest,
  CredentialRequest,
  SourceChannelQuery,
  ToggleRequest,
  UpdateChannelRequest,
} from "./ticketing-commands.ts";

/**
 * The public API as OpenAPI 3.1, generated from the zod contracts with zod's own JSON Schema export (never written
 * by hand): a route is documented by naming its contracts here. Served at GET /openapi.json; the contract test
 * (scripts/src/audit-openapi.test.ts) calls every operation of the generated document and checks each answer
 * against it.
 */

/** A response header, documented with its JSON Schema as it is (headers are plain text, never zod-parsed). */
export interface DocumentedHeader {
  description: string;
  required: boolean;
  schema: Record<string, unknown>;
}

/** An answer: JSON of `schema`, or a file of `mediaType` (a PDF, a spreadsheet), or either (by a query parameter). */
export type DocumentedResponse = {
  description: string;
  headers?: Record<string, DocumentedHeader>;
} & ({ schema: z.ZodType; mediaType?: string } | { schema?: undefined; mediaType: string });

export interface DocumentedRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI style: /bookings/{locator}. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** false: no credentials needed. */
  secured: boolean;
  params?: Record<string, z.ZodType>;
  query?: z.ZodObject;
  body?: z.ZodType;
  responses: Record<number, DocumentedResponse>;
  /**
   * A read that honours `X-Min-Position` (read-your-writes): "read_models" waits for the read models it uses
   * (infra/src/http/read-models.ts), "chain" for the tamper-evident chain (query-service/src/audit/routes.ts).
   */
  minPosition?: "read_models" | "chain";
}

const errors = (description: string): DocumentedResponse => ({ description, schema: ErrorEnvelope });
const unauthorized = errors("Not signed in, or the API token is not valid");
const invalid = errors("The input does not match the contract (each field named)");
const notFound = errors("Nothing of that name within the caller's scope");
const sessionRequired = errors(
  "Called with an API token: issuing and revoking tokens take a signed-in session",
);
const position = Position;

/** What a cancel, void or refund answers. */
const CommandAnswer = z.looseObject({ position });
/** A refund quote: what the airline returns, valid until it expires. */
const RefundQuoteAnswer = z.looseObject({
  quote: z.looseObject({
    quote_id: z.string(),
    refundable: z.object({ amount: z.number().int(), currency: z.string() }),
    expires_at: z.string(),
  }),
  position,
});
/** A confirmed refund: the amount credited to the company balance. */
const RefundAnswer = z.looseObject({
  status: z.literal("refunded"),
  credited: z.object({ amount: z.number().int(), currency: z.string() }),
  position,
});

/** An ancillary added: to a held booking (paid with the tickets) or after issue as EMDs charged to the balance. */
const AncillariesAnswer = z.looseObject({
  locator: Locator,
  status: z.string(),
  lines: z.array(AncillaryLine),
  total: Money,
  /** What the company balance was charged now; null before issue (paid with the tickets). */
  charged: Money.nullable(),
  /** True while the airline still issues some EMDs (a job confirms them). */
  async_emd_issue: z.boolean(),
  position,
});
/** An unused EMD refunded: what the airline returned and the company balance was credited. */
const EmdRefundAnswer = z.looseObject({
  locator: Locator,
  emd_number: z.string(),
  refunded: Money.nullable(),
  credited: Money.nullable(),
  position,
});

/** A search result with filters applied, and the filters. */
const FilteredSearch = z.looseObject({ result: SearchResult, filters: z.record(z.string(), z.unknown()) });
/** A command on a booking that answers the booking's state and the feed position to read it at. */
const BookingCommandAnswer = z.looseObject({ position: position.nullable() });
/** A page of the balance history (movements with their booking and operation). */
const BalanceHistoryAnswer = z.looseObject({
  data: z.array(z.looseObject({ event_id: z.string() })),
  meta: z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int() }),
});

/** A company balance after a command on it. */
const BalanceAnswer = z.looseObject({
  balance_amount: Money.nullable(),
  credit_limit: z.looseObject({ amount: z.number().int() }).nullable(),
  position,
});
/** A list under `data`, each item an object (administration reads). */
const listOf = (description: string) => ({
  description,
  schema: z.object({ data: z.array(z.looseObject({ id: z.string() })) }),
});
const idParam = { id: z.string().min(1).max(100) };
const roleOrScope = errors("Outside the caller's scope (a route not for its role answers 403)");
/** The media type of the sales spreadsheets (Excel). */
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** What a connection request (an agent asking to join a partner) answers. */
const JoinAgencyAnswer = z.looseObject({
  join_agency: z.looseObject({
    id: z.string(),
    agency_id: z.string(),
    user_id: z.string(),
    company_id: z.string().nullable(),
    status: z.enum(["sent", "accepted", "rejected", "reset"]),
  }),
  position,
});
/** A paged history of changes. */
const HistoryAnswer = z.looseObject({
  data: z.array(z.looseObject({ event_id: z.string() })),
  meta: z.looseObject({ total: z.number().int() }),
});

/** The request header of read-your-writes: the `position` a command answered. */
const minPositionHeader = (waitsFor: "read_models" | "chain") => ({
  name: "X-Min-Position",
  in: "header",
  required: false,
  description:
    waitsFor === "chain"
      ? "Read-your-writes: the `position` your last command answered. The history waits (up to 2 s) until the " +
        "tamper-evident chain has linked that place in the feed; past that it answers with `X-Stale: true`. A " +
        "malformed value answers 422."
      : "Read-your-writes: the `position` your last command answered. The read waits (up to 2 s) until the read " +
        "models it uses have passed that place in the feed; past that it answers with `X-Stale: true`. A malformed " +
        "value answers 422.",
  schema: null as unknown,
});
/** The answer header of a read that could not wait long enough for `X-Min-Position`. */
const staleHeader = {
  "X-Stale": {
    description: "Present (`true`) when the read models had not reached X-Min-Position within the wait",
    required: false,
    schema: { type: "string", enum: ["true"] },
  },
};

/** Every secured operation may answer this once its API token used up its calls (infra/src/http/api-rate-limit.ts). */
const rateLimited = {
  description: "Too many calls with this API token: try again after Retry-After seconds",
  headers: {
    "Retry-After": {
      description: "Seconds until the token may call again",
      required: true,
      schema: { type: "integer", minimum: 1 },
    },
  },
};

/**
 * Every secured operation answers this to a signed-in user whose type may never use it (infra/src/http/auth.ts,
 * roleRefusal): an unknown route or an id outside the caller's scope stays 404.
 */
const roleRefused = {
  description:
    "Not for the caller's role. The error's code names who may: admin_user_only (Admin users), admin_only " +
    "(administrators: Admin and Support), supervisor_or_admin_only, admin_or_auditor_only, " +
    "supervisor_admin_or_auditor_only, agent_only; auditor_read_only for an auditor's command (auditors only read)",
};

export const documentedRoutes: readonly DocumentedRoute[] = [
  {
    method: "post",
    path: "/offers",
    operationId: "searchOffers",
    summary: "Search flights: priced offers for a route, date and passengers",
    tag: "Booking",
    secured: true,
    body: SearchRequest,
    responses: {
      200: { description: "The search result", schema: z.object({ result: SearchResult }) },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/bookings",
    operationId: "bookOffer",
    summary: "Book a fare of a search result for the passengers given",
    tag: "Booking",
    secured: true,
    body: BookOfferRequest,
    responses: {
      201: { description: "The booking, held at the airline", schema: BookOfferResponse },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/bookings/issue",
    operationId: "issueBooking",
    summary: "Issue the tickets of a held booking, charging the company balance",
    tag: "Booking",
    secured: true,
    body: IssueRequest,
    responses: {
      201: {
        description:
          "The tickets issued, what the issue cost (fare + extras held with the booking) and what the balance was charged",
        schema: IssueResponse,
      },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/orders/{locator}/refund_requests/create",
    operationId: "quoteRefund",
    summary:
      "Quote the refund of an issued booking's tickets (all passengers not yet refunded, or those named)",
    tag: "Booking",
    secured: true,
    params: { locator: Locator },
    body: RefundCreateRequest,
    responses: {
      201: { description: "The quote to confirm before it expires", schema: RefundQuoteAnswer },
      401: unauthorized,
      404: notFound,
      422: errors("Not issued, or a passenger without a ticket to refund"),
    },
  },
  {
    method: "post",
    path: "/orders/{locator}/refund_requests/confirm",
    operationId: "confirmRefund",
    summary:
      "Confirm a refund quote: the airline refunds and the company balance is credited the quoted amount",
    tag: "Booking",
    secured: true,
    params: { locator: Locator },
    body: RefundConfirmRequest,
    responses: {
      200: { description: "Refunded", schema: RefundAnswer },
      401: unauthorized,
      404: notFound,
      409: {
        description:
          "The quote expired (a fresh quote comes with the error), or it is not the booking's current quote (the " +
          "current one comes with the error, unchanged: nothing is asked of the airline, nothing is written)",
        schema: z.looseObject({ errors: ErrorEnvelope.shape.errors, quote: RefundQuoteAnswer.shape.quote }),
      },
      422: errors(
        "The booking holds no refund quote (refund_quote_not_found), or the booking cannot be refunded",
      ),
    },
  },
  {
    method: "delete",
    path: "/bookings/{locator}",
    operationId: "cancelBooking",
    summary: "Cancel a held booking, or void issued tickets within the void window (refunding the balance)",
    tag: "Booking",
    secured: true,
    params: { locator: Locator },
    responses: {
      200: { description: "Cancelled or voided", schema: CommandAnswer },
      401: unauthorized,
      404: notFound,
      422: errors("Not possible in the booking's state"),
    },
  },
  {
    method: "get",
    path: "/bookings",
    operationId: "listBookings",
    minPosition: "read_models",
    summary: "The bookings the caller may see, newest first",
    tag: "Booking",
    secured: true,
    query: BookingListQuery,
    responses: { 200: { description: "A page of bookings", schema: BookingListPage }, 401: unauthorized },
  },
  {
    method: "get",
    path: "/bookings/{locator}",
    operationId: "getBooking",
    minPosition: "read_models",
    summary: "One booking with what the caller can do with it now",
    tag: "Booking",
    secured: true,
    params: { locator: Locator },
    responses: {
      200: { description: "The booking", schema: z.object({ data: BookingDetails }) },
      401: unauthorized,
      404: notFound,
    },
  },
  {
    method: "get",
    path: "/balances",
    operationId: "listBalances",
    minPosition: "read_models",
    summary: "The balances of the companies the caller may see",
    tag: "Balances",
    secured: true,
    responses: {
      // Loose: the balances read answers more than BalanceRow names (the contract test found it).
      200: { description: "Balances", schema: z.object({ data: z.array(BalanceRow.loose()) }) },
      401: unauthorized,
    },
  },
  {
    method: "put",
    path: "/account/api_token",
    operationId: "issueApiToken",
    summary:
      "A new API token for the caller (shown once; replaces the previous one); send it as a bearer. Takes a " +
      "signed-in session: a token cannot replace itself",
    tag: "Account",
    secured: true,
    responses: {
      200: { description: "The token", schema: ApiTokenResponse },
      401: unauthorized,
      403: sessionRequired,
    },
  },
  {
    method: "get",
    path: "/account/api_token",
    operationId: "getApiTokenStatus",
    summary: "Whether the caller has an API token, since when, and when a call last used it (to the minute)",
    tag: "Account",
    secured: true,
    responses: {
      200: { description: "The token's status", schema: ApiTokenStatusResponse },
      401: unauthorized,
    },
  },
  {
    method: "delete",
    path: "/account/api_token",
    operationId: "revokeApiToken",
    summary: "Withdraws the caller's API token; takes a signed-in session, as issuing does",
    tag: "Account",
    secured: true,
    responses: {
      200: { description: "Revoked", schema: z.object({ data: z.null(), position }) },
      401: unauthorized,
      403: sessionRequired,
      404: errors("The caller has no API token"),
    },
  },
  {
    method: "get",
    path: "/audit/events",
    operationId: "listEvents",
    minPosition: "chain",
    summary:
      "Event history by stream, booking, company, agency, actor, trace or time range, with chain hashes",
    tag: "Audit",
    secured: true,
    query: HistoryQuery,
    responses: {
      200: { description: "A page of events", schema: z.object({ data: HistoryPage }) },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/verify",
    operationId: "verifyLog",
    summary: "Verify the tamper-evident log (or a range of it); names the first event that does not match",
    tag: "Audit",
    secured: true,
    query: VerifyQuery,
    responses: {
      200: { description: "The verification report", schema: z.object({ data: VerifyReport }) },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/anchors",
    operationId: "listAnchors",
    summary: "Every anchor of the chain, to keep outside the database",
    tag: "Audit",
    secured: true,
    responses: { 200: { description: "Anchors", schema: AnchorList }, 401: unauthorized, 404: notFound },
  },
  {
    method: "get",
    path: "/audit/as_of/{kind}/{id}",
    operationId: "timeTravel",
    summary: "A booking, a company balance or a channel as of a moment, and its difference with another",
    tag: "Audit",
    secured: true,
    params: { kind: z.enum(["booking", "balance", "channel"]), id: z.string().min(1).max(200) },
    query: AsOfQuery,
    responses: {
      200: { description: "The state then", schema: z.object({ data: AsOfResponse }) },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/offers/{fare_id}/ancillaries",
    operationId: "offerAncillaries",
    summary:
      "Bags and seats on sale with a fare of a search result, per passenger type and segment, with markups",
    tag: "Ancillaries",
    secured: true,
    params: { fare_id: z.string().min(1).max(200) },
    query: AncillaryCatalogueQuery,
    responses: {
      200: { description: "The priced catalogue", schema: z.object({ data: z.array(PricedAncillary) }) },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/bookings/{locator}/ancillaries",
    operationId: "bookingAncillaries",
    summary: "Bags and seats on sale for a booking, per passenger type and segment, with markups",
    tag: "Ancillaries",
    secured: true,
    params: { locator: Locator },
    query: AncillaryCatalogueQuery.pick({ type: true }),
    responses: {
      200: { description: "The priced catalogue", schema: z.object({ data: z.array(PricedAncillary) }) },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/bookings/{locator}/seat_map",
    operationId: "seatMap",
    summary: "The seat map of a booking's segment: cabin layout, free, paid and occupied seats",
    tag: "Ancillaries",
    secured: true,
    params: { locator: Locator },
    query: SeatMapQuery,
    responses: {
      200: { description: "The seat map", schema: z.object({ data: SeatMap }) },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/bookings/{locator}/ancillaries",
    operationId: "addAncillaries",
    summary:
      "Add bags or seats: to a held booking (paid with the tickets), or after issue as EMDs charged to the balance",
    tag: "Ancillaries",
    secured: true,
    params: { locator: Locator },
    body: AddAncillariesRequest,
    responses: {
      201: { description: "The lines added", schema: AncillariesAnswer },
      401: unauthorized,
      404: notFound,
      422: errors("Not sold on this booking, a seat taken, or not possible in the booking's state"),
    },
  },
  {
    method: "post",
    path: "/bookings/{locator}/emds/{emd_number}/refund",
    operationId: "refundEmd",
    summary: "Refund an unused EMD: the airline refunds it and the company balance is credited",
    tag: "Ancillaries",
    secured: true,
    params: { locator: Locator, emd_number: EmdNumberParam },
    responses: {
      200: { description: "Refunded", schema: EmdRefundAnswer },
      401: unauthorized,
      404: notFound,
      422: errors("The EMD is used, already refunded, or cannot be refunded"),
    },
  },
  {
    method: "get",
    path: "/airports",
    operationId: "listAirports",
    summary: "Airports and cities matching a text, for the search form",
    tag: "Search",
    secured: true,
    query: AirportsQuery,
    responses: {
      200: { description: "Matching airports", schema: z.object({ data: z.array(z.looseObject({})) }) },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/text_search",
    operationId: "textSearch",
    summary: "One line of text in any of the five languages turned into a structured search (not run)",
    tag: "Search",
    secured: true,
    body: TextSearchRequest,
    responses: {
      200: { description: "The structured search, or what is missing", schema: TextSearchResponse },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/search_results",
    operationId: "filterSearch",
    summary: "Apply filters (stops, carriers, times, price, baggage) to a search result",
    tag: "Search",
    secured: true,
    body: ApplyFiltersRequest,
    responses: {
      200: { description: "The filtered result", schema: FilteredSearch },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "delete",
    path: "/search_results/{search_result_id}",
    operationId: "clearSearchFilter",
    summary: "Remove one filter from a search result",
    tag: "Search",
    secured: true,
    params: { search_result_id: z.string().min(1).max(100) },
    query: z.object({ filter_key: FilterKey }),
    responses: {
      200: { description: "The result with the filter removed", schema: FilteredSearch },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/offers/{fare_id}/details",
    operationId: "offerDetails",
    summary: "A fare's details (flights, baggage, conditions) priced with the caller's markups",
    tag: "Search",
    secured: true,
    params: { fare_id: z.string().min(1).max(200) },
    query: OfferDetailsQuery,
    responses: {
      200: { description: "The offer", schema: z.object({ data: OfferDetails.loose() }) },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/offers/{fare_id}/fare_rules",
    operationId: "fareRules",
    summary: "A fare's rules (refund, change, penalties) as the airline states them",
    tag: "Search",
    secured: true,
    params: { fare_id: z.string().min(1).max(200) },
    query: OfferDetailsQuery,
    responses: {
      200: { description: "The rules", schema: z.object({ data: FareRules.loose() }) },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/bookings/comment",
    operationId: "commentBooking",
    summary: "Add a comment to a booking",
    tag: "Booking",
    secured: true,
    body: CommentRequest,
    responses: {
      200: { description: "Commented", schema: BookingCommandAnswer },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/bookings/modify",
    operationId: "modifyBooking",
    summary: "Change a held booking's contacts or passengers' travel documents",
    tag: "Booking",
    secured: true,
    body: ModifyRequest,
    responses: {
      200: { description: "Modified", schema: BookingCommandAnswer },
      401: unauthorized,
      404: notFound,
      422: errors("Invalid input, or not possible in the booking's state"),
    },
  },
  {
    method: "post",
    path: "/bookings/reprice",
    operationId: "repriceBooking",
    summary: "Ask the airline for a held booking's current price (before issue)",
    tag: "Booking",
    secured: true,
    body: LocatorRequest,
    responses: {
      200: { description: "The current price", schema: z.looseObject({}) },
      401: unauthorized,
      404: notFound,
      422: errors("Invalid input, or not possible in the booking's state"),
    },
  },
  {
    method: "post",
    path: "/orders/{locator}/flights_change_requests/create",
    operationId: "createFlightsChange",
    summary: "Ask to exchange an issued booking's flights for other dates of the same journey",
    tag: "Exchange",
    secured: true,
    params: { locator: Locator },
    body: FlightsChangeCreateRequest,
    responses: {
      201: { description: "The change request", schema: z.looseObject({}) },
      401: unauthorized,
      404: notFound,
      422: errors("Invalid dates, or the booking cannot be exchanged"),
    },
  },
  {
    method: "post",
    path: "/orders/{locator}/reshop_offers/price",
    operationId: "priceReshopOffers",
    summary:
      "The priced offers of a change request: fare difference, change fee, markups, residual value, total to pay",
    tag: "Exchange",
    secured: true,
    params: { locator: Locator },
    responses: {
      200: { description: "The offers (empty after a failure)", schema: z.looseObject({}) },
      401: unauthorized,
      404: notFound,
      422: errors("No change request, or the booking cannot be exchanged"),
    },
  },
  {
    method: "post",
    path: "/orders/{locator}/flights_change_requests/confirm",
    operationId: "confirmFlightsChange",
    summary:
      "Confirm a priced offer: the balance is charged and new tickets are issued, the old ones exchanged",
    tag: "Exchange",
    secured: true,
    params: { locator: Locator },
    body: FlightsChangeConfirmRequest,
    responses: {
      200: { description: "Exchanged", schema: z.looseObject({ position }) },
      401: unauthorized,
      404: notFound,
      422: errors("The offer is gone or changed, or the booking cannot be exchanged"),
    },
  },
  {
    method: "get",
    path: "/balance_history",
    operationId: "balanceHistory",
    summary: "Every charge and credit of the caller's companies' balances with its booking and operation",
    tag: "Balances",
    secured: true,
    minPosition: "read_models",
    query: BalanceHistoryQuery,
    responses: {
      200: { description: "A page of movements", schema: BalanceHistoryAnswer },
      401: unauthorized,
      404: notFound,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/balance_history/{event_id}",
    operationId: "balanceMovement",
    summary: "One movement of a balance",
    tag: "Balances",
    secured: true,
    minPosition: "read_models",
    params: { event_id: z.string().min(1).max(100) },
    responses: {
      200: {
        description: "The movement",
        schema: z.object({ data: z.looseObject({ event_id: z.string() }) }),
      },
      401: unauthorized,
      404: notFound,
    },
  },
  {
    method: "get",
    path: "/time_limit_notices",
    operationId: "timeLimitNotices",
    summary: "Held bookings whose ticketing time limit is near: reminders and automatic cancellations",
    tag: "Booking",
    secured: true,
    minPosition: "read_models",
    responses: {
      200: {
        description: "The notices",
        schema: z.object({ data: z.array(z.looseObject({ locator: Locator })) }),
      },
      401: unauthorized,
    },
  },
  {
    method: "get",
    path: "/account/details",
    operationId: "accountDetails",
    summary: "The caller's account: profile, companies and channels",
    tag: "Account",
    secured: true,
    minPosition: "read_models",
    responses: { 200: { description: "The account", schema: z.looseObject({}) }, 401: unauthorized },
  },
  {
    method: "post",
    path: "/transactions",
    operationId: "balanceTransaction",
    summary: "Top up a company balance, or correct it (administrators), with its reason",
    tag: "Balances",
    secured: true,
    body: TransactionRequest,
    responses: {
      201: { description: "The balance after it", schema: BalanceAnswer },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "put",
    path: "/companies/{id}/credit_limit",
    operationId: "setCreditLimit",
    summary: "Set a company's credit limit (administrators)",
    tag: "Balances",
    secured: true,
    params: idParam,
    body: CreditLimitRequest,
    responses: {
      200: { description: "The balance after it", schema: BalanceAnswer },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/agencies",
    operationId: "listAgencies",
    summary: "The agencies (partners) the caller manages",
    tag: "Administration",
    secured: true,
    minPosition: "read_models",
    responses: { 200: listOf("Agencies"), 401: unauthorized, 404: roleOrScope },
  },
  {
    method: "get",
    path: "/agencies/{id}",
    operationId: "getAgency",
    summary: "One agency with its settings",
    tag: "Administration",
    secured: true,
    minPosition: "read_models",
    params: idParam,
    responses: {
      200: { description: "The agency", schema: z.object({ partner: z.looseObject({ id: z.string() }) }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "get",
    path: "/agencies/{id}/supervisors",
    operationId: "listSupervisors",
    summary: "An agency's supervisors",
    tag: "Administration",
    secured: true,
    minPosition: "read_models",
    params: idParam,
    responses: { 200: listOf("Supervisors"), 401: unauthorized, 404: roleOrScope },
  },
  {
    method: "get",
    path: "/companies",
    operationId: "listCompanies",
    summary: "The companies the caller manages, with their balances",
    tag: "Administration",
    secured: true,
    minPosition: "read_models",
    responses: { 200: listOf("Companies"), 401: unauthorized, 404: roleOrScope },
  },
  {
    method: "get",
    path: "/companies/{id}",
    operationId: "getCompany",
    summary: "One company with its balance, markups and fees",
    tag: "Administration",
    secured: true,
    minPosition: "read_models",
    params: idParam,
    responses: {
      200: { description: "The company", schema: z.object({ company: z.looseObject({ id: z.string() }) }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "get",
    path: "/directory_history",
    operationId: "directoryHistory",
    summary: "Changes of agencies, companies and people: who, when, what, before → after",
    tag: "Administration",
    secured: true,
    minPosition: "read_models",
    query: DirectoryHistoryQuery,
    responses: {
      200: { description: "A page of changes", schema: HistoryAnswer },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/ticketing/agency_channels",
    operationId: "listChannels",
    summary: "The ticketing channels of the agencies the caller manages",
    tag: "Ticketing",
    secured: true,
    minPosition: "read_models",
    query: ChannelListQuery,
    responses: { 200: listOf("Channels"), 401: unauthorized, 404: roleOrScope, 422: invalid },
  },
  {
    method: "get",
    path: "/ticketing/agency_channels/{id}",
    operationId: "getChannel",
    summary: "One ticketing channel with its gates",
    tag: "Ticketing",
    secured: true,
    minPosition: "read_models",
    params: idParam,
    responses: {
      200: { description: "The channel", schema: z.object({ data: z.looseObject({ id: z.string() }) }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "get",
    path: "/ticketing/channel_history",
    operationId: "channelHistory",
    summary: "Who changed which channel or gate, when, from which source, before → after",
    tag: "Ticketing",
    secured: true,
    minPosition: "read_models",
    query: ChannelHistoryQuery,
    responses: {
      200: { description: "A page of changes", schema: z.looseObject({ data: z.array(z.looseObject({})) }) },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/replays",
    operationId: "listReplays",
    summary: "The projections that can be replayed and the latest replay runs",
    tag: "Audit",
    secured: true,
    responses: {
      200: { description: "Projections and runs", schema: z.object({ data: ReplayOverview }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "post",
    path: "/audit/replays",
    operationId: "startReplay",
    summary:
      "Replay a projection side by side and compare it with live (a job; a run whose process dies reads as failed within 30 s)",
    tag: "Audit",
    secured: true,
    body: ReplayStartRequest,
    responses: {
      202: { description: "The run, queued", schema: z.object({ data: ReplayRun }) },
      401: unauthorized,
      404: roleOrScope,
      409: errors("A replay of this projection is already running"),
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/replays/{id}",
    operationId: "getReplay",
    summary: "One replay run: its progress, and the comparison per table once done",
    tag: "Audit",
    secured: true,
    params: { id: z.uuid() },
    responses: {
      200: { description: "The run", schema: z.object({ data: ReplayRun }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "post",
    path: "/admin_panel/ask",
    operationId: "assistantAsk",
    summary:
      "The AI admin assistant: a request in words becomes a plan (steps with previews), an answer or a question back; changes nothing",
    tag: "Assistant",
    secured: true,
    body: AskRequest,
    responses: {
      200: { description: "A plan, an answer or a question", schema: AskResponse },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/admin_panel/execute",
    operationId: "assistantExecute",
    summary: "Run a plan the same user asked for, before it expires, at most once, step by step as that user",
    tag: "Assistant",
    secured: true,
    body: ExecuteRequest,
    responses: {
      200: { description: "Each step's result", schema: ExecuteResponse },
      401: unauthorized,
      404: errors("No such plan for this user, or no such step"),
      409: errors("The plan has already been executed"),
      410: errors("The plan has expired"),
      422: errors("Invalid input, no step confirmed, or a money step without confirm_money"),
    },
  },
  {
    method: "patch",
    path: "/agencies/{id}",
    operationId: "updateAgency",
    summary: "Rename an agency or set its markups",
    tag: "Administration",
    secured: true,
    params: idParam,
    body: UpdateAgencyRequest,
    responses: {
      200: {
        description: "The agency after it (position null when nothing changed)",
        schema: z.looseObject({ position: position.nullable() }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  ...AgencyFlag.options.map(
    (flag): DocumentedRoute => ({
      method: "patch",
      path: `/agencies/{id}/${flag}`,
      operationId: `setAgencyFlag_${flag}`,
      summary: `Turn an agency's ${flag.replaceAll("_", " ").replace(/ on$/, "")} on or off (no value flips it)`,
      tag: "Administration",
      secured: true,
      params: idParam,
      body: AgencyFlagRequest,
      responses: {
        200: {
          description: "The agency after it (position null when nothing changed)",
          schema: z.looseObject({ position: position.nullable() }),
        },
        401: unauthorized,
        404: roleOrScope,
        422: invalid,
      },
    }),
  ),
  {
    method: "post",
    path: "/agencies/{id}/supervisors",
    operationId: "inviteSupervisor",
    summary: "Invite a supervisor of an agency (an e-mail to set a password)",
    tag: "Administration",
    secured: true,
    params: idParam,
    body: InviteUserRequest,
    responses: {
      201: {
        description: "The supervisor invited",
        schema: z.looseObject({ supervisor: z.looseObject({ id: z.string() }), position }),
      },
      401: unauthorized,
      404: roleOrScope,
      409: errors("The e-mail address is taken"),
      422: invalid,
    },
  },
  ...(
    [
      ["/ticketing/main_gate", "main"],
      ["/ticketing/agency_gate", "consolidator"],
      ["/ticketing/channel_gate", "channel"],
    ] as const
  ).map(
    ([path, gate]): DocumentedRoute => ({
      method: "patch",
      path,
      operationId: `toggleGate_${gate}`,
      summary: `Open or close the global ${gate} ticketing gate (administrators)`,
      tag: "Ticketing",
      secured: true,
      body: ToggleRequest,
      responses: {
        200: {
          description: "The gate after it",
          schema: z.looseObject({ data: z.looseObject({}), position: position.nullable() }),
        },
        401: unauthorized,
        404: roleOrScope,
        422: invalid,
      },
    }),
  ),
  ...(["agency", "company"] as const).map(
    (kind): DocumentedRoute => ({
      method: "patch",
      path: `/ticketing/${kind}_gates/{id}`,
      operationId: `toggleGate_${kind}`,
      summary: `Open or close a ${kind}'s ticketing gate (administrators)`,
      tag: "Ticketing",
      secured: true,
      params: idParam,
      body: ToggleRequest,
      responses: {
        200: {
          description: "The gate after it",
          schema: z.looseObject({ data: z.looseObject({}), position: position.nullable() }),
        },
        401: unauthorized,
        404: roleOrScope,
        422: invalid,
      },
    }),
  ),
  {
    method: "post",
    path: "/agencies",
    operationId: "createAgency",
    summary: "Create an agency (partner) with its markups, fee and flags (administrators)",
    tag: "Administration",
    secured: true,
    body: CreateAgencyRequest,
    responses: {
      201: {
        description: "The agency",
        schema: z.looseObject({ partner: z.looseObject({ id: z.string() }), position }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/companies",
    operationId: "createCompany",
    summary: "Create a company of an agency (its balance opens at zero)",
    tag: "Administration",
    secured: true,
    body: CreateCompanyRequest,
    responses: {
      201: {
        description: "The company",
        schema: z.looseObject({ company: z.looseObject({ id: z.string() }), position }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "delete",
    path: "/companies/{id}",
    operationId: "deleteCompany",
    summary: "Delete a company (its history stays in the log)",
    tag: "Administration",
    secured: true,
    params: idParam,
    responses: {
      200: { description: "Deleted", schema: z.looseObject({ data: z.null(), position }) },
      401: unauthorized,
      404: roleOrScope,
      422: errors("Not possible in the company's state"),
    },
  },
  {
    method: "delete",
    path: "/agencies/{id}",
    operationId: "deleteAgency",
    summary: "Delete an agency (administrators; its history stays in the log)",
    tag: "Administration",
    secured: true,
    params: idParam,
    responses: {
      200: { description: "Deleted", schema: z.looseObject({ data: z.null(), position }) },
      401: unauthorized,
      404: roleOrScope,
      422: errors("Not possible in the agency's state"),
    },
  },
  {
    method: "patch",
    path: "/agencies/{id}/supervisors/{supervisor_id}",
    operationId: "updateSupervisor",
    summary: "Change a supervisor's name or phone, or deactivate them",
    tag: "Administration",
    secured: true,
    params: { ...idParam, supervisor_id: z.string().min(1).max(100) },
    body: UpdateSupervisorRequest,
    responses: {
      200: {
        description: "The supervisor after it",
        schema: z.looseObject({
          supervisor: z.looseObject({ id: z.string() }),
          position: position.nullable(),
        }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "delete",
    path: "/agencies/{id}/supervisors/{supervisor_id}",
    operationId: "removeSupervisor",
    summary: "Remove a supervisor from an agency",
    tag: "Administration",
    secured: true,
    params: { ...idParam, supervisor_id: z.string().min(1).max(100) },
    responses: {
      200: { description: "Removed", schema: z.looseObject({ data: z.null(), position }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "post",
    path: "/supports",
    operationId: "inviteSupport",
    summary: "Invite a support user (administrators)",
    tag: "Administration",
    secured: true,
    body: InviteUserRequest,
    responses: {
      201: {
        description: "The support user invited",
        schema: z.looseObject({ support: z.looseObject({ id: z.string() }), position }),
      },
      401: unauthorized,
      404: roleOrScope,
      409: errors("The e-mail address is taken"),
      422: invalid,
    },
  },
  {
    method: "put",
    path: "/account/selling_company",
    operationId: "chooseSellingCompany",
    summary: "The company the caller sells for first (one of its own)",
    tag: "Account",
    secured: true,
    body: SellingCompanyRequest,
    responses: {
      200: {
        description: "The caller's companies, chosen first",
        schema: z.looseObject({
          data: z.object({ company_ids: z.array(z.string()) }),
          position: position.nullable(),
        }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/directory_history/{event_id}",
    operationId: "directoryChange",
    summary: "One change of the directory history",
    tag: "Administration",
    secured: true,
    minPosition: "read_models",
    params: { event_id: z.string().min(1).max(100) },
    responses: {
      200: { description: "The change", schema: z.object({ data: z.looseObject({ event_id: z.string() }) }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "get",
    path: "/ticketing/channel_history/{event_id}",
    operationId: "channelChange",
    summary: "One change of a channel or gate, with its event",
    tag: "Ticketing",
    secured: true,
    minPosition: "read_models",
    params: { event_id: z.string().min(1).max(100) },
    responses: {
      200: { description: "The change", schema: z.object({ data: z.looseObject({ event_id: z.string() }) }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "post",
    path: "/bookings/reshop",
    operationId: "reshopHeldBooking",
    summary:
      "Search again for a held booking's journey (its dates and passengers), to rebook at today's prices",
    tag: "Booking",
    secured: true,
    body: LocatorRequest,
    responses: {
      200: { description: "A fresh search result", schema: z.looseObject({}) },
      401: unauthorized,
      404: notFound,
      422: errors("Invalid input, or a booking without flights to search again"),
    },
  },
  {
    method: "put",
    path: "/companies/{id}/markups",
    operationId: "setCompanyMarkups",
    summary: "Set a company's markup rules",
    tag: "Administration",
    secured: true,
    params: idParam,
    body: CompanyMarkupsRequest,
    responses: {
      200: { description: "The company after it", schema: z.looseObject({ position: position.nullable() }) },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "put",
    path: "/agency_transaction_fees/{id}",
    operationId: "setTransactionFee",
    summary: "Set or remove an agency's transaction fee (administrators)",
    tag: "Administration",
    secured: true,
    params: idParam,
    body: TransactionFeeRequest,
    responses: {
      200: { description: "The agency after it", schema: z.looseObject({ position: position.nullable() }) },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "patch",
    path: "/ticketing/company_shared_bookings/{id}",
    operationId: "setSharedBookings",
    summary: "Whether a company's agents see each other's bookings",
    tag: "Administration",
    secured: true,
    params: idParam,
    body: SharedBookingsRequest,
    responses: {
      200: { description: "The company after it", schema: z.looseObject({ position: position.nullable() }) },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/agencies/{id}/duplicate",
    operationId: "duplicateAgency",
    summary: "A new agency with another's configuration (pricing, switches), never its people or money",
    tag: "Administration",
    secured: true,
    params: idParam,
    body: UpdateAgencyRequest,
    responses: {
      201: {
        description: "The new agency",
        schema: z.looseObject({ partner: z.looseObject({ id: z.string() }), position }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/audit/replays/{id}/switch",
    operationId: "switchReplay",
    summary:
      "Put a fresh generation of a projection in service after a comparison that agreed (administrators)",
    tag: "Audit",
    secured: true,
    params: { id: z.uuid() },
    responses: {
      202: { description: "The switch run, queued", schema: z.object({ data: ReplayRun }) },
      401: unauthorized,
      404: roleOrScope,
      409: errors("A replay of this projection is already running"),
      422: errors("Only a finished comparison that agreed can be switched to"),
    },
  },
  {
    method: "put",
    path: "/account/details",
    operationId: "updateAccountDetails",
    summary: "Change the caller's name, phone or language",
    tag: "Account",
    secured: true,
    body: UpdateAccountDetailsRequest,
    responses: {
      200: { description: "The account after it", schema: z.looseObject({ position: position.nullable() }) },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "patch",
    path: "/ticketing/source_channels/{channel}",
    operationId: "toggleChannelSource",
    summary: "Allow or refuse a channel's bookings from a source (web, api, extension) (administrators)",
    tag: "Ticketing",
    secured: true,
    params: { channel: z.string().min(1).max(100) },
    query: SourceChannelQuery,
    body: ToggleRequest,
    responses: {
      200: {
        description: "The source after it (position null when it already was so)",
        schema: z.looseObject({ data: z.looseObject({}), position: position.nullable() }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/audit/export",
    operationId: "exportEvents",
    summary:
      "The same selection as the history as JSON Lines (application/x-ndjson) with chain hashes to verify offline; as one JSON document when asked for JSON",
    tag: "Audit",
    secured: true,
    minPosition: "chain",
    query: HistoryQuery,
    responses: {
      200: {
        description: "A header, then each event with its hash",
        schema: z.object({ data: z.array(z.looseObject({})) }),
      },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/ticketing/agency_channels",
    operationId: "createChannel",
    summary: "Open a ticketing channel for an agency, switched off until enabled (administrators)",
    tag: "Ticketing",
    secured: true,
    body: CreateChannelRequest,
    responses: {
      201: {
        description: "The channel",
        schema: z.looseObject({ data: z.looseObject({ id: z.string() }), position }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "patch",
    path: "/ticketing/agency_channels/{id}",
    operationId: "updateChannel",
    summary: "Change a channel's settings (name, negotiated fare code, switches)",
    tag: "Ticketing",
    secured: true,
    params: idParam,
    body: UpdateChannelRequest,
    responses: {
      200: {
        description: "The channel after it",
        schema: z.looseObject({ data: z.looseObject({ id: z.string() }), position: position.nullable() }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  ...(["post", "patch"] as const).map(
    (method): DocumentedRoute => ({
      method,
      path: "/ticketing/agency_channels/{id}/credential",
      operationId: method === "post" ? "setChannelCredential" : "editChannelCredential",
      summary:
        "Give a channel its supplier credentials, checked at once (stored encrypted, never answered back) (administrators)",
      tag: "Ticketing",
      secured: true,
      params: idParam,
      body: CredentialRequest,
      responses: {
        [method === "post" ? 201 : 200]: {
          description: "Whether the supplier accepted them, in the spec's messages",
          schema: z.looseObject({
            credential: z.looseObject({ active: z.boolean() }),
            messages: z.array(z.object({ type: z.string(), text: z.string() })),
          }),
        },
        401: unauthorized,
        404: roleOrScope,
        422: invalid,
      },
    }),
  ),
  {
    method: "delete",
    path: "/ticketing/agency_channels/{id}",
    operationId: "deleteChannel",
    summary: "Delete a channel (administrators; its history stays in the log)",
    tag: "Ticketing",
    secured: true,
    params: idParam,
    responses: {
      200: {
        description: "Deleted",
        schema: z.looseObject({ data: z.object({ id: z.string(), deleted: z.literal(true) }), position }),
      },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "get",
    path: "/ticketing/gates",
    operationId: "listGates",
    summary: "The ticketing gates: global, each agency's and each company's (administrators and auditors)",
    tag: "Ticketing",
    secured: true,
    minPosition: "read_models",
    responses: {
      200: {
        description: "The gates",
        schema: z.object({ data: z.looseObject({ main_gate: z.boolean() }) }),
      },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "patch",
    path: "/ticketing/company_channels/{id}",
    operationId: "toggleCompanyChannel",
    summary: "Whether a company sells through a channel (`{channel_id}_{company_id}` as listed)",
    tag: "Ticketing",
    secured: true,
    params: idParam,
    body: ToggleRequest,
    responses: {
      200: {
        description: "The company's channel after it",
        schema: z.looseObject({
          data: z.looseObject({ active: z.boolean() }),
          position: position.nullable(),
        }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/credit_cards",
    operationId: "listCards",
    summary:
      "The payment cards of the agencies the caller manages (brand, last four digits, expiry; never the number)",
    tag: "Ticketing",
    secured: true,
    minPosition: "read_models",
    responses: { 200: listOf("Cards"), 401: unauthorized, 404: roleOrScope },
  },
  {
    method: "post",
    path: "/credit_cards",
    operationId: "createCard",
    summary: "Add a payment card: its number goes to the vault, only its facts are kept",
    tag: "Ticketing",
    secured: true,
    body: CreateCardRequest,
    responses: {
      201: {
        description: "The card",
        schema: z.looseObject({ data: z.looseObject({ id: z.string() }), position }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: errors("Invalid input, or the card was declined"),
    },
  },
  {
    method: "patch",
    path: "/credit_cards/{id}",
    operationId: "updateCard",
    summary: "Renew a card's expiry or holder (a new number is a new card)",
    tag: "Ticketing",
    secured: true,
    params: idParam,
    body: UpdateCardRequest,
    responses: {
      200: {
        description: "The card after it",
        schema: z.looseObject({ data: z.looseObject({ id: z.string() }), position: position.nullable() }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "post",
    path: "/ticketing/agency_channels/{id}/credit_cards",
    operationId: "attachCard",
    summary: "Pay a channel's tickets with a card of its agency",
    tag: "Ticketing",
    secured: true,
    params: idParam,
    body: AttachCardRequest,
    responses: {
      201: {
        description: "Attached",
        schema: z.looseObject({
          data: z.object({ id: z.string(), credit_card_id: z.string() }),
          position: position.nullable(),
        }),
      },
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "delete",
    path: "/ticketing/agency_channels/{id}/credit_cards/{card_id}",
    operationId: "detachCard",
    summary: "Stop paying a channel's tickets with a card",
    tag: "Ticketing",
    secured: true,
    params: { ...idParam, card_id: z.string().min(1).max(100) },
    responses: {
      200: { description: "Detached", schema: z.looseObject({ position: position.nullable() }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "delete",
    path: "/credit_cards/{id}",
    operationId: "deleteCard",
    summary: "Delete a card (detached from every channel)",
    tag: "Ticketing",
    secured: true,
    params: idParam,
    responses: {
      200: {
        description: "Deleted",
        schema: z.looseObject({ data: z.object({ id: z.string(), deleted: z.literal(true) }), position }),
      },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "get",
    path: "/sales",
    operationId: "listSales",
    summary:
      "Sold tickets and EMDs, filtered (ticket[text], ticket[date_from], ticket[date_to]), paged, with totals",
    tag: "Sales",
    secured: true,
    minPosition: "read_models",
    query: SalesQuery,
    responses: {
      200: {
        description: "A page of sale lines",
        schema: z.looseObject({
          data: z.array(z.looseObject({})),
          meta: z.looseObject({ total: z.number().int() }),
        }),
      },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/analytics",
    operationId: "salesAnalytics",
    summary: "Sales figures of a period (analytics[date_from], analytics[date_to]) against the period before",
    tag: "Sales",
    secured: true,
    minPosition: "read_models",
    query: AnalyticsQuery,
    responses: {
      200: {
        description: "The figures",
        schema: z.object({ data: z.looseObject({ period: z.looseObject({}) }) }),
      },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/sales/{id}",
    operationId: "ticketReceipt",
    summary:
      "A sold ticket's (or EMD's) receipt as PDF (format=pdf, the default) or as data (format=data), with the agent's own " +
      "prices when given (custom_prices[fare], custom_prices[taxes], custom_prices[fees])",
    tag: "Sales",
    secured: true,
    minPosition: "read_models",
    params: { id: SaleId },
    query: TicketDownloadQuery,
    responses: {
      200: {
        description: "The receipt: a PDF file (Content-Disposition names it), or its data as JSON",
        mediaType: "application/pdf",
        schema: z.object({
          data: z.looseObject({
            ticket_number: z.string(),
            locator: z.string(),
            file_name: z.string(),
            price: z.looseObject({ total: Money, custom: z.boolean() }),
          }),
        }),
      },
      401: unauthorized,
      404: errors("No such sale within the caller's scope"),
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/sales/export",
    operationId: "exportSales",
    summary:
      "The sales lines of a filter (ticket[text], ticket[date_from], ticket[date_to]) as an Excel spreadsheet; " +
      "too many lines are built by a job and e-mailed as a link (GET /sales/reports/{id})",
    tag: "Sales",
    secured: true,
    minPosition: "read_models",
    query: SalesExportQuery,
    responses: {
      200: {
        description: "The spreadsheet, streamed without a length",
        mediaType: XLSX,
        headers: {
          "X-Sales-Lines": {
            description: "How many sales lines the file holds",
            required: true,
            schema: { type: "string", pattern: "^[0-9]+$" },
          },
          "X-Sales-Estimated-Bytes": {
            description: "The file's estimated size, to show the download's progress",
            required: true,
            schema: { type: "string", pattern: "^[0-9]+$" },
          },
        },
      },
      400: errors("No sales lines match the filter (`no_tickets`)"),
      401: unauthorized,
      413: errors("More lines than an export answers at once: the report is e-mailed (`report_by_email`)"),
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/sales/reports/{id}",
    operationId: "salesReport",
    summary: "An e-mailed sales report's spreadsheet, for the person who asked for it, while it is kept",
    tag: "Sales",
    secured: true,
    params: { id: z.uuid() },
    responses: {
      200: { description: "The spreadsheet", mediaType: XLSX },
      401: unauthorized,
      404: errors("No such report of the caller's, or it expired"),
    },
  },
  {
    method: "get",
    path: "/agent_company_relationships",
    operationId: "listRelationships",
    summary:
      "Which agents work for which companies, of one company when named (supervisors and administrators)",
    tag: "Administration",
    secured: true,
    minPosition: "read_models",
    query: RelationshipsQuery,
    responses: {
      200: listOf("Agents and their companies"),
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "delete",
    path: "/agent_company_relationships/{id}",
    operationId: "disconnectAgent",
    summary: "Take an agent off a company; its connection request starts over, so it may ask again",
    tag: "Administration",
    secured: true,
    params: idParam,
    responses: {
      200: { description: "Disconnected", schema: z.looseObject({ data: z.null(), position }) },
      401: unauthorized,
      404: roleOrScope,
    },
  },
  {
    method: "post",
    path: "/join_agency_requests",
    operationId: "requestJoinAgency",
    summary: "An agent asks to join a partner, for one of its companies when named",
    tag: "Administration",
    secured: true,
    body: JoinAgencyRequestBody,
    responses: {
      201: { description: "The request, sent", schema: JoinAgencyAnswer },
      401: unauthorized,
      404: errors("Not an agent, or no such partner or company"),
      422: errors("The input does not match the contract, or a request to that partner is pending"),
    },
  },
  {
    method: "get",
    path: "/join_agency_requests",
    operationId: "listJoinRequests",
    summary: "Connection requests: an agent's own, a supervisor's partner's, all for administrators",
    tag: "Administration",
    secured: true,
    minPosition: "read_models",
    query: JoinRequestsQuery,
    responses: {
      200: listOf("Connection requests, newest first"),
      401: unauthorized,
      404: roleOrScope,
      422: invalid,
    },
  },
  {
    method: "patch",
    path: "/join_agency_requests/{id}",
    operationId: "decideJoinRequest",
    summary:
      "Accept a connection request (the agent joins the company) or reject it (supervisors and administrators)",
    tag: "Administration",
    secured: true,
    params: idParam,
    body: JoinAgencyDecision,
    responses: {
      200: { description: "The request after the decision", schema: JoinAgencyAnswer },
      401: unauthorized,
      404: roleOrScope,
      422: errors("The input does not match the contract, or the request was already decided"),
    },
  },
];

type JsonSchema = Record<string, unknown>;

/** zod's own JSON Schema (2020-12, the dialect of OpenAPI 3.1), without the $schema keyword inside the document. */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as JsonSchema;
  return rest;
}

/** The answer's own headers, and X-Stale on the success of a read that honours X-Min-Position. */
function responseHeaders(route: DocumentedRoute, status: number, r: DocumentedResponse) {
  const headers = { ...(route.minPosition && status < 300 ? staleHeader : {}), ...r.headers };
  return Object.keys(headers).length > 0 ? { headers } : {};
}

/** The OpenAPI 3.1 document of the documented routes. */
export function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of documentedRoutes) {
    const parameters = [
      ...Object.entries(route.params ?? {}).map(([name, schema]) => ({
        name,
        in: "path",
        required: true,
        schema: jsonSchema(schema, "input"),
      })),
      ...Object.entries(route.query?.shape ?? {}).map(([name, schema]) => {
        const parameter = jsonSchema(schema as z.ZodType, "input");
        return {
          name,
          in: "query",
          required: !(schema as z.ZodType).safeParse(undefined).success,
          // An object in the query is sent as name[key]=value (ticket[status]=issued), as the routes read it.
          ...(parameter.type === "object" ? { style: "deepObject", explode: true } : {}),
          schema: parameter,
        };
      }),
      ...(route.minPosition
        ? [{ ...minPositionHeader(route.minPosition), schema: jsonSchema(Position, "input") }]
        : []),
    ];
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      ...(route.secured ? {} : { security: [] }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: jsonSchema(route.body, "input") } },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(route.responses)
          .map(([status, r]): [string, unknown] => [
            status,
            {
              description: r.description,
              ...responseHeaders(route, Number(status), r),
              content: {
                ...(r.schema ? { "application/json": { schema: jsonSchema(r.schema, "output") } } : {}),
                // A file: its media type without a schema, as OpenAPI 3.1 documents binary content.
                ...(r.mediaType ? { [r.mediaType]: {} } : {}),
              },
            },
          ])
          .concat(
            route.secured && !("403" in route.responses)
              ? [
                  [
                    "403",
                    {
                      ...roleRefused,
                      content: { "application/json": { schema: jsonSchema(ErrorEnvelope, "output") } },
                    },
                  ],
                ]
              : [],
          )
          .concat(
            route.secured
              ? [
                  [
                    "429",
                    {
                      ...rateLimited,
                      content: { "application/json": { schema: jsonSchema(ErrorEnvelope, "output") } },
                    },
                  ],
                ]
              : [],
          ),
      ),
    };
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Skyward API",
      version: "1",
      description:
        "Search, book, issue and refund flights for an agency's companies; browse and verify the event history. " +
        "Authenticate with `Authorization: Bearer <token>` (issued with PUT /account/api_token from a signed-in " +
        "session) or a session cookie. A route the caller's role may never use answers 403 with a code naming who " +
        "may; an unknown route or an id outside the caller's scope answers 404. " +
        "Commands accept an `Idempotency-Key` header; errors come as `{errors: [...]}`. Each API token may make " +
        "60 calls at once and 10 a second, shared by every server; beyond that a call answers 429 with Retry-After " +
        "(web sessions are not limited this way). A reference page is served at /docs. " +
        'Read-your-writes: every command answers the `position` ("<transaction>-<position>") of what it wrote; ' +
        "send it back as the `X-Min-Position` header on a read documented with that header and the read waits " +
        "(up to 2 s) until it shows your write, or answers with `X-Stale: true`.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }, { session: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API token from PUT /account/api_token" },
        session: { type: "apiKey", in: "cookie", name: "skyward_session" },
      },
    },
    tags: [...new Set(documentedRoutes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
  };
}
