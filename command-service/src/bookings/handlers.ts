import { randomInt } from "node:crypto";
import type { BookOfferRequest, BookOfferResponse } from "@skyward/contracts/bookings";
import type { EventMetadata } from "@skyward/contracts/metadata";
import type { Money } from "@skyward/contracts/money";
import type { Fare, PriceDetail } from "@skyward/contracts/offers";
import { formatPosition } from "@skyward/contracts/position";
import type { SupplierBooking, Ticket } from "@skyward/contracts/supplier";
import { type CommandContext, foldNew, runCommand } from "@skyward/infra/event-store/command";
import type { EventStore } from "@skyward/infra/event-store/event-store";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { AppendResult, NewEvent, StreamAppend } from "@skyward/infra/event-store/types";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { DomainError, IllegalState, InvalidInput, NotFound } from "@skyward/infra/http/errors";
import { balanceStream, decideCharge, evolveBalance, initialBalance } from "../balances/balance.ts";
import type { CommandDeps } from "../deps.ts";
import { searchOffers } from "../offers/search.ts";
import { type SellingContext, sellingContext, supplierCall } from "../offers/selling-context.ts";
import { applyPricing } from "../pricing/apply-pricing.ts";
import { generateLocator } from "../pricing/locator.ts";
import { randomSerial, ticketNumber } from "../pricing/ticket-number.ts";
import { findAirline } from "../suppliers/sandbox/airlines.ts";
import { assertCanIssue } from "../ticketing/channel.ts";
import { assertMayActOn } from "./access.ts";
import {
  type ActiveBooking,
  type BookingHeld,
  type BookingState,
  bookingStream,
  decideCancel,
  decideComment,
  decideHold,
  decideModify,
  decideReprice,
  decideStartIssue,
  decideVoid,
  evolveBooking,
  initialBooking,
  voidUntil,
} from "./booking.ts";

const position = (append: AppendResult) => (append.position ? formatPosition(append.position) : null);
const random = (max: number) => randomInt(max);
/** A demo (fake) booking is held this long, like a typical airline time limit. */
const FAKE_TIME_LIMIT_MS = 24 * 3600_000;

/** Decides on a booking's current state and appends the outcome; a concurrent write makes it decide again. */
export function decideOnBooking(
  store: EventStore,
  locator: string,
  decide: (state: BookingState) => NewEvent[],
) {
  return runCommand(store, async (cmd) => {
    const loaded = await cmd.load(bookingStream(locator), evolveBooking, initialBooking);
    return {
      appends: [{ streamId: bookingStream(locator), expected: loaded.version, events: decide(loaded.state) }],
      result: null,
    };
  });
}

const loadBooking = (deps: CommandDeps, locator: string, options: { trusted?: boolean } = {}) =>
  deps.store.fold(bookingStream(locator), evolveBooking, initialBooking, options);

/**
 * The booking, if the caller may act on it. `trusted`: the state this process last folded or appended, without a
 * read, for callers that decide again on a load of their own (who owns a booking never changes).
 */
async function bookingFor(
  deps: CommandDeps,
  principal: Principal,
  locator: string,
  options: { trusted?: boolean } = {},
) {
  const loaded = await loadBooking(deps, locator, options);
  const booking = await assertMayActOn(deps.pool, principal, loaded.state);
  return { booking, version: loaded.version };
}

function findFare(
  result: { origin_destinations: { fares: Fare[]; flights: BookingHeld["fare"]["flights"] }[] },
  fareId: string,
) {
  for (const od of result.origin_destinations) {
    const fare = od.fares.find((f) => f.fare_id === fareId);
    if (fare) return { fare, flights: od.flights };
  }
  throw new NotFound("This offer is no longer in the search result; search again", "offer_not_found");
}

