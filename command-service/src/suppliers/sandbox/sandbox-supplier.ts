import { setTimeout as sleep } from "node:timers/promises";
import type { SeatMap, SupplierAncillary } from "@skyward/contracts/ancillaries";
import { airportsOf } from "@skyward/contracts/city-codes";
import { type Money, money } from "@skyward/contracts/money";
import {
  type FareRules,
  type Flight,
  isMultiCity,
  type JourneySearchRequest,
  type SupplierFare,
  type SupplierOfferDetails,
  type SupplierPrice,
  type SupplierSearchResult,
  searchSlices,
} from "@skyward/contracts/offers";
import type {
  AncillaryOrderResult,
  AncillarySelection,
  BookedAncillary,
  CancelResult,
  CredentialsCheck,
  Emd,
  EmdRefundResult,
  IssueResult,
  RefundQuote,
  RefundQuoteLine,
  RefundQuoteSlice,
  RefundResult,
  ReissueResult,
  RepriceResult,
  ReshopOffer,
  ReshopRequest,
  ReshopResult,
  ScheduleChange,
  ScheduleChangeChoice,
  ScheduleChangeResult,
  SupplierBooking,
  SupplierBookingStatus,
  SupplierBookRequest,
  SupplierCredentials,
  Ticket,
  VoidResult,
} from "@skyward/contracts/supplier";
import { CREDENTIAL_MESSAGES } from "@skyward/contracts/ticketing-commands";
import { InvalidInput } from "@skyward/infra/http/errors";
import { generateLocator } from "../../pricing/locator.ts";
import { allocate, prorate } from "../../pricing/rounding.ts";
import { randomSerial, ticketNumber } from "../../pricing/ticket-number.ts";
import { NoAvailability, SupplierRejected, SupplierUnavailable } from "../errors.ts";
import type { OperationLookup, OperationResult, Supplier, SupplierCall } from "../supplier.ts";
import { type Airline, findAirline } from "./airlines.ts";
import { type Airport, findAirport } from "./airports.ts";
import { sandboxCatalogue, seatPrices } from "./ancillaries.ts";
import { assertSupportedCurrency } from "./exchange-rates.ts";
import { bookedSlices, fareRules, flights, type SliceFare } from "./fares.ts";
import { keySlices, parseFareId, type SearchKey, searchId, searchKey } from "./offer-id.ts";
import { buildOffers, originDestination, type ResolvedFare, resolveFare } from "./offers.ts";
import { MemoryOperationLog, type OperationEntry, type OperationLog } from "./operation-log.ts";
import { assertLoyaltyAccepted, assertPassengersFit } from "./passengers.ts";
import { hashString, prng, seeded } from "./random.ts";
import { bookingScenario, credentialsRejected, SANDBOX_SCENARIOS, searchScenario } from "./scenarios.ts";
import { scheduleChangeOf } from "./schedule-changes.ts";
import { seatMap, seatOnMap } from "./seat-map.ts";
import { addDays, localDate, localToUtc } from "./zoned-time.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Sales close two hours before departure, as most carriers close their inventory. */
const SALES_CLOSE_BEFORE_DEPARTURE = 2 * HOUR;
const NETWORK_TIME_LIMIT = 24 * HOUR;
const LOW_COST_TIME_LIMIT = HOUR;
const SCHEDULE_DAYS_AHEAD = 361;
const QUOTE_VALIDITY = 30 * MINUTE;
const MAX_RESHOP_OFFERS = 10;
const DEFAULT_MAX_BOOKINGS = 10_000;

/**
 * The built-in supplier: deterministic content from real airports and carriers, and bookings kept in this instance's
 * memory. Our event store is the source of truth, so the Map is only the sandbox's own view: when a booking is not in
 * it (a restart, another process), the snapshot passed with the call is adopted, and everything else (scenario,
 * prices, ticket numbers) is derived again from the booking's fare id and names. See SCENARIOS.md.
 */
export class SandboxSupplier implements Supplier {
  readonly code = "sandbox";
  readonly #bookings = new Map<string, SupplierBooking>();
  readonly #maxBookings: number;
  readonly #operations: OperationLog;

  constructor(options: { maxBookings?: number; operations?: OperationLog } = {}) {
    this.#maxBookings = options.maxBookings ?? DEFAULT_MAX_BOOKINGS;
    this.#operations = options.operations ?? new MemoryOperationLog();
  }

  async checkCredentials(credentials: SupplierCredentials, _call: { now: Date }): Promise<CredentialsCheck> {
    return credentialsRejected(credentials.password)
      ? { active: false, message: CREDENTIAL_MESSAGES.inactive }
      : { active: true, message: CREDENTIAL_MESSAGES.active };
  }

  async search(request: JourneySearchRequest, call: SupplierCall): Promise<SupplierSearchResult> {
    authorize(call);
    const multiCity = isMultiCity(request);
    const slices = searchSlices(request);
    const at = (i: number, field: string) =>
      multiCity ? `/slices/${i}/${field}` : `/${i === 0 ? field : "return_date"}`;
    const problems = slices.flatMap((slice, i) =>
      i > 0 && !multiCity
        ? []
        : [
            ...unknownAirport(slice.origin, at(i, "origin")),
            ...unknownAirport(slice.destination, at(i, "destination")),
          ],
    );
    if (problems.length > 0) throw new InvalidInput(problems);
    const [first] = slices;
    if (!first) throw new InvalidInput([{ pointer: "/slices", detail: "must hold at least one slice" }]);
    const origin = airport(first.origin, at(0, "origin"));
    const scenario = slices
      .map((slice) => searchScenario(slice.origin, slice.destination))
      .find((found) => found !== null);
    if (scenario === "searchFailure") {
      throw new SupplierUnavailable("The airline system timed out (sandbox scenario: search with ERR)");
    }
    if (scenario === "searchHang")
      await sleep(SANDBOX_SCENARIOS.searchHang.hangSeconds * 1000, undefined, { ref: false });
    assertSellableSlices(
      slices.map((slice, i) => ({ date: slice.departure_date, pointer: at(i, "departure_date") })),
      origin,
      call.now,
    );
    const key = searchKey(request, call.currency);
    const id = searchId(key);
    if (scenario === "noAvailability") return { id, currency: call.currency, origin_destinations: [] };
    const closesAt = call.now.getTime() + SALES_CLOSE_BEFORE_DEPARTURE;
    return {
      id,
      currency: call.currency,
      origin_destinations: buildOffers(key, closesAt).map((offer) => originDestination(key, offer)),
    };
  }

  async offerDetails(input: { fare_id: string }, call: SupplierCall): Promise<SupplierOfferDetails> {
    authorize(call);
    return details(resolveIn(input.fare_id, call));
  }

  async fareRules(input: { fare_id: string }, call: SupplierCall): Promise<FareRules> {
    authorize(call);
    const { key, offer, fare } = resolveIn(input.fare_id, call);
    return fareRules(
      fare,
      airline(fare.validating_carrier),
      flights(offer.itinerary, offer.cabins, key.search.cabin),
    );
  }

  async price(input: { fare_id: string }, call: SupplierCall): Promise<SupplierOfferDetails> {
    authorize(call);
    const resolved = resolveIn(input.fare_id, call);
    assertStillSold(resolved, call.now);
    return details(resolved);
  }

  async ancillaryCatalogue(
    input: { fare_id: string } | { booking: SupplierBooking },
    call: SupplierCall,
  ): Promise<SupplierAncillary[]> {
    authorize(call);
    const fareId = "fare_id" in input ? input.fare_id : this.#current(input.booking, call.now).fare_id;
    return catalogue(resolveIn(fareId, call));
  }

