import { randomInt, randomUUID } from "node:crypto";
import type { BookingHeld } from "@skyward/contracts/booking-events";
import type { BookOfferRequest, BookOfferResponse, PassengerToBook } from "@skyward/contracts/bookings";
import type { EventMetadata } from "@skyward/contracts/metadata";
import type { Fare, PriceDetail } from "@skyward/contracts/offers";
import { loyaltyRefusal, type PassengerServices } from "@skyward/contracts/passenger-services";
import type { SupplierBooking } from "@skyward/contracts/supplier";
import { foldNew, runCommand } from "@skyward/infra/event-store/command";
import { metadataFor } from "@skyward/infra/event-store/metadata";
import type { AppendResult } from "@skyward/infra/event-store/types";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { type DomainError, InvalidInput, NotFound } from "@skyward/infra/http/errors";
import { asHttpError } from "@skyward/infra/http/refusals";
import { balanceStream } from "../../balances/balance.ts";
import type { CommandDeps } from "../../deps.ts";
import {
  guardAppends,
  type SellingContext,
  type StreamVersion,
  sellingContext,
  supplierCall,
} from "../../offers/selling-context.ts";
import { applyPricing } from "../../pricing/apply-pricing.ts";
import { generateLocator } from "../../pricing/locator.ts";
import { assertCanIssue } from "../../ticketing/channel.ts";
import { bookingStream, decide, evolveBooking, initialBooking } from "../booking.ts";
import { appendDecided, position, turnOf } from "../execute.ts";
import { recordHold } from "../supplier-holds.ts";
import { completeOperation, OperationPending, paymentChoice } from "../supplier-operation.ts";

/** A demo (fake) booking is held this long, like a typical airline time limit. */
const FAKE_TIME_LIMIT_MS = 24 * 3600_000;

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