function assertPassengersMatch(
  request: BookOfferRequest,
  counts: { adults: number; children: number; infants: number },
) {
  const count = (type: string) => request.passengers.filter((p) => p.type === type).length;
  if (
    count("adult") !== counts.adults ||
    count("child") !== counts.children ||
    count("infant") !== counts.infants
  ) {
    throw new InvalidInput([
      {
        pointer: "/passengers",
        detail: `must be ${counts.adults} adult(s), ${counts.children} child(ren) and ${counts.infants} infant(s) as searched`,
      },
    ]);
  }
}

/** BookOffer: holds seats at the supplier (never for a demo user) and records the booking. */
export async function bookOffer(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  request: BookOfferRequest,
): Promise<BookOfferResponse> {
  const search = await deps.searches.load(principal, request.search_result_id);
  const { fare, flights } = findFare(search.result, request.fare_id);
  assertPassengersMatch(request, search.request.passengers);
  const ctx = await sellingContext(deps, principal, search.company_id, search.channel_id);
  const now = deps.now();

  let supplierBooking: SupplierBooking | null = null;
  let priceDetail: PriceDetail = fare.price_detail;
  if (!principal.demo) {
    supplierBooking = await deps.supplier.book(
      { fare_id: fare.fare_id, passengers: request.passengers, contacts: request.contacts },
      supplierCall(deps.now(), ctx),
    );
    priceDetail = applyPricing(supplierBooking.price, fare.validating_carrier, ctx.policy);
  }
  const first = flights[0];
  const last = flights.at(-1);
  const held: Omit<BookingHeld, "locator"> = {
    company_id: ctx.companyId,
    agency_id: ctx.agencyId,
    agent_id: principal.userId,
    channel_id: ctx.channelId,
    supplier_booking: supplierBooking,
    fare: {
      fare_id: fare.fare_id,
      carrier: fare.validating_carrier,
      route:
        [first?.segments[0]?.from.code, ...(first?.segments.map((s) => s.to.code) ?? [])].join("-") +
        (flights.length > 1 ? ` / ${last?.segments.map((s) => s.to.code).at(-1) ?? ""}` : ""),
      departure_at: first?.departure_at ?? "",
      fare,
      flights,
    },
    passengers: request.passengers,
    contacts: request.contacts,
    price: priceDetail.total,
    price_detail: priceDetail,
    time_limit: supplierBooking?.time_limit ?? new Date(now.getTime() + FAKE_TIME_LIMIT_MS).toISOString(),
    fake_booking: principal.demo,
    provider_status: supplierBooking?.provider_status ?? "confirmed",
    instant_payment: fare.instant_payment,
    held_at: now.toISOString(),
  };
  const metadata = metadataFor(context, { agency_id: ctx.agencyId, company_id: ctx.companyId });
  const answer = (locator: string, append: AppendResult, error: string | null) => ({
    locator,
    time_limit: held.time_limit,
    fake_booking: held.fake_booking,
    provider_status: held.provider_status,
    error,
    price: held.price,
    instant_payment: held.instant_payment,
    status: "held" as "held" | "issued",
    position: position(append),
  });

  // Instant payment: the booking is ticketed as it is made, through the same gates and balance checks as an issue;
  // the hold, the claim and the charge go in one append. If the claim is refused (a gate, the balance), the booking
  // is held alone and the answer carries the reason as its error.
  let refusal: DomainError | null = null;
  if (held.instant_payment && held.provider_status === "confirmed") {
    let claim: Awaited<ReturnType<typeof holdAndClaim>> | null = null;
    try {
      claim = await holdAndClaim(deps, context, ctx, metadata, held);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refusal = error;
    }
    if (claim) {
      const booked = answer(claim.result.locator, claim.append, supplierBooking?.error ?? null);
      try {
        const issued = await completeIssue(deps, ctx, metadata, claim.result.locator, claim);
        return { ...booked, status: issued.status, tickets: issued.tickets, position: issued.position };
      } catch (error) {
        // Ticketing failed after the claim, which completeIssue has undone: the booking stays held.
        if (!(error instanceof DomainError)) throw error;
        return { ...booked, error: error.detail ?? error.title };
      }
    }
  }

  // A new locator needs no read: "no_stream" refuses one already taken, and the retry draws another.
  const { result: locator, append } = await runCommand(deps.store, async (cmd) => {
    const locator = generateLocator(random);
    const created = cmd.fresh(bookingStream(locator), evolveBooking, initialBooking);
    return {
      appends: [
        {
          streamId: bookingStream(locator),
          expected: "no_stream",
          events: decideHold(created.state, { ...held, locator }, metadata),
        },
      ],
      result: locator,
    };
  });
  return answer(
    locator,
    append,
    refusal ? (refusal.detail ?? refusal.title) : (supplierBooking?.error ?? null),
  );
}