  async seatMap(
    input: ({ booking: SupplierBooking } | { fare_id: string }) & { segment_id: string },
    call: SupplierCall,
  ): Promise<SeatMap> {
    authorize(call);
    if ("booking" in input) {
      const booking = this.#current(input.booking, call.now);
      return seatMapOf(booking, catalogue(resolveIn(booking.fare_id, call)), input.segment_id);
    }
    // The fare's flights as sold, nobody's seats held: the same cabin the booking would have.
    const resolved = resolveIn(input.fare_id, call);
    const segments = flights(resolved.offer.itinerary, resolved.offer.cabins, resolved.key.search.cabin);
    return seatMapOf({ flights: segments, ancillaries: [] }, catalogue(resolved), input.segment_id);
  }

  async book(request: SupplierBookRequest, call: SupplierCall): Promise<SupplierBooking> {
    authorize(call);
    const resolved = resolveIn(request.fare_id, call);
    const { key, offer, fare } = resolved;
    assertStillSold(resolved, call.now);
    const itineraryFlights = flights(offer.itinerary, offer.cabins, key.search.cabin);
    const dates = itineraryFlights.map((f) => f.departure_at.slice(0, 10));
    const party = { adults: key.search.adults, children: key.search.children, infants: key.search.infants };
    assertPassengersFit(request.passengers, party, dates[0] ?? "", dates.at(-1) ?? "");
    assertLoyaltyAccepted(
      request.services ?? [],
      itineraryFlights.flatMap((f) => f.segments.map((segment) => segment.carrier)),
    );

    const scenario = bookingScenario(request.passengers);
    if (scenario === "soldOut") {
      throw new NoAvailability(
        `The last seats on this fare were just sold (sandbox scenario: last name ${SANDBOX_SCENARIOS.soldOut.lastName})`,
      );
    }
    if (scenario === "bookingFailure") {
      throw new SupplierUnavailable(
        `The airline did not answer the booking (sandbox scenario: last name ${SANDBOX_SCENARIOS.bookingFailure.lastName})`,
      );
    }

    const now = call.now.getTime();
    const seed = `${request.fare_id}|${request.passengers.map((p) => `${p.last_name}/${p.first_name}`).join()}`;
    const existing = this.#retry(seed, call.now);
    if (existing) return copyOf(existing);

    const timeLimit = Math.min(
      now + (offer.itinerary.carrier.lowCost ? LOW_COST_TIME_LIMIT : NETWORK_TIME_LIMIT),
      offer.firstDepartureUtc - SALES_CLOSE_BEFORE_DEPARTURE,
    );
    const asynchronous = scenario === "asyncConfirmed" || scenario === "asyncFailed";
    return this.#store({
      supplier: this.code,
      supplier_locator: this.#newLocator(seed, call.now),
      status: "held",
      provider_status: asynchronous ? "in_progress" : "confirmed",
      error: null,
      created_at: iso(now),
      time_limit: iso(timeLimit),
      fare_id: fare.fare_id,
      flights: itineraryFlights,
      fare,
      passengers: request.passengers,
      contacts: request.contacts,
      price: fare.price,
      ancillaries: [],
      tickets: [],
      emds: [],
      issued_at: null,
      void_until: null,
    });
  }

  async retrieve(input: { booking: SupplierBooking }, call: SupplierCall): Promise<SupplierBooking> {
    authorize(call);
    return copyOf(this.#current(input.booking, call.now));
  }

  async reprice(input: { booking: SupplierBooking }, call: SupplierCall): Promise<RepriceResult> {
    authorize(call);
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["held"], "reprice");
    const price = currentPrice(booking);
    return {
      price,
      changed: price.total.amount !== booking.price.total.amount,
      previous_total: booking.price.total,
    };
  }

  async issue(
    input: { operation_id: string; booking: SupplierBooking; accepted_total: number },
    call: SupplierCall,
  ): Promise<IssueResult> {
    authorize(call);
    const scenario = bookingScenario(input.booking.passengers);
    if (scenario === "slowIssueRequest") await sleep(SANDBOX_SCENARIOS.slowIssueRequest.delaySeconds * 1000);
    // A hung airline: nothing waits on it but the call itself (the timer keeps no process alive).
    if (scenario === "hangingIssue")
      await sleep(SANDBOX_SCENARIOS.hangingIssue.hangSeconds * 1000, undefined, { ref: false });
    const result = await this.#operation(input.operation_id, () => this.#issue(input, call));
    if (scenario === "slowIssueAnswer") await sleep(SANDBOX_SCENARIOS.slowIssueAnswer.delaySeconds * 1000);
    return result as IssueResult;
  }

  #issue(input: { booking: SupplierBooking; accepted_total: number }, call: SupplierCall) {
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["held"], "issue");
    assertConfirmed(booking);
    if (bookingScenario(booking.passengers) === "issueFailure") {
      throw new SupplierUnavailable(
        `Ticketing timed out; the booking is still held (sandbox scenario: last name ${SANDBOX_SCENARIOS.issueFailure.lastName})`,
      );
    }
    const price = currentPrice(booking);
    if (input.accepted_total !== price.total.amount) {
      const changed: IssueResult = { outcome: "price_changed", previous_total: booking.price.total, price };
      return { result: changed, apply: () => {} };
    }
    const carrier = airline(booking.fare.validating_carrier);
    const now = call.now.getTime();
    const issued = withEmds(
      {
        ...booking,
        status: "issued",
        price,
        tickets: tickets(booking, price, carrier, booking.fare_id),
        issued_at: iso(now),
        void_until: voidUntil(carrier, booking, now),
      },
      carrier,
    );
    const result: IssueResult = { outcome: "issued", booking: copyOf(issued) };
    return { result, apply: () => this.#store(issued) };
  }

  async orderAncillaries(
    input: { operation_id: string; booking: SupplierBooking; items: AncillarySelection[] },
    call: SupplierCall,
  ): Promise<AncillaryOrderResult> {
    authorize(call);
    const result = await this.#operation(input.operation_id, () => this.#orderAncillaries(input, call));
    await this.#slowAfterSales(input.booking);
    return result as AncillaryOrderResult;
  }

  /**
   * Adds ancillaries: to a held booking (their EMDs come with the tickets), or to an issued one, whose EMDs are issued
   * at once (ASYNCEMD: a few seconds later; a free seat needs none). A seat must be on the map, free, of the item's
   * zone, and each passenger holds one seat per segment.
   */
  #orderAncillaries(input: { booking: SupplierBooking; items: AncillarySelection[] }, call: SupplierCall) {
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["held", "issued", "exchanged"], "add ancillaries to");
    assertConfirmed(booking);
    const scenario = bookingScenario(booking.passengers);
    if (booking.status !== "held" && scenario === "emdFailure") {
      throw new SupplierRejected(
        "emd_refused",
        `The airline refused to issue the EMDs (sandbox scenario: last name ${SANDBOX_SCENARIOS.emdFailure.lastName})`,
      );
    }
    const items = catalogue(resolveIn(booking.fare_id, call));
    const byId = new Map(items.map((item) => [item.ancillary_id, item]));
    const open = booking.ancillaries.filter((a) => !a.refunded);
    const added: BookedAncillary[] = [];
    input.items.forEach((selection, i) => {
      const item = byId.get(selection.ancillary_id);
      const passenger = booking.passengers[selection.passenger_index];
      if (!item)
        throw new InvalidInput([
          { pointer: `/items/${i}/ancillary_id`, detail: "is not sold on this booking" },
        ]);
      if (!passenger || !item.passenger_types.includes(passenger.type)) {
        throw new InvalidInput([
          { pointer: `/items/${i}/passenger_index`, detail: `cannot have ${item.title}` },
        ]);
      }
      const seat =
        item.type === "seat" ? assertSeat(booking, items, item, selection, [...open, ...added], i) : null;
      const sameItem = (a: BookedAncillary) =>
        a.ancillary_id === selection.ancillary_id && a.passenger_index === selection.passenger_index;
      if (item.type !== "seat" && [...open, ...added].some(sameItem))
        throw new SupplierRejected("ancillary_already_booked", `${item.title} is already booked`);
      const pending = booking.status !== "held" && scenario === "asyncEmd" && item.price.amount > 0;
      added.push({
        ancillary_id: item.ancillary_id,
        passenger_index: selection.passenger_index,
        seat,
        item,
        emd_number: null,
        emd_pending: pending,
        refunded: false,
        ordered_at: call.now.toISOString(),
      });
    });
    const carrier = airline(booking.fare.validating_carrier);
    const updated = withEmds({ ...booking, ancillaries: [...booking.ancillaries, ...added] }, carrier);
    const currency = booking.price.total.currency;
    const result: AncillaryOrderResult = {
      booking: copyOf(updated),
      added: copyOf(updated.ancillaries.slice(booking.ancillaries.length)),
      total: money(
        added.reduce((sum, a) => sum + a.item.price.amount, 0),
        currency,
      ),
    };
    return { result, apply: () => this.#store(updated) };
  }

  async refundEmd(
    input: { operation_id: string; booking: SupplierBooking; emd_number: string },
    call: SupplierCall,
  ): Promise<EmdRefundResult> {
    authorize(call);
    const result = await this.#operation(input.operation_id, () => this.#refundEmd(input, call));
    await this.#slowAfterSales(input.booking);
    return result as EmdRefundResult;
  }

  /** Refunds an unused EMD in full: before its segment departs, once. */
  #refundEmd(input: { booking: SupplierBooking; emd_number: string }, call: SupplierCall) {
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["issued", "exchanged", "refunded"], "refund an EMD of");
    const index = booking.ancillaries.findIndex((a) => a.emd_number === input.emd_number);
    const ancillary = booking.ancillaries[index];
    if (!ancillary || ancillary.refunded)
      throw new SupplierRejected("emd_not_refundable", `EMD ${input.emd_number} is not open on this booking`);
    const segment = booking.flights
      .flatMap((f) => f.segments)
      .find((s) => s.id === ancillary.item.segment_id);
    if (segment && Date.parse(segment.departure_at) <= call.now.getTime())
      throw new SupplierRejected("emd_used", `The flight of EMD ${input.emd_number} has departed`);
    const ancillaries = booking.ancillaries.map((a, i) => (i === index ? { ...a, refunded: true } : a));
    const refunded: SupplierBooking = {
      ...booking,
      ancillaries,
      emds: booking.emds.filter((e) => e.emd_number !== input.emd_number),
    };
    const result: EmdRefundResult = {
      booking: copyOf(refunded),
      emd_number: input.emd_number,
      emd_refunded: ancillary.item.price,
      refunded_at: call.now.toISOString(),
    };
    return { result, apply: () => this.#store(refunded) };
  }

  async void(
    input: { operation_id: string; booking: SupplierBooking },
    call: SupplierCall,
  ): Promise<VoidResult> {
    authorize(call);
    return (await this.#operation(input.operation_id, () => this.#void(input, call))) as VoidResult;
  }

  #void(input: { booking: SupplierBooking }, call: SupplierCall) {
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["issued"], "void");
    if (booking.void_until === null) {
      throw new SupplierRejected(
        "void_not_allowed",
        `${airline(booking.fare.validating_carrier).name} tickets cannot be voided; refund them instead`,
      );
    }
    if (call.now.getTime() > Date.parse(booking.void_until)) {
      throw new SupplierRejected("void_window_closed", `The void window closed at ${booking.void_until}`);
    }
    const voided: SupplierBooking = { ...booking, status: "voided" };
    const result: VoidResult = { booking: copyOf(voided), voided_at: call.now.toISOString() };
    return { result, apply: () => this.#store(voided) };
  }

  async cancel(
    input: { operation_id: string; booking: SupplierBooking },
    call: SupplierCall,
  ): Promise<CancelResult> {
    authorize(call);
    return (await this.#operation(input.operation_id, () => this.#cancel(input, call))) as CancelResult;
  }

  #cancel(input: { booking: SupplierBooking }, call: SupplierCall) {
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["held"], "cancel");
    const cancelled: SupplierBooking = { ...booking, status: "cancelled" };
    const result: CancelResult = { booking: copyOf(cancelled), cancelled_at: call.now.toISOString() };
    return { result, apply: () => this.#store(cancelled) };
  }

  async operationOutcome(
    input: { operation_id: string; booking: SupplierBooking },
    call: SupplierCall,
  ): Promise<OperationLookup> {
    authorize(call);
    // An id never seen is fenced: the airline will refuse it if the call it names arrives late.
    const { entry } = (await this.#operations.record(input.operation_id, { status: "fenced" })) as {
      entry: Entry;
    };
    if (entry.status === "fenced") return { status: "unknown" };
    if (entry.status === "done") this.#adopt(entry.result);
    return entry;
  }

  /**
   * Runs an operation once per id: a repeat answers the first outcome, a fenced id is refused. The outcome is
   * recorded before the sandbox's own view of the booking moves, so a lost answer can be looked up.
   */
  async #operation(
    operationId: string,
    act: () => { result: OperationResult; apply: () => void },
  ): Promise<OperationResult> {
    // One statement per operation: the outcome is worked out first (nothing moves before `apply`), and recording it
    // answers the entry that stands instead when the id was seen before (a repeat, or fenced).
    let outcome: ReturnType<typeof act> | null = null;
    let attempt: OperationEntry;
    try {
      outcome = act();
      attempt = { status: "done", result: outcome.result } as OperationEntry;
    } catch (error) {
      if (
        !(
          error instanceof SupplierRejected ||
          error instanceof SupplierUnavailable ||
          error instanceof NoAvailability
        )
      ) {
        const standing = (await this.#operations.get(operationId)) as Entry | null;
        if (standing) return answer(standing, this);
        throw error;
      }
      attempt = { status: "failed", code: error.code, message: error.message };
    }
    const { entry, recorded } = await this.#operations.record(operationId, attempt);
    if (recorded) outcome?.apply();
    return answer(entry as Entry, this);
  }

  #adopt(result: OperationResult): void {
    if ("booking" in result) this.#remember(result.booking);
  }

  async refundQuote(
    input: { booking: SupplierBooking; passenger_indexes: number[] },
    call: SupplierCall,
  ): Promise<RefundQuote> {
    authorize(call);
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["issued", "exchanged"], "refund");
    const now = call.now.getTime();
    const quoted = refundLines(booking, now).filter((l) =>
      input.passenger_indexes.includes(l.passenger_index),
    );
    const lines = quoted.map(({ slices: _, ...line }) => line);
    if (lines.length === 0)
      throw new SupplierRejected("no_such_ticket", "None of these passengers has a ticket left to refund");
    const currency = booking.price.total.currency;
    const sum = (pick: (line: RefundQuoteLine) => Money) =>
      money(
        lines.reduce((total, line) => total + pick(line).amount, 0),
        currency,
      );
    return {
      quote_id: `RQ${hashString(`${booking.supplier_locator}|${now}|${lines.map((l) => l.ticket_number)}`)
        .toString(36)
        .toUpperCase()}`,
      supplier_locator: booking.supplier_locator,
      lines,
      penalty: sum((l) => l.penalty),
      refundable: sum((l) => l.refundable),
      slices: quoteSlices(quoted, currency),
      created_at: iso(now),
      expires_at: iso(now + QUOTE_VALIDITY),
    };
  }

  async refundConfirm(
    input: { operation_id: string; booking: SupplierBooking; quote: RefundQuote },
    call: SupplierCall,
  ): Promise<RefundResult> {
    authorize(call);
    const result = await this.#operation(input.operation_id, () => this.#refund(input, call));
    await this.#slowAfterSales(input.booking);
    return result as RefundResult;
  }

  /** Refunds the quoted tickets; the booking is refunded once it has no ticket left. */
  #refund(input: { booking: SupplierBooking; quote: RefundQuote }, call: SupplierCall) {
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["issued", "exchanged"], "refund");
    if (input.quote.supplier_locator !== booking.supplier_locator) {
      throw new SupplierRejected("refund_quote_mismatch", "The refund quote belongs to another booking");
    }
    if (call.now.getTime() > Date.parse(input.quote.expires_at)) {
      throw new SupplierRejected("refund_quote_expired", "The refund quote expired: request a new one");
    }
    const quoted = new Set(input.quote.lines.map((l) => l.ticket_number));
    if (![...quoted].every((n) => booking.tickets.some((t) => t.ticket_number === n))) {
      throw new SupplierRejected(
        "refund_quote_changed",
        "Some quoted tickets are no longer open: quote again",
      );
    }
    if (bookingScenario(booking.passengers) === "refundFailure") {
      throw new SupplierUnavailable(
        `The refund timed out; the tickets are still open (sandbox scenario: last name ${SANDBOX_SCENARIOS.refundFailure.lastName})`,
      );
    }
    const tickets = booking.tickets.filter((t) => !quoted.has(t.ticket_number));
    const refunded: SupplierBooking = {
      ...booking,
      tickets,
      status: tickets.length === 0 ? "refunded" : booking.status,
    };
    const result: RefundResult = {
      booking: copyOf(refunded),
      refunded: input.quote.refundable,
      refunded_at: call.now.toISOString(),
    };
    return { result, apply: () => this.#store(refunded) };
  }

  /** The scripted slow answer of a refund, reissue or EMD: the airline has acted, its answer is still on the way. */
  async #slowAfterSales(booking: SupplierBooking): Promise<void> {
    if (bookingScenario(booking.passengers) === "slowAfterSalesAnswer")
      await sleep(SANDBOX_SCENARIOS.slowAfterSalesAnswer.delaySeconds * 1000);
  }

  async reshop(
    input: { booking: SupplierBooking; request: ReshopRequest },
    call: SupplierCall,
  ): Promise<ReshopResult> {
    authorize(call);
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["issued", "exchanged"], "change");
    const key = this.#reshopKey(booking, input.request, call);
    const closesAt = call.now.getTime() + SALES_CLOSE_BEFORE_DEPARTURE;
    const changed = input.request.slice;
    const sliceRule = changedSlice(booking, changed);
    // One slice changes: every other slice keeps the flights booked, and on a multi-city fare its family too.
    const keepsTheRest = (offered: Flight[], fare: SupplierFare) =>
      changed === undefined ||
      (offered.every((f, i) => i === changed || flightSignature(f) === flightSignature(booking.flights[i])) &&
        keepsFamilies(booking, offered, fare, changed));
    const offers: ReshopOffer[] = buildOffers(key, closesAt)
      .flatMap((offer) => {
        const offered = flights(offer.itinerary, offer.cabins, key.cabin);
        return offer.fares
          .filter((fare) => keepsTheRest(offered, fare))
          .map((fare) => ({
            reshop_offer_id: fare.fare_id,
            flights: offered,
            fare,
            ...exchangeCharges(booking, fare.price, sliceRule),
          }));
      })
      .sort((a, b) => a.total_due.amount - b.total_due.amount)
      .slice(0, MAX_RESHOP_OFFERS);
    return {
      offers,
      expires_at: iso(call.now.getTime() + QUOTE_VALIDITY),
      slice_rule: sliceRule
        ? {
            slice: sliceRule.slice,
            origin: sliceRule.origin,
            destination: sliceRule.destination,
            family: sliceRule.family,
            brand_name: sliceRule.brand_name,
            penalty: sliceRule.penalty,
          }
        : null,
    };
  }

  async reissue(
    input: {
      operation_id: string;
      booking: SupplierBooking;
      reshop_offer_id: string;
      accepted_total_due: number;
      slice?: number;
    },
    call: SupplierCall,
  ): Promise<ReissueResult> {
    authorize(call);
    const result = await this.#operation(input.operation_id, () => this.#reissue(input, call));
    await this.#slowAfterSales(input.booking);
    return result as ReissueResult;
  }

  #reissue(
    input: { booking: SupplierBooking; reshop_offer_id: string; accepted_total_due: number; slice?: number },
    call: SupplierCall,
  ) {
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["issued", "exchanged"], "change");
    if (booking.tickets.length < booking.passengers.length) {
      throw new SupplierRejected(
        "partly_refunded",
        "Some tickets of this booking were refunded: it cannot be changed",
      );
    }
    const resolved = resolveIn(input.reshop_offer_id, call);
    const { key, offer, fare } = resolved;
    const current = bookingKey(booking);
    const route = (k: SearchKey) => keySlices(k).map((slice) => `${slice.origin}${slice.destination}`);
    const sameTrip =
      route(key.search).join() === route(current).join() &&
      key.search.origin === current.origin &&
      key.search.destination === current.destination &&
      key.search.cabin === current.cabin &&
      Boolean(key.search.returnDate) === Boolean(current.returnDate) &&
      key.search.adults === current.adults &&
      key.search.children === current.children &&
      key.search.infants === current.infants &&
      fare.validating_carrier === booking.fare.validating_carrier;
    if (!sameTrip) {
      throw new SupplierRejected("not_an_exchange", "The new offer is not the same trip on the same carrier");
    }
    const newFlights = flights(offer.itinerary, offer.cabins, key.search.cabin);
    if (input.slice !== undefined && !keepsFamilies(booking, newFlights, fare, input.slice)) {
      throw new SupplierRejected("not_an_exchange", "A one-slice exchange keeps the other slices' fares");
    }
    assertStillSold(resolved, call.now);
    const charges = exchangeCharges(booking, fare.price, changedSlice(booking, input.slice));
    if (charges.total_due.amount !== input.accepted_total_due) {
      throw new SupplierRejected(
        "reshop_price_changed",
        `The exchange now costs ${charges.total_due.amount} ${charges.total_due.currency}: reshop and confirm again`,
      );
    }
    if (bookingScenario(booking.passengers) === "exchangeFailure") {
      throw new SupplierUnavailable(
        `The reissue timed out; the old tickets stand (sandbox scenario: last name ${SANDBOX_SCENARIOS.exchangeFailure.lastName})`,
      );
    }
    const carrier = airline(fare.validating_carrier);
    // New serials: seeded by the new fare and the tickets they replace, so an exchange back prints new numbers too.
    const serialSeed = `${fare.fare_id}|${booking.tickets[0]?.ticket_number ?? ""}`;
    const exchanged: SupplierBooking = {
      ...booking,
      status: "exchanged",
      fare_id: fare.fare_id,
      fare,
      flights: newFlights,
      price: fare.price,
      // EMDs are documents of their own: the reissue leaves them with their passengers, open until refunded.
      ancillaries: booking.ancillaries,
      emds: booking.emds,
      tickets: tickets(booking, fare.price, carrier, serialSeed),
      issued_at: call.now.toISOString(),
      void_until: null,
    };
    const result: ReissueResult = {
      booking: copyOf(exchanged),
      charged: charges.total_due,
      reissued_at: call.now.toISOString(),
    };
    return { result, apply: () => this.#store(exchanged) };
  }

  async scheduleChange(
    input: { booking: SupplierBooking },
    call: SupplierCall,
  ): Promise<ScheduleChange | null> {
    authorize(call);
    const change = scheduleChangeOf(this.#current(input.booking, call.now), call.now);
    return change ? copyOf(change) : null;
  }

  async answerScheduleChange(
    input: {
      operation_id: string;
      booking: SupplierBooking;
      change_id: string;
      choice: ScheduleChangeChoice;
      option_id: string | null;
    },
    call: SupplierCall,
  ): Promise<ScheduleChangeResult> {
    authorize(call);
    const result = await this.#operation(input.operation_id, () => this.#answerScheduleChange(input, call));
    await this.#slowAfterSales(input.booking);
    return result as ScheduleChangeResult;
  }

  /** Accepting flies the new flights; a refund (not for a minor change) closes every open ticket, no penalty kept. */
  #answerScheduleChange(
    input: {
      booking: SupplierBooking;
      change_id: string;
      choice: ScheduleChangeChoice;
      option_id: string | null;
    },
    call: SupplierCall,
  ) {
    const booking = this.#current(input.booking, call.now);
    assertStatus(booking, ["issued", "exchanged"], "answer a schedule change of");
    const change = scheduleChangeOf(booking, call.now);
    if (!change || change.change_id !== input.change_id)
      throw new SupplierRejected(
        "schedule_change_not_found",
        "The airline has no such change on this booking",
      );
    if (input.choice === "refund" && change.kind === "minor")
      throw new SupplierRejected("refund_not_allowed", "A minor schedule change gives no involuntary refund");
    const option = change.alternatives.find((a) => a.option_id === input.option_id);
    if (input.choice === "exchange" && !option)
      throw new SupplierRejected("schedule_change_not_found", "The airline offers no such alternative");
    const answered = [...(booking.answered_schedule_changes ?? []), change.change_id];
    const currency = booking.price.total.currency;
    const carrier = airline(booking.fare.validating_carrier);
    const updated: SupplierBooking =
      input.choice === "accept"
        ? { ...booking, flights: change.new_flights, answered_schedule_changes: answered }
        : input.choice === "exchange" && option
          ? {
              ...booking,
              status: "exchanged",
              flights: option.flights,
              // Reissued at the same price: new serials, seeded by the alternative and the tickets they replace.
              tickets: tickets(
                booking,
                booking.price,
                carrier,
                `${option.option_id}|${booking.tickets[0]?.ticket_number ?? ""}`,
              ),
              issued_at: call.now.toISOString(),
              void_until: null,
              answered_schedule_changes: answered,
            }
          : { ...booking, tickets: [], status: "refunded", answered_schedule_changes: answered };
    const refunded =
      input.choice === "refund"
        ? money(
            booking.tickets.reduce((sum, t) => sum + t.total.amount, 0),
            currency,
          )
        : null;
    const result: ScheduleChangeResult = {
      booking: copyOf(updated),
      change_id: change.change_id,
      choice: input.choice,
      refunded,
      answered_at: call.now.toISOString(),
    };
    return { result, apply: () => this.#store(updated) };
  }

  /** The sandbox's booking, or the caller's snapshot when the sandbox no longer has it; moved on to `now`. */
  #current(snapshot: SupplierBooking, nowDate: Date): SupplierBooking {
    if (snapshot.supplier !== this.code) {
      throw new SupplierRejected(
        "unknown_booking",
        `Booking ${snapshot.supplier_locator} is not a sandbox booking`,
      );
    }
    const known = this.#bookings.get(snapshot.supplier_locator) ?? snapshot;
    const now = nowDate.getTime();
    let booking = known;
    if (booking.provider_status === "in_progress") {
      const scenario = bookingScenario(booking.passengers);
      const settlesAt = Date.parse(booking.created_at) + SANDBOX_SCENARIOS.asyncConfirmed.afterSeconds * 1000;
      if (now >= settlesAt) {
        booking =
          scenario === "asyncFailed"
            ? {
                ...booking,
                status: "cancelled",
                provider_status: "failed",
                error: `The airline rejected the booking (sandbox scenario: last name ${SANDBOX_SCENARIOS.asyncFailed.lastName})`,
              }
            : { ...booking, provider_status: "confirmed" };
      }
    }
    if (booking.ancillaries.some((a) => a.emd_pending)) {
      const settleMs = SANDBOX_SCENARIOS.asyncEmd.afterSeconds * 1000;
      const due = booking.ancillaries.map((a) =>
        a.emd_pending && now >= Date.parse(a.ordered_at ?? booking.created_at) + settleMs
          ? { ...a, emd_pending: false }
          : a,
      );
      if (due.some((a, i) => a !== booking.ancillaries[i])) {
        booking = withEmds({ ...booking, ancillaries: due }, airline(booking.fare.validating_carrier));
      }
    }
    if (booking.status === "held" && now > Date.parse(booking.time_limit)) {
      booking = {
        ...booking,
        status: "cancelled",
        error: "The time limit passed: the airline cancelled the booking",
      };
    }
    if (booking !== known || !this.#bookings.has(booking.supplier_locator)) this.#remember(booking);
    return booking;
  }

  /** An identical booking request at the same moment (a retried call) gets the booking it already made. */
  #retry(seed: string, now: Date): SupplierBooking | undefined {
    const booking = this.#bookings.get(generateLocator(locatorSource(seed, now, 0)));
    const sameRequest = booking && `${booking.fare_id}|${passengerNames(booking)}` === seed;
    return sameRequest && booking.created_at === now.toISOString() ? booking : undefined;
  }

  #newLocator(seed: string, now: Date): string {
    for (let attempt = 0; ; attempt++) {
      const locator = generateLocator(locatorSource(seed, now, attempt));
      if (!this.#bookings.has(locator)) return locator;
    }
  }

  #reshopKey(booking: SupplierBooking, request: ReshopRequest, call: SupplierCall): SearchKey {
    const now = call.now.getTime();
    const flown = booking.flights.some((f) => f.segments.some((s) => Date.parse(s.departure_at) <= now));
    if (flown) {
      throw new SupplierRejected("partly_flown", "The sandbox exchanges only tickets with nothing flown yet");
    }
    // A multi-city fare's slice has its own rule: a slice that allows no change is refused by name.
    if (request.slice !== undefined) changedSlice(booking, request.slice);
    if (!booking.fare.penalty.change_before_departure.allowed) {
      throw new SupplierRejected(
        "changes_not_permitted",
        `${booking.fare.brand_name} fares cannot be changed`,
      );
    }
    const current = bookingKey(booking);
    if (request.slice !== undefined) return oneSliceKey(current, booking, request, request.slice, call.now);
    if (current.multiCity) {
      throw new InvalidInput([
        { pointer: "/slice", detail: "is required for a multi-city journey: the slice to change" },
      ]);
    }
    if (Boolean(request.return_date) !== Boolean(current.returnDate)) {
      throw new InvalidInput([
        {
          pointer: "/return_date",
          detail: current.returnDate ? "is required for a round trip" : "must be empty for a one-way trip",
        },
      ]);
    }
    assertSellableDates(
      request.departure_date,
      request.return_date,
      airport(current.origin, "/origin"),
      call.now,
    );
    return {
      ...current,
      departureDate: request.departure_date,
      returnDate: request.return_date ?? null,
      carriers: [booking.fare.validating_carrier],
      currency: booking.price.total.currency,
    };
  }

  #store(booking: SupplierBooking): SupplierBooking {
    this.#remember(booking);
    return copyOf(booking);
  }

  #remember(booking: SupplierBooking): void {
    this.#bookings.delete(booking.supplier_locator);
    if (this.#bookings.size >= this.#maxBookings) {
      const oldest = this.#bookings.keys().next().value;
      if (oldest !== undefined) this.#bookings.delete(oldest);
    }
    this.#bookings.set(booking.supplier_locator, copyOf(booking));
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The booked slice a one-slice exchange of a multi-city fare changes, whose rule sets the change fee; refused when
 * that slice's fare allows no change. Null for a journey changed as a whole, or a fare of one rule throughout.
 */
