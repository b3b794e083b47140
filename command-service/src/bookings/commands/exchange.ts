import { randomUUID } from "node:crypto";
import type { FlightsChangeConfirmResponse, FlightsChangeCreateResponse } from "@skyward/contracts/bookings";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { IllegalState, InvalidInput } from "@skyward/infra/http/errors";
import { balanceStream } from "../../balances/balance.ts";
import type { CommandDeps } from "../../deps.ts";
import { onBooking } from "../execute.ts";
import { assertSucceeded, issuingClaim, runSupplierOperation } from "../supplier-operation.ts";
import { readBooking } from "./read-booking.ts";

/**
 * POST /orders/{locator}/flights_change_requests/create: the new dates of the same journey, or the new date of one
 * slice (`slice`), which a multi-city journey must name: its other slices keep their flights.
 */
export async function createFlightsChange(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
  request: { departure_date: string; return_date?: string | undefined; slice?: number | undefined },
): Promise<FlightsChangeCreateResponse> {
  const booking = await readBooking(deps, principal, locator);
  if (booking.fake_booking)
    throw new IllegalState("A demo booking has no airline to exchange it with", "not_exchangeable");
  const problems = changeProblems(
    booking.fare.flights.map((f) => ({ direction: f.direction, date: f.departure_at.slice(0, 10) })),
    request,
  );
  if (problems.length > 0) throw new InvalidInput(problems);
  const slice = request.slice ?? null;
  const requestId = randomUUID();
  const { position } = await onBooking(deps, { principal, context }, locator, () => ({
    type: "RequestFlightsChange",
    request_id: requestId,
    departure_date: request.departure_date,
    return_date: request.return_date ?? null,
    slice,
    now: deps.now(),
  }));
  return {
    locator,
    request_id: requestId,
    departure_date: request.departure_date,
    return_date: request.return_date ?? null,
    slice,
    position,
  };
}

/**
 * What is wrong with a change request for a journey flying these slices (local departure dates): a multi-city
 * journey changes one slice at a time, an existing slice, on a date between its neighbours'.
 */
export function changeProblems(
  slices: { direction: string; date: string }[],
  request: { departure_date: string; return_date?: string | undefined; slice?: number | undefined },
): { pointer: string; detail: string }[] {
  if (request.slice === undefined) {
    if (slices.some((s) => s.direction === "onward"))
      return [{ pointer: "/slice", detail: "is required for a multi-city journey: the slice to change" }];
    const roundTrip = slices.length > 1;
    return roundTrip === (request.return_date !== undefined)
      ? []
      : [
          {
            pointer: "/return_date",
            detail: roundTrip ? "is required for a round trip" : "must be empty for a one-way trip",
          },
        ];
  }
  if (request.slice >= slices.length)
    return [
      {
        pointer: "/slice",
        detail: `must be below ${slices.length}: this journey has ${slices.length} slice${slices.length === 1 ? "" : "s"}`,
      },
    ];
  const before = slices[request.slice - 1];
  const after = slices[request.slice + 1];
  if (before && request.departure_date < before.date)
    return [
      { pointer: "/departure_date", detail: `must not be before the slice before it (${before.date})` },
    ];
  if (after && request.departure_date > after.date)
    return [{ pointer: "/departure_date", detail: `must not be after the slice after it (${after.date})` }];
  return [];
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
  assertSucceeded({ recorded, outcome });
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