/**
 * Holds an instant-payment booking and claims its ticketing in one append, with the charge of the company balance
 * (taking its turn there, as an issue does). A refused claim (a gate, the balance) throws and writes nothing.
 */
function holdAndClaim(
  deps: CommandDeps,
  context: RequestContext,
  ctx: SellingContext,
  metadata: EventMetadata,
  held: Omit<BookingHeld, "locator">,
) {
  return deps.streamLocks.run(balanceStream(ctx.companyId), () =>
    runCommand(deps.store, async (cmd) => {
      const locator = generateLocator(random);
      const stream = bookingStream(locator);
      const created = cmd.fresh(stream, evolveBooking, initialBooking);
      const holding = decideHold(created.state, { ...held, locator }, metadata);
      const state = foldNew(evolveBooking, created.state, stream, holding, holding.length);
      const claimed = await decideClaim(cmd, deps, context, ctx, metadata, { state, locator });
      return {
        appends: [
          { streamId: stream, expected: "no_stream" as const, events: [...holding, ...claimed.events] },
          ...claimed.balance,
        ],
        result: { locator, state: claimed.state, charge: claimed.charge },
      };
    }),
  );
}

function fakeTickets(booking: ActiveBooking): Ticket[] {
  const accounting = findAirline(booking.fare.carrier)?.accountingCode ?? "999";
  return booking.passengers.map((p, index) => {
    const price =
      booking.price_detail.passengers.find((x) => x.type === p.type) ?? booking.price_detail.passengers[0];
    const currency = booking.price.currency;
    return {
      ticket_number: ticketNumber(accounting, randomSerial(random)),
      passenger_index: index,
      passenger_name: `${p.last_name}/${p.first_name}`.toUpperCase(),
      validating_carrier: booking.fare.carrier,
      base_fare: price?.base_fare ?? { amount: 0, currency },
      taxes: price?.taxes ?? { amount: 0, currency },
      total: price?.total ?? { amount: 0, currency },
    };
  });
}

/**
 * IssueTicket, in two appends around the supplier call: the first claims the booking and charges the balance
 * atomically (so racing requests get one claim and one charge), the second records the tickets, or undoes the
 * charge when the supplier refuses.
 */
export async function issueBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  request: { locator: string; reshop?: boolean | undefined },
) {
  const { booking: initial } = await bookingFor(deps, principal, request.locator, { trusted: true });
  const ctx = await sellingContext(deps, principal, initial.company_id, initial.channel_id);
  const metadata = metadataFor(context, { agency_id: ctx.agencyId, company_id: ctx.companyId });
  const stream = bookingStream(request.locator);

  // Issues of one company take turns at its balance (see StreamLocks) rather than refusing each other's charges.
  const claim = await deps.streamLocks.run(balanceStream(initial.company_id), () =>
    runCommand(deps.store, async (cmd) => {
      // Trusted: the claim appends to both at the versions loaded, so a state moved on elsewhere is refused there.
      const loaded = await cmd.load(stream, evolveBooking, initialBooking, { trusted: true });
      const claimed = await decideClaim(cmd, deps, context, ctx, metadata, {
        state: loaded.state,
        locator: request.locator,
        reshop: request.reshop,
      });
      return {
        appends: [{ streamId: stream, expected: loaded.version, events: claimed.events }, ...claimed.balance],
        result: { state: claimed.state, charge: claimed.charge },
      };
    }),
  );
  return completeIssue(deps, ctx, metadata, request.locator, claim);
}