function changedSlice(booking: SupplierBooking, index: number | undefined): SliceFare | null {
  if (index === undefined) return null;
  const slice = sliceRulesOf(booking)?.[index];
  if (!slice) return null;
  if (!slice.penalty.change_before_departure.allowed) {
    throw new SupplierRejected(
      "slice_not_changeable",
      `Flight ${index + 1} (${slice.origin}-${slice.destination}) is sold as ${slice.brand_name}, which allows no changes`,
      "/slice",
    );
  }
  return slice;
}

/** Whether a new fare sells every slice but the changed one in the family booked (always, but on multi-city fares). */
function keepsFamilies(
  booking: SupplierBooking,
  offered: readonly Flight[],
  fare: SupplierFare,
  changed: number,
): boolean {
  const booked = sliceRulesOf(booking);
  if (!booked) return true;
  const next = bookedSlices(fare, offered, airline(fare.validating_carrier));
  return booked.every((s, i) => i === changed || next[i]?.family === s.family);
}

/** A flight as the traveller flies it: its segments' carriers, numbers and departures. */
const flightSignature = (flight: Flight | undefined) =>
  flight?.segments.map((s) => `${s.carrier}${s.flight_number}@${s.departure_at}`).join() ?? "";

/**
 * The key of a booked journey with one slice moved to a new date (or the same date, for another flight), on the
 * validating carrier; the date stays between its neighbours' and within the sold schedule.
 */
