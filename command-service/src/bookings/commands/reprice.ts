import { allows } from "@skyward/contracts/booking-lifecycle";
import type { RepriceResponse } from "@skyward/contracts/bookings";
import type { Principal, RequestContext } from "@skyward/infra/http/context";
import { IllegalState } from "@skyward/infra/http/errors";
import type { CommandDeps } from "../../deps.ts";
import { sellingContext, supplierCall } from "../../offers/selling-context.ts";
import { applyPricing } from "../../pricing/apply-pricing.ts";
import { onBooking } from "../execute.ts";
import { readBooking } from "./read-booking.ts";

/** Asks the supplier for today's price; a different price replaces the booking's (the agent sees it before issue). */
export async function repriceBooking(
  deps: CommandDeps,
  context: RequestContext,
  principal: Principal,
  locator: string,
): Promise<RepriceResponse> {
  const booking = await readBooking(deps, principal, locator);
  if (!allows(booking.status, "reprice"))
    throw new IllegalState(
      `Only held bookings can be repriced; this booking is ${booking.status}`,
      "not_held",
    );
  const unchanged = {
    locator,
    changed: false,
    price: booking.price,
    price_detail: booking.price_detail,
    position: null,
  };
  if (!booking.supplier_booking || booking.fake_booking) return unchanged;
  const ctx = await sellingContext(deps, principal, booking.company_id, booking.channel_id);
  const supplierBooking = booking.supplier_booking;
  const result = await deps.supplier.reprice({ booking: supplierBooking }, supplierCall(deps.now(), ctx));
  const detail = applyPricing(result.price, booking.fare.carrier, ctx.policy);
  if (detail.total.amount === booking.price.amount && !booking.pending_price) return unchanged;
  // Decided on the booking as it is after the call: a booking issued or cancelled meanwhile refuses the new price.
  const { position } = await onBooking(deps, { principal, context }, locator, () => ({
    type: "RepriceBooking",
    price: detail.total,
    price_detail: detail,
    supplier_booking: { ...supplierBooking, price: result.price },
  }));
  return { locator, changed: true, price: detail.total, price_detail: detail, position };
}