/**
 * The claim of an issue, decided on the booking's state: the events that start ticketing (after accepting a
 * reshopped price, when asked) and the charge of the company balance, with every gate checked.
 */
async function decideClaim(
  cmd: CommandContext,
  deps: CommandDeps,
  context: RequestContext,
  ctx: SellingContext,
  metadata: EventMetadata,
  claim: { state: BookingState; locator: string; reshop?: boolean | undefined },
): Promise<{ events: NewEvent[]; balance: StreamAppend[]; state: BookingState; charge: Money | null }> {
  let state = claim.state;
  const events: NewEvent[] = [];
  if (claim.reshop && state.status !== "none" && state.pending_price) {
    // Issuing "with reshop" accepts the new price the supplier quoted at the last attempt.
    const accepted = state.pending_price;
    const supplierBooking =
      state.supplier_booking && accepted.supplier_price
        ? { ...state.supplier_booking, price: accepted.supplier_price }
        : state.supplier_booking;
    events.push(
      ...decideReprice(
        state,
        { price: accepted.price, price_detail: accepted.price_detail, supplier_booking: supplierBooking },
        metadata,
      ),
    );
    state = {
      ...state,
      price: accepted.price,
      price_detail: accepted.price_detail,
      supplier_booking: supplierBooking,
      pending_price: null,
    };
  }
  assertCanIssue(ctx.gates, ctx.channel, context.source);
  const started = decideStartIssue(
    state,
    {
      now: deps.now(),
      pays_by_card: ctx.channel.status !== "none" && ctx.channel.form_of_payment === "card",
    },
    metadata,
  );
  events.push(...started.events);
  const balance: StreamAppend[] = [];
  if (started.charge && state.status !== "none") {
    const loaded = await cmd.load(balanceStream(state.company_id), evolveBalance, initialBalance, {
      trusted: true,
    });
    balance.push({
      streamId: balanceStream(state.company_id),
      expected: loaded.version,
      events: [
        decideCharge(
          loaded.state,
          { company_id: state.company_id, amount: started.charge, locator: claim.locator, reason: "issue" },
          metadata,
        ),
      ],
    });
  }
  return { events, balance, state, charge: started.charge };
}

/**
 * The second half of an issue, after its claim: the supplier tickets the booking and the tickets are recorded, or
 * the claim is undone (the booking held again, the charge credited back) and the reason thrown.
 */