function oneSliceKey(
  current: SearchKey,
  booking: SupplierBooking,
  request: ReshopRequest,
  index: number,
  now: Date,
): SearchKey {
  const slices = keySlices(current);
  const slice = slices[index];
  if (!slice) {
    throw new InvalidInput([
      {
        pointer: "/slice",
        detail: `must be below ${slices.length}: this journey has ${slices.length} slices`,
      },
    ]);
  }
  const date = request.departure_date;
  const before = slices[index - 1];
  const after = slices[index + 1];
  if ((before && date < before.date) || (after && date > after.date)) {
    throw new InvalidInput([
      { pointer: "/departure_date", detail: "must stay between the dates of the slices before and after it" },
    ]);
  }
  assertSellableSlices([{ pointer: "/departure_date", date }], airport(slice.origin, "/origin"), now);
  const moved = slices.map((s, i) => (i === index ? { ...s, date } : s));
  const [first] = moved;
  return {
    ...current,
    departureDate: first?.date ?? date,
    returnDate: current.multiCity ? null : (moved[1]?.date ?? null),
    multiCity: current.multiCity ? moved : null,
    carriers: [booking.fare.validating_carrier],
    currency: booking.price.total.currency,
  };
}

/**
 * A deep copy of a booking, so neither the caller nor the sandbox sees the other's later edits. A booking is plain
 * JSON data, which a walk over its fields copies several times faster than structuredClone; unlike structuredClone it
 * copies an object reached twice (the fare's price is the booking's price) twice, which no JSON reader can tell.
 */