/** The passengers' loyalty numbers and SSRs, for those who have any. */
function passengerServices(passengers: readonly PassengerToBook[]): PassengerServices[] {
  return passengers.flatMap((p, index) =>
    p.loyalty || (p.ssrs && p.ssrs.length > 0)
      ? [{ index, loyalty: p.loyalty ?? null, ssrs: p.ssrs ?? [] }]
      : [],
  );
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
  // Loyalty numbers and SSRs go to the airline beside the passengers, and into an event of their own.
  const passengers = request.passengers.map(({ loyalty: _loyalty, ssrs: _ssrs, ...passenger }) => passenger);
  const services = passengerServices(request.passengers);
  // A demo booking reaches no airline: the same rule the airlines apply refuses a number here.
  if (principal.demo) {
    const carriers = flights.flatMap((f) => f.segments.map((segment) => segment.carrier));
    const problems = services.flatMap(({ index, loyalty }) => {
      const reason = loyalty && loyaltyRefusal(carriers, loyalty.carrier);
      return reason ? [{ pointer: `/passengers/${index}/loyalty/carrier`, detail: reason }] : [];
    });
    if (problems.length > 0) throw new InvalidInput(problems);
  }

  let supplierBooking: SupplierBooking | null = null;
  let priceDetail: PriceDetail = fare.price_detail;
  // The seats held at the supplier, recorded until our booking's append commits (which forgets the record in its own
  // statement; released by the reconcile job if it never does).
  let holdId: string | null = null;
  if (!principal.demo) {
    supplierBooking = await deps.supplier.book(
      { fare_id: fare.fare_id, passengers, contacts: request.contacts, services },
      supplierCall(deps.now(), ctx),
    );
    holdId = await recordHold(deps, supplierBooking, ctx);
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
    passengers,
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
  const answer = (locator: string, append: AppendResult | string | null, error: string | null) => ({
    locator,
    time_limit: held.time_limit,
    fake_booking: held.fake_booking,
    provider_status: held.provider_status,
    error,
    price: held.price,
    instant_payment: held.instant_payment,
    status: "held" as "held" | "issued",
    position: typeof append === "object" && append ? position(append) : (append ?? null),
  });

  // Instant payment: the booking is ticketed as it is made, through the same gates, balance check and operation
  // as an issue; the hold and the claim go in one append. A refused claim (a gate, the balance) holds it alone and
  // answers the reason as its error.
  let refusal: DomainError | null = null;
  if (held.instant_payment && held.provider_status === "confirmed") {
    const operationId = randomUUID();
    let claimed: Awaited<ReturnType<typeof hold>> | null = null;
    try {
      claimed = await hold(
        deps,
        held,
        services,
        metadata,
        {
          operationId,
          ctx,
          context,
          reread: () =>
            sellingContext(deps, principal, search.company_id, search.channel_id, { fresh: true }),
        },
        holdId,
      );
    } catch (error) {
      refusal = asHttpError(error);
      if (!refusal) throw error;
    }
    if (claimed) {
      const booked = answer(claimed.locator, claimed.append, supplierBooking?.error ?? null);
      const completed = await completeOperation(
        deps,
        { principal, context },
        claimed.locator,
        claimed.booking,
        operationId,
      ).catch((error: unknown) => {
        // The booking exists: answer it (being completed) rather than an error a client would retry into a second.
        if (error instanceof OperationPending) return error;
        throw error;
      });
      if (completed instanceof OperationPending)
        return { ...booked, error: completed.detail ?? completed.title };
      const { recorded, outcome } = completed;
      if (!outcome.ok)
        return { ...booked, error: outcome.error?.detail ?? outcome.reason, position: recorded.position };
      return { ...booked, status: "issued", tickets: recorded.booking.tickets, position: recorded.position };
    }
  }
  const { locator, append } = await hold(deps, held, services, metadata, null, holdId);
  return answer(
    locator,
    append,
    refusal ? (refusal.detail ?? refusal.title) : (supplierBooking?.error ?? null),
  );
}

/**
 * Records a new booking under a fresh locator ("no_stream" refuses one already taken, and the retry draws another),
 * and with `claim`, the start of its issue and the balance charge in the same append.
 */
async function hold(
  deps: CommandDeps,
  held: Omit<BookingHeld, "locator">,
  services: PassengerServices[],
  metadata: EventMetadata,
  claim: {
    operationId: string;
    ctx: SellingContext;
    context: RequestContext;
    /** The selling context read now, for a retry (the claim is guarded by the gates it was decided on). */
    reread: () => Promise<SellingContext>;
  } | null,
  /** The supplier hold this booking records (app.supplier_holds): forgotten by its append. */
  holdId: string | null,
) {
  let attempts = 0;
  const { result, append } = await runCommand(
    deps.store,
    async (cmd) => {
      const ctx = claim && attempts++ > 0 ? await claim.reread() : claim?.ctx;
      let cardRead: StreamVersion[] = [];
      const locator = generateLocator(randomInt);
      const stream = bookingStream(locator);
      // Created here: its state is folded on in memory after the append, so the issue that follows reads nothing.
      cmd.fresh(stream, evolveBooking, initialBooking);
      const events = decide({ type: "HoldBooking", held: { ...held, locator }, services }, initialBooking);
      if (claim) {
        const state = foldNew(
          evolveBooking,
          initialBooking,
          stream,
          events.map((e) => ({ ...e, metadata })),
          1,
        );
        if (!ctx) throw new Error("a claim without its selling context");
        assertCanIssue(ctx.gates, ctx.channel, claim.context.source);
        const { payment, read } = await paymentChoice(deps, ctx.channel);
        cardRead = read;
        events.push(
          ...decide(
            {
              type: "StartIssue",
              operation_id: claim.operationId,
              now: deps.now(),
              payment,
              accept_pending_price: false,
            },
            state,
          ),
        );
      }
      const decided = await appendDecided(cmd, {
        stream,
        expected: "no_stream",
        state: initialBooking,
        events,
        metadata,
        locator,
      });
      const guard = ctx ? guardAppends([...ctx.read, ...cardRead]) : [];
      return {
        appends: [...decided.appends, ...guard],
        result: { locator, booking: decided.result.booking },
        ...(holdId ? { releasingHold: holdId } : {}),
      };
    },
    // A claim charges the company balance: it takes turns there (StreamLocks).
    turnOf(deps, claim ? balanceStream(held.company_id) : undefined),
  );
  return { ...result, append };
}