async function completeIssue(
  deps: CommandDeps,
  ctx: SellingContext,
  metadata: EventMetadata,
  locator: string,
  claim: { result: { state: BookingState; charge: Money | null }; append: AppendResult },
) {
  const booking = claim.result.state;
  if (booking.status === "none") throw new NotFound("No such booking", "booking_not_found");
  const stream = bookingStream(locator);
  const versionAfterClaim = claim.append.versions[stream] ?? 0;

  const undo = async (events: { type: string; data: unknown }[]) => {
    const appends: StreamAppend[] = [
      { streamId: stream, expected: versionAfterClaim, events: events.map((e) => ({ ...e, metadata })) },
    ];
    if (claim.result.charge) {
      appends.push({
        streamId: balanceStream(booking.company_id),
        expected: "any",
        events: [
          {
            type: "BalanceCredited",
            data: {
              company_id: booking.company_id,
              amount: claim.result.charge,
              locator,
              reason: "issue_failed",
            },
            metadata,
          },
        ],
      });
    }
    return deps.store.append(appends);
  };

  const now = deps.now();
  let tickets: Ticket[];
  let supplierBooking = booking.supplier_booking;
  if (booking.fake_booking || !booking.supplier_booking) {
    tickets = fakeTickets(booking);
  } else {
    let outcome: Awaited<ReturnType<CommandDeps["supplier"]["issue"]>>;
    try {
      outcome = await deps.supplier.issue(
        { booking: booking.supplier_booking, accepted_total: booking.supplier_booking.price.total.amount },
        supplierCall(deps.now(), ctx),
      );
    } catch (error) {
      await undo([{ type: "TicketingFailed", data: { reason: (error as Error).message } }]);
      throw error;
    }
    if (outcome.outcome === "price_changed") {
      const detail = applyPricing(outcome.price, booking.fare.carrier, ctx.policy);
      await undo([
        { type: "TicketingFailed", data: { reason: "price_changed" } },
        {
          type: "BookingPriceChanged",
          data: {
            old_price: booking.price,
            new_price: detail.total,
            new_price_detail: detail,
            supplier_price: outcome.price,
          },
        },
      ]);
      throw new DomainError(
        409,
        "price_changed",
        "Price changed",
        `The airline's price changed from ${formatMoney(booking.price)} to ${formatMoney(detail.total)}. Issue again with reshop to accept it.`,
      );
    }
    tickets = outcome.booking.tickets;
    supplierBooking = outcome.booking;
  }
  const channelVoid = voidUntil(
    now,
    ctx.channel.status === "none" ? 0 : ctx.channel.void_window_hours,
    false,
  );
  const supplierVoid = supplierBooking?.void_until
    ? new Date(supplierBooking.void_until)
    : booking.fake_booking
      ? channelVoid
      : null;
  const until =
    channelVoid && supplierVoid ? new Date(Math.min(channelVoid.getTime(), supplierVoid.getTime())) : null;
  const issued = await deps.store.append({
    streamId: stream,
    expected: versionAfterClaim,
    events: [
      {
        type: "TicketsIssued",
        data: {
          tickets,
          issued_at: now.toISOString(),
          void_until: until?.toISOString() ?? null,
          supplier_booking: supplierBooking,
        },
        metadata,
      },
    ],
  });
  return {
    locator,
    status: "issued" as const,
    tickets,
    void_until: until?.toISOString() ?? null,
    position: position(issued),
  };
}