function copyOf<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => copyOf(item)) as T;
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyOf((value as Record<string, unknown>)[key]);
  return copy as T;
}

function authorize(call: SupplierCall): void {
  if (credentialsRejected(call.credentials.password)) {
    // The spec's words for inactive credentials, so the agent's notice says what the channel's check said.
    throw new SupplierRejected("invalid_credentials", CREDENTIAL_MESSAGES.inactive);
  }
  assertSupportedCurrency(call.currency);
}

/** An airport, or a city code's main airport (LON: Heathrow). */
function airport(code: string, pointer: string): Airport {
  const found = airportsOf(code).flatMap((each) => findAirport(each) ?? [])[0];
  if (!found) throw new InvalidInput([{ pointer, detail: `${code} is not an airport the sandbox knows` }]);
  return found;
}

const unknownAirport = (code: string, pointer: string) =>
  airportsOf(code).some((each) => findAirport(each))
    ? []
    : [{ pointer, detail: `${code} is not an airport the sandbox knows` }];

function airline(code: string): Airline {
  const found = findAirline(code);
  if (!found) throw new SupplierRejected("unknown_carrier", `${code} is not a sandbox carrier`);
  return found;
}

/** From today at the origin up to the 361 days airlines open their schedules for. */
function assertSellableDates(departure: string, ret: string | undefined, origin: Airport, now: Date): void {
  assertSellableSlices(
    [
      { pointer: "/departure_date", date: departure },
      ...(ret ? [{ pointer: "/return_date", date: ret }] : []),
    ],
    origin,
    now,
  );
}

