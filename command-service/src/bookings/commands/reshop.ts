import type { ReshopPricedOffer } from "@skyward/contracts/booking-events";
import type { ReshopHeldResponse, ReshopOffersResponse } from "@skyward/contracts/bookings";
import { type Money, money } from "@skyward/contracts/money";
import { fareLosses, type PriceDetail } from "@skyward/contracts/offers";
import type { ReshopOffer } from "@skyward/contracts/supplier";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { DomainError, IllegalState } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { guardedSearch } from "../../offers/search.ts";
import { type SellingContext, sellingContext, supplierCall } from "../../offers/selling-context.ts";
import { applyPricing, priceFare } from "../../pricing/apply-pricing.ts";
import type { ActiveBooking } from "../booking.ts";
import { onBooking } from "../execute.ts";
import { readBooking } from "./read-booking.ts";

/**
 * Reshop, in one meaning only: the offers sold today for a booking's journey. A held booking is reshopped on its own
 * dates as a result page to book from (`POST /bookings/reshop`); issued tickets are reshopped on the dates of their
 * flights-change request as exchange offers, priced against what the tickets are worth
 * (`POST /orders/{locator}/reshop_offers/price`). Accepting an airline's new price at issue is not a reshop: the
 * spec's `reshop` flag of `POST /bookings/issue` is read at the route as `accept_pending_price`.
 */
export async function reshopHeldBooking(
  deps: CommandDeps,
  principal: Principal,
  locator: string,
): Promise<ReshopHeldResponse> {
  const booking = await readBooking(deps, principal, locator);
  const [outbound, inbound] = booking.fare.flights;
  const first = outbound?.segments[0];
  const last = outbound?.segments.at(-1);
  if (!outbound || !first || !last)
    throw new IllegalState("This booking has no flights to reshop", "no_flights");
  const count = (type: string) => booking.passengers.filter((p) => p.type === type).length;
  const request = {
    origin: first.from.code,
    destination: last.to.code,
    departure_date: outbound.departure_at.slice(0, 10),
    ...(inbound ? { return_date: inbound.departure_at.slice(0, 10) } : {}),
    passengers: { adults: count("adult"), children: count("child"), infants: count("infant") },
    cabin: booking.fare.fare.cabin,
  };
  const { result } = await guardedSearch(deps, principal, request, (options) =>
    sellingContext(deps, principal, booking.company_id, booking.channel_id, options),
  );
  return { locator, result };
}

/** Our markups and fee of a price: what the agency and company earn on it. */
const markupsOf = (d: PriceDetail) =>
  d.agency_markup.amount + d.company_markup.amount + d.transaction_fee.amount;

/**
 * An exchange offer as the agent pays it: the airline's fare difference and change fee, our markups on the new fare
 * above those already paid, and the residual value the old tickets lose when the new fare is cheaper.
 */
export function priceReshopOffer(
  offer: ReshopOffer,
  booking: Pick<ActiveBooking, "price_detail" | "fare">,
  ctx: Pick<SellingContext, "policy">,
): ReshopPricedOffer & { detail: PriceDetail } {
  const detail = applyPricing(offer.fare.price, offer.fare.validating_carrier, ctx.policy);
  const old = booking.price_detail;
  const currency = offer.total_due.currency;
  const markup = Math.max(0, markupsOf(detail) - markupsOf(old));
  const oldSupplier = old.base_fare.amount + old.taxes.amount;
  const residual = Math.max(0, oldSupplier - offer.fare.price.total.amount);
  const m = (amount: number): Money => money(amount, currency);
  return {
    reshop_offer_id: offer.reshop_offer_id,
    departure_at: offer.flights[0]?.departure_at ?? "",
    brand_name: offer.fare.brand_name,
    new_price: detail.total,
    fare_difference: offer.fare_difference,
    change_fee: offer.change_fee,
    markup: m(markup),
    residual_value: m(residual),
    total_due: m(offer.total_due.amount + markup),
    flights: offer.flights,
    losses: fareLosses(booking.fare.fare.penalty, offer.fare.penalty),
    detail,
  };
}

/**
 * POST /orders/{locator}/reshop_offers/price: exchange offers for the booking's open flights-change request, recorded
 * as priced (the confirm charges exactly what was shown). A failure empties the offers, as the spec asks.
 */
export async function priceReshopOffers(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
): Promise<ReshopOffersResponse> {
  const actor = { principal, context };
  const booking = await readBooking(deps, principal, locator);
  const request = booking.change_request;
  if (!request) throw new IllegalState("Create a flights-change request first", "no_change_request");
  if (booking.fake_booking || !booking.supplier_booking)
    throw new IllegalState("A demo booking has no airline to exchange it with", "not_exchangeable");
  const ctx = await sellingContext(deps, principal, booking.company_id, booking.channel_id);
  const record = (offers: ReshopPricedOffer[], expiresAt: string) =>
    onBooking(deps, actor, locator, () => ({
      type: "PriceReshopOffers",
      request_id: request.request_id,
      offers,
      expires_at: expiresAt,
      now: deps.now(),
    }));
  let reshop: Awaited<ReturnType<typeof deps.supplier.reshop>>;
  try {
    reshop = await deps.supplier.reshop(
      {
        booking: booking.supplier_booking,
        request: {
          departure_date: request.departure_date,
          ...(request.return_date ? { return_date: request.return_date } : {}),
          ...(request.slice !== null ? { slice: request.slice } : {}),
        },
      },
      supplierCall(deps.now(), ctx),
    );
  } catch (error) {
    if (error instanceof DomainError) await record([], deps.now().toISOString());
    throw error;
  }
  const offers = reshop.offers.map((offer) => {
    const { detail, ...priced } = priceReshopOffer(offer, booking, ctx);
    return { priced, offer: { ...offer, fare: priceFare(offer.fare, ctx.policy), price_detail: detail } };
  });
  const { position } = await record(
    offers.map((o) => o.priced),
    reshop.expires_at,
  );
  return {
    locator,
    request_id: request.request_id,
    expires_at: reshop.expires_at,
    offers: offers.map(({ priced, offer }) => ({ ...offer, ...priced })),
    slice_rule: reshop.slice_rule,
    position,
  };
}