/** Minor units to a display amount with the currency's own number of decimals (JPY 0, UAH 2, KWD 3...). */
function formatMoney(m: Money): string {
  const format = new Intl.NumberFormat("en", { style: "currency", currency: m.currency });
  return format.format(m.amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** DELETE /bookings/{locator}: void when issued (inside the void window), cancel when held. */
export async function voidOrCancel(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
) {
  const { booking, version } = await bookingFor(deps, principal, locator);
  const ctx = await sellingContext(deps, principal, booking.company_id, booking.channel_id);
  const metadata = metadataFor(context, { agency_id: booking.agency_id, company_id: booking.company_id });
  const now = deps.now();
  const stream = bookingStream(locator);
  if (booking.status === "issued") {
    const decision = decideVoid(booking, { now }, metadata);
    if (booking.supplier_booking && !booking.fake_booking) {
      await deps.supplier.void({ booking: booking.supplier_booking }, supplierCall(deps.now(), ctx));
    }
    const appends: StreamAppend[] = [{ streamId: stream, expected: version, events: decision.events }];
    if (decision.credit) {
      appends.push({
        streamId: balanceStream(booking.company_id),
        expected: "any",
        events: [
          {
            type: "BalanceCredited",
            data: { company_id: booking.company_id, amount: decision.credit, locator, reason: "void" },
            metadata,
          },
        ],
      });
    }
    const append = await deps.store.append(appends);
    return { locator, status: "voided" as const, position: position(append) };
  }
  const events = decideCancel(booking, { now }, metadata);
  if (booking.supplier_booking && !booking.fake_booking && booking.status === "held") {
    await deps.supplier.cancel({ booking: booking.supplier_booking }, supplierCall(deps.now(), ctx));
  }
  const append = await deps.store.append({ streamId: stream, expected: version, events });
  return { locator, status: "cancelled" as const, position: position(append) };
}

/** Asks the supplier for today's price; a different price replaces the booking's (the agent sees it before issue). */
export async function repriceBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
) {
  const { booking, version } = await bookingFor(deps, principal, locator);
  if (booking.status !== "held")
    throw new IllegalState(
      `Only held bookings can be repriced; this booking is ${booking.status}`,
      "not_held",
    );
  const ctx = await sellingContext(deps, principal, booking.company_id, booking.channel_id);
  const metadata = metadataFor(context, { agency_id: booking.agency_id, company_id: booking.company_id });
  const unchanged = {
    locator,
    changed: false,
    price: booking.price,
    price_detail: booking.price_detail,
    position: null,
  };
  if (!booking.supplier_booking || booking.fake_booking) return unchanged;
  const result = await deps.supplier.reprice(
    { booking: booking.supplier_booking },
    supplierCall(deps.now(), ctx),
  );
  const detail = applyPricing(result.price, booking.fare.carrier, ctx.policy);
  if (detail.total.amount === booking.price.amount && !booking.pending_price) return unchanged;
  const append = await deps.store.append({
    streamId: bookingStream(locator),
    expected: version,
    events: decideReprice(
      booking,
      {
        price: detail.total,
        price_detail: detail,
        supplier_booking: { ...booking.supplier_booking, price: result.price },
      },
      metadata,
    ),
  });
  return { locator, changed: true, price: detail.total, price_detail: detail, position: position(append) };
}

export async function commentBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  comment: string,
) {
  const { booking } = await bookingFor(deps, principal, locator);
  const metadata = metadataFor(context, { agency_id: booking.agency_id, company_id: booking.company_id });
  const { append } = await decideOnBooking(deps.store, locator, (state) =>
    decideComment(state, { comment, now: deps.now(), by: principal.userId }, metadata),
  );
  return { locator, position: position(append) };
}

export async function modifyBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  request: Parameters<typeof decideModify>[1] & { locator: string },
) {
  const { booking } = await bookingFor(deps, principal, request.locator);
  const metadata = metadataFor(context, { agency_id: booking.agency_id, company_id: booking.company_id });
  const { locator, ...change } = request;
  const { append } = await decideOnBooking(deps.store, locator, (state) =>
    decideModify(state, change, metadata),
  );
  return { locator, position: position(append) };
}

/**
 * Reshop: today's offers for the booking's own journey (same airports, dates, passengers and cabin), as a result
 * page the agent can book from when the held fare is gone or its price changed.
 */
export async function reshopBooking(deps: CommandDeps, principal: Principal, locator: string) {
  const { booking } = await bookingFor(deps, principal, locator);
  const ctx = await sellingContext(deps, principal, booking.company_id, booking.channel_id);
  const [outbound, inbound] = booking.fare.flights;
  const first = outbound?.segments[0];
  const last = outbound?.segments.at(-1);
  if (!outbound || !first || !last)
    throw new IllegalState("This booking has no flights to reshop", "no_flights");
  const count = (type: string) => booking.passengers.filter((p) => p.type === type).length;
  const { result } = await searchOffers(deps, principal, ctx, {
    origin: first.from.code,
    destination: last.to.code,
    departure_date: outbound.departure_at.slice(0, 10),
    ...(inbound ? { return_date: inbound.departure_at.slice(0, 10) } : {}),
    passengers: { adults: count("adult"), children: count("child"), infants: count("infant") },
    cabin: booking.fare.fare.cabin,
  });
  return { locator, result };
}