function assertSellableSlices(dates: { pointer: string; date: string }[], origin: Airport, now: Date): void {
  const today = localDate(origin.timeZone, now.getTime());
  const lastDay = addDays(today, SCHEDULE_DAYS_AHEAD);
  const problems = dates.flatMap(({ pointer, date }) =>
    date < today
      ? [{ pointer, detail: "must not be in the past" }]
      : date > lastDay
        ? [{ pointer, detail: `must be within ${SCHEDULE_DAYS_AHEAD} days` }]
        : [],
  );
  if (problems.length > 0) throw new InvalidInput(problems);
}

function resolveIn(fareId: string, call: SupplierCall): ResolvedFare {
  const resolved = resolveFare(fareId);
  if (resolved.key.search.currency !== call.currency) {
    throw new SupplierRejected(
      "currency_mismatch",
      `Fare ${fareId} was priced in ${resolved.key.search.currency}, not ${call.currency}: search again`,
    );
  }
  return resolved;
}

function assertStillSold({ offer }: ResolvedFare, now: Date): void {
  if (offer.firstDepartureUtc < now.getTime() + SALES_CLOSE_BEFORE_DEPARTURE) {
    throw new NoAvailability("Sales for this flight have closed");
  }
}

function details({ key, offer, fare }: ResolvedFare): SupplierOfferDetails {
  const od = originDestination(key.search, offer);
  return {
    search_result_id: searchId(key.search),
    origin_destination_id: offer.id,
    flights: od.flights,
    fare,
    ancillaries: od.ancillaries,
    fare_rules: fareRules(fare, offer.itinerary.carrier, od.flights),
  };
}

