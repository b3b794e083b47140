import type { Principal } from "@skyward/infra/http/context";
import { IllegalState } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { searchOffers } from "../../offers/search.ts";
import { sellingContext } from "../../offers/selling-context.ts";
import { readBooking } from "./read-booking.ts";

/**
 * Reshop: today's offers for the booking's own journey (same airports, dates, passengers and cabin), as a result
 * page the agent can book from when the held fare is gone or its price changed.
 */
export async function reshopBooking(deps: CommandDeps, principal: Principal, locator: string) {
  const booking = await readBooking(deps, principal, locator);
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
