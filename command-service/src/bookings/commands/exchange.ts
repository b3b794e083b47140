import { randomUUID } from "node:crypto";
import type { FlightsChangeConfirmResponse, FlightsChangeCreateResponse } from "@skyward/contracts/bookings";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { IllegalState, InvalidInput } from "@skyward/infra/http/errors";
import { balanceStream } from "../../balances/balance.ts";
import type { CommandDeps } from "../../deps.ts";
import { onBooking } from "../execute.ts";
import { issuingClaim, runSupplierOperation } from "../supplier-operation.ts";
import { readBooking } from "./read-booking.ts";

/** POST /orders/{locator}/flights_change_requests/create: the new dates of the same journey. */
export async function createFlightsChange(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  request: { departure_date: string; return_date?: string | undefined },
): Promise<FlightsChangeCreateResponse> {
  const booking = await readBooking(deps, principal, locator);
  if (booking.fake_booking)
    throw new IllegalState("A demo booking has no airline to exchange it with", "not_exchangeable");
  // Exchanging one slice of a multi-city journey is not built yet: refused here, before anything is written.
  if (booking.fare.flights.some((flight) => flight.direction === "onward"))
    throw new IllegalState(
      "Multi-city tickets cannot be exchanged yet: refund them and book the new journey",
      "multi_city_exchange",
    );
  const roundTrip = booking.fare.flights.length > 1;
  if (roundTrip !== (request.return_date !== undefined))
    throw new InvalidInput([
      {
        pointer: "/return_date",
        detail: roundTrip ? "is required for a round trip" : "must be empty for a one-way trip",
      },
    ]);
  const requestId = randomUUID();
  const { position } = await onBooking(deps, { principal, context }, locator, () => ({
    type: "RequestFlightsChange",
    request_id: requestId,
    departure_date: request.departure_date,
    return_date: request.return_date ?? null,
    now: deps.now(),
  }));
  return {
    locator,
    request_id: requestId,
    departure_date: request.departure_date,
    return_date: request.return_date ?? null,
    position,
  };
}

/**
 * POST /orders/{locator}/flights_change_requests/confirm: claims the booking with the chosen offer and charges its
 * total to the balance in the same append (companies take turns at their balance), reissues at the airline
 * idempotently on the operation id, and records the new tickets, or gives the charge back and empties the offers.
 */
export async function confirmFlightsChange(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  reshopOfferId: string,
): Promise<FlightsChangeConfirmResponse> {
  const { company_id: companyId } = await readBooking(deps, principal, locator, { trusted: true });
  const { claimed, recorded, outcome } = await runSupplierOperation(deps, { principal, context }, locator, {
    turnAt: balanceStream(companyId),
    // New tickets are issued: claimed the way an issue is.
    start: issuingClaim(deps, principal, context.source, ({ operationId, payment }) => ({
      type: "StartExchange",
      operation_id: operationId,
      reshop_offer_id: reshopOfferId,
      now: deps.now(),
      payment,
    })),
  });
  if (!outcome.ok) throw outcome.error ?? new IllegalState(outcome.reason, outcome.code);
  const exchanged = recorded.events.find((e) => e.type === "TicketsExchanged");
  const started = claimed.events.find((e) => e.type === "ExchangeStarted");
  return {
    locator,
    status: recorded.booking.status,
    tickets: recorded.booking.tickets,
    old_tickets: exchanged?.type === "TicketsExchanged" ? exchanged.data.old_tickets : [],
    price: recorded.booking.price,
    /** What the company balance was charged for it; null when nothing moved (a card, nothing to pay). */
    charged: started?.type === "ExchangeStarted" ? started.data.charged : null,
    position: recorded.position,
  };
}