const catalogue = ({ key, offer }: ResolvedFare): SupplierAncillary[] =>
  sandboxCatalogue(
    offer.itinerary,
    flights(offer.itinerary, offer.cabins, key.search.cabin),
    key.search.currency,
  );

/** The segment's seat map, with the seats this booking's passengers hold. */
function seatMapOf(
  booking: Pick<SupplierBooking, "flights" | "ancillaries">,
  items: SupplierAncillary[],
  segmentId: string,
): SeatMap {
  const segment = booking.flights.flatMap((f) => f.segments).find((s) => s.id === segmentId);
  if (!segment) throw new InvalidInput([{ pointer: "/segment", detail: "is not a segment of this booking" }]);
  const held = new Map(
    booking.ancillaries.flatMap((a) =>
      a.seat && !a.refunded && a.item.segment_id === segmentId ? [[a.seat, a.passenger_index] as const] : [],
    ),
  );
  return seatMap(segment, seatPrices(items, segmentId), held);
}

/** A seat asked for: on the map, free, of the item's zone; one seat per passenger and segment. */
function assertSeat(
  booking: SupplierBooking,
  items: SupplierAncillary[],
  item: SupplierAncillary,
  selection: AncillarySelection,
  taken: readonly BookedAncillary[],
  i: number,
): string {
  const wanted = selection.seat?.toUpperCase();
  if (!wanted) throw new InvalidInput([{ pointer: `/items/${i}/seat`, detail: "is required for a seat" }]);
  const onMap = seatOnMap(seatMapOf(booking, items, item.segment_id), wanted);
  if (!onMap)
    throw new InvalidInput([{ pointer: `/items/${i}/seat`, detail: `${wanted} is not on this aircraft` }]);
  const heldHere = taken.some((a) => a.seat === wanted && a.item.segment_id === item.segment_id);
  if (onMap.status === "occupied" || heldHere)
    throw new SupplierRejected("seat_taken", `Seat ${wanted} is already taken`);
  if (onMap.zone !== item.seat_zone)
    throw new InvalidInput([{ pointer: `/items/${i}/ancillary_id`, detail: `does not sell seat ${wanted}` }]);
  const hasSeat = taken.some(
    (a) => a.seat && a.item.segment_id === item.segment_id && a.passenger_index === selection.passenger_index,
  );
  if (hasSeat)
    throw new SupplierRejected("seat_already_assigned", "This passenger already has a seat on this flight");
  return wanted;
}

function bookingKey(booking: SupplierBooking): SearchKey {
  const key = parseFareId(booking.fare_id);
  if (!key)
    throw new SupplierRejected("unknown_booking", `Booking ${booking.supplier_locator} has no sandbox fare`);
  return key.search;
}

function assertStatus(
  booking: SupplierBooking,
  allowed: readonly SupplierBookingStatus[],
  action: string,
): void {
  if (!allowed.includes(booking.status)) {
    const reason = booking.error ? `: ${booking.error}` : "";
    throw new SupplierRejected(
      "illegal_state",
      `Booking ${booking.supplier_locator} is ${booking.status}${reason}; cannot ${action} it`,
    );
  }
}

/**
 * A log entry with any operation's result: the log (operation-log.ts) stores results as JSON whatever their kind,
 * its type names the first three kinds only.
 */
type Entry = Exclude<OperationEntry, { status: "done" }> | { status: "done"; result: OperationResult };

/** An operation's standing entry as the call answers it: the result, or the error it failed with. */
function answer(entry: Entry, sandbox: { code: string }): OperationResult {
  switch (entry.status) {
    case "done":
      return entry.result;
    case "failed":
      if (entry.code === "supplier_unavailable") throw new SupplierUnavailable(entry.message);
      if (entry.code === "no_availability") throw new NoAvailability(entry.message);
      throw new SupplierRejected(entry.code, entry.message);
    case "fenced":
      throw new SupplierRejected(
        "operation_abandoned",
        `${sandbox.code}: this operation was given up on before it reached the airline; start it again`,
      );
  }
}

function assertConfirmed(booking: SupplierBooking): void {
  if (booking.provider_status === "in_progress") {
    throw new SupplierRejected(
      "booking_in_progress",
      "The airline is still confirming the booking: retrieve it later",
    );
  }
}

/** The fare as the carrier sells it now: the scripted price change raises base fares and taxes by 8 %. */
function currentPrice(booking: SupplierBooking): SupplierPrice {
  if (bookingScenario(booking.passengers) !== "priceChange") return booking.fare.price;
  const raise = (m: Money) =>
    money(prorate(m.amount, 10_000 + SANDBOX_SCENARIOS.priceChange.increaseBps, 10_000), m.currency);
  const passengers = booking.fare.price.passengers.map((p) => {
    const base = raise(p.base_fare);
    const taxes = raise(p.taxes);
    return { ...p, base_fare: base, taxes, total: money(base.amount + taxes.amount, base.currency) };
  });
  const currency = booking.fare.price.total.currency;
  const sum = (pick: (p: (typeof passengers)[number]) => Money) =>
    passengers.reduce((total, p) => total + pick(p).amount * p.count, 0);
  return {
    passengers,
    base_fare: money(
      sum((p) => p.base_fare),
      currency,
    ),
    taxes: money(
      sum((p) => p.taxes),
      currency,
    ),
    total: money(
      sum((p) => p.total),
      currency,
    ),
  };
}

const passengerNames = (booking: Pick<SupplierBooking, "passengers">) =>
  booking.passengers.map((p) => `${p.last_name}/${p.first_name}`).join();

const locatorSource = (seed: string, now: Date, attempt: number) => {
  const rng = prng(hashString(`${seed}|${now.toISOString()}|${attempt}`));
  return (max: number) => rng.int(max);
};

/** One ticket per passenger (infants too); serials derive from the locator and fare, so they never change. */
function tickets(booking: SupplierBooking, price: SupplierPrice, carrier: Airline, fareId: string): Ticket[] {
  return booking.passengers.map((passenger, i) => {
    const line = price.passengers.find((p) => p.type === passenger.type) ?? price.passengers[0];
    if (!line) throw new Error("a price has at least one passenger line");
    const rng = seeded("ticket", booking.supplier_locator, fareId, i);
    return {
      ticket_number: ticketNumber(
        carrier.accountingCode,
        randomSerial((max) => rng.int(max)),
      ),
      passenger_index: i,
      passenger_name: `${passenger.last_name}/${passenger.first_name}`.toUpperCase(),
      validating_carrier: carrier.code,
      base_fare: line.base_fare,
      taxes: line.taxes,
      total: line.total,
    };
  });
}

/** Once tickets exist, every booked ancillary gets its EMD. */
function withEmds(booking: SupplierBooking, carrier: Airline): SupplierBooking {
  if (booking.status !== "issued" && booking.status !== "exchanged") return booking;
  const bookedAncillaries = booking.ancillaries.map((a, i) => {
    // A free seat needs no EMD; an asynchronous one waits for the airline.
    if (a.emd_number || a.emd_pending || a.item.price.amount === 0) return a;
    const rng = seeded("emd", booking.supplier_locator, a.ancillary_id, a.passenger_index, i);
    return {
      ...a,
      emd_number: ticketNumber(
        carrier.accountingCode,
        randomSerial((max) => rng.int(max)),
      ),
    };
  });
  const emds: Emd[] = bookedAncillaries.flatMap((a) =>
    a.emd_number && !a.refunded
      ? [
          {
            emd_number: a.emd_number,
            passenger_index: a.passenger_index,
            ancillary_id: a.ancillary_id,
            segment_id: a.item.segment_id,
            seat: a.seat ?? null,
            price: a.item.price,
          },
        ]
      : [],
  );
  return { ...booking, ancillaries: bookedAncillaries, emds };
}

/**
 * A network carrier's tickets can be voided until the end of the day of issue in its home time zone (and never
 * after departure); low-cost carriers allow no void at all.
 */
function voidUntil(carrier: Airline, booking: SupplierBooking, now: number): string | null {
  if (carrier.lowCost) return null;
  const home = findAirport(carrier.hubs[0] ?? "");
  if (!home) return null;
  const endOfDay = localToUtc(home.timeZone, addDays(localDate(home.timeZone, now), 1), 0) - 1000;
  const departure = Date.parse(booking.flights[0]?.departure_at ?? "");
  return iso(Number.isNaN(departure) ? endOfDay : Math.min(endOfDay, departure));
}

/**
 * Per ticket: before departure the whole fare under the "refund before departure" rule; once partly flown the
 * unflown share by distance under the "after departure" rule. A non-refundable fare still returns its unused taxes.
 * Penalties never exceed the fare refunded, and infants pay none.
 */
function refundLines(booking: SupplierBooking, now: number): SlicedRefundLine[] {
  const segments = booking.flights.flatMap((f) => f.segments);
  const totalKm = segments.reduce((sum, s) => sum + s.distance_km, 0);
  const unflownKm = segments
    .filter((s) => Date.parse(s.departure_at) > now)
    .reduce((sum, s) => sum + s.distance_km, 0);
  if (unflownKm === 0)
    throw new SupplierRejected("nothing_to_refund", "Every flight of this booking has departed");
  const slices = sliceRulesOf(booking);
  if (slices) return slicedRefundLines(booking, slices, now, unflownKm === totalKm, unflownKm, totalKm);
  const rule =
    unflownKm === totalKm
      ? booking.fare.penalty.refund_before_departure
      : booking.fare.penalty.refund_after_departure;
  return booking.tickets.map((ticket) => {
    const currency = ticket.total.currency;
    const unusedFare = prorate(ticket.base_fare.amount, unflownKm, totalKm);
    const taxes = prorate(ticket.taxes.amount, unflownKm, totalKm);
    const fareRefund = rule.allowed ? unusedFare : 0;
    const infant = booking.passengers[ticket.passenger_index]?.type === "infant";
    const penalty = rule.allowed && !infant ? Math.min(rule.fee.amount, fareRefund) : 0;
    return {
      passenger_index: ticket.passenger_index,
      ticket_number: ticket.ticket_number,
      fare_refund: money(fareRefund, currency),
      taxes_refund: money(taxes, currency),
      penalty: money(penalty, currency),
      refundable: money(fareRefund - penalty + taxes, currency),
      slices: [],
    };
  });
}

/** A ticket's refund line with each slice's part of it (none for a fare of one rule throughout). */
type SlicedRefundLine = RefundQuoteLine & { slices: (RefundQuoteSlice & { fare_part: Money })[] };

/** The slices of a multi-city booking with their own rules; null for a one-way trip or a round trip. */
function sliceRulesOf(booking: SupplierBooking): SliceFare[] | null {
  if (!booking.flights.some((f) => f.direction === "onward")) return null;
  return bookedSlices(booking.fare, booking.flights, airline(booking.fare.validating_carrier));
}

/**
 * A multi-city ticket's refund, slice by slice: its base fare split over the slices as they were priced, each
 * slice's unflown share back under that slice's own rule (before departure while nothing is flown, else after) less
 * its penalty (never above what it gives back; infants pay none); a non-refundable slice gives none of its fare
 * back. Unused taxes come back as for any ticket, by unflown distance.
 */
function slicedRefundLines(
  booking: SupplierBooking,
  slices: SliceFare[],
  now: number,
  untouched: boolean,
  unflownKm: number,
  totalKm: number,
): SlicedRefundLine[] {
  const weights = slices.map((s) => Math.max(1, Math.round(s.weight * 100)));
  const unflownOf = booking.flights.map((f) =>
    f.segments.filter((s) => Date.parse(s.departure_at) > now).reduce((sum, s) => sum + s.distance_km, 0),
  );
  return booking.tickets.map((ticket) => {
    const currency = ticket.total.currency;
    const infant = booking.passengers[ticket.passenger_index]?.type === "infant";
    const parts = allocate(ticket.base_fare.amount, weights);
    const sliced = slices.map((slice, j) => {
      const rule = untouched ? slice.penalty.refund_before_departure : slice.penalty.refund_after_departure;
      const part = parts[j] ?? 0;
      const unused = slice.km > 0 ? prorate(part, unflownOf[j] ?? 0, slice.km) : 0;
      const fareRefund = rule.allowed ? unused : 0;
      const penalty = rule.allowed && !infant ? Math.min(rule.fee.amount, fareRefund) : 0;
      return {
        slice: slice.slice,
        origin: slice.origin,
        destination: slice.destination,
        brand_name: slice.brand_name,
        refundable: rule.allowed,
        fare_part: money(part, currency),
        fare_refund: money(fareRefund, currency),
        penalty: money(penalty, currency),
      };
    });
    const fareRefund = sliced.reduce((sum, s) => sum + s.fare_refund.amount, 0);
    const penalty = sliced.reduce((sum, s) => sum + s.penalty.amount, 0);
    const taxes = prorate(ticket.taxes.amount, unflownKm, totalKm);
    return {
      passenger_index: ticket.passenger_index,
      ticket_number: ticket.ticket_number,
      fare_refund: money(fareRefund, currency),
      taxes_refund: money(taxes, currency),
      penalty: money(penalty, currency),
      refundable: money(fareRefund - penalty + taxes, currency),
      slices: sliced,
    };
  });
}

/** The slices' parts of a quote, summed over its tickets. */
function quoteSlices(lines: SlicedRefundLine[], currency: string): RefundQuoteSlice[] {
  const [first] = lines;
  if (!first) return [];
  return first.slices.map((slice, j) => {
    const sum = (pick: (s: RefundQuoteSlice) => Money) =>
      money(
        lines.reduce((total, line) => total + (line.slices[j] ? pick(line.slices[j]).amount : 0), 0),
        currency,
      );
    return {
      ...slice,
      fare_part: sum((s) => s.fare_part),
      fare_refund: sum((s) => s.fare_refund),
      penalty: sum((s) => s.penalty),
    };
  });
}

/** The agent pays the fare difference (a cheaper new fare refunds nothing) and the change fee per seated passenger. */
function exchangeCharges(
  booking: SupplierBooking,
  newPrice: SupplierPrice,
  slice: SliceFare | null,
): Pick<ReshopOffer, "fare_difference" | "change_fee" | "total_due"> {
  const currency = booking.price.total.currency;
  // A multi-city exchange changes one slice: that slice's fare sets the fee.
  const rule = (slice ?? booking.fare).penalty.change_before_departure;
  const seated = booking.passengers.filter((p) => p.type !== "infant").length;
  const difference = Math.max(0, newPrice.total.amount - booking.price.total.amount);
  const fee = rule.allowed ? rule.fee.amount * seated : 0;
  return {
    fare_difference: money(difference, currency),
    change_fee: money(fee, currency),
    total_due: money(difference + fee, currency),
  };
}
