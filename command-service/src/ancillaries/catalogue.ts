import type { AncillaryKind, PricedAncillary, SeatMap } from "@skyward/contracts/ancillaries";
import type { Principal } from "@skyward/infra/http/context";
import { Conflict, InvalidInput } from "@skyward/infra/http/errors";
import { readBooking } from "../bookings/commands/read-booking.ts";
import type { CommandDeps } from "../deps.ts";
import { companyFor, type SellingContext, sellingContext, supplierCall } from "../offers/selling-context.ts";
import { priceAncillary } from "./pricing.ts";

/** GET /offers/{fare_id}/ancillaries: what the fare's flights sell, at the agent's prices. */
export async function offerAncillaries(
  deps: CommandDeps,
  principal: Principal,
  fareId: string,
  query: { type?: AncillaryKind | undefined; search_result_id?: string | undefined },
): Promise<PricedAncillary[]> {
  const companyId = query.search_result_id
    ? (await deps.searches.load(principal, query.search_result_id)).company_id
    : companyFor(principal, undefined);
  const ctx = await sellingContext(deps, principal, companyId);
  const call = supplierCall(deps.now(), ctx);
  // Markup rules are per validating carrier, which the fare's details name.
  const [items, details] = await Promise.all([
    deps.supplier.ancillaryCatalogue({ fare_id: fareId }, call),
    deps.supplier.offerDetails({ fare_id: fareId }, call),
  ]);
  return items
    .filter((item) => !query.type || item.type === query.type)
    .map((item) => priceAncillary(item, details.fare.validating_carrier, ctx.policy));
}

/** The booking and the selling context its supplier calls go through (its company and channel). */
export async function bookingContext(deps: CommandDeps, principal: Principal, locator: string) {
  const booking = await readBooking(deps, principal, locator);
  const ctx = await sellingContext(deps, principal, booking.company_id, booking.channel_id);
  return { booking, ctx };
}

/** GET /bookings/{locator}/ancillaries: what the booking's flights sell now, at the agent's prices. */
export async function bookingAncillaries(
  deps: CommandDeps,
  principal: Principal,
  locator: string,
  type: AncillaryKind | undefined,
): Promise<PricedAncillary[]> {
  const { booking, ctx } = await bookingContext(deps, principal, locator);
  const items = await catalogueOf(deps, booking, ctx);
  return items.filter((item) => !type || item.type === type);
}

export async function catalogueOf(
  deps: CommandDeps,
  booking: Awaited<ReturnType<typeof readBooking>>,
  ctx: SellingContext,
): Promise<PricedAncillary[]> {
  // A demo booking never reached an airline: its catalogue is the fare's.
  const input = booking.supplier_booking
    ? { booking: booking.supplier_booking }
    : { fare_id: booking.fare.fare_id };
  const items = await deps.supplier.ancillaryCatalogue(input, supplierCall(deps.now(), ctx));
  return items.map((item) => priceAncillary(item, booking.fare.carrier, ctx.policy));
}

/** GET /bookings/{locator}/seat_map?segment=: the cabin of one segment, seats priced for the agent. */
export async function bookingSeatMap(
  deps: CommandDeps,
  principal: Principal,
  locator: string,
  segmentId: string,
): Promise<SeatMap> {
  const { booking, ctx } = await bookingContext(deps, principal, locator);
  const call = supplierCall(deps.now(), ctx);
  // A demo booking never reached an airline: its map is the fare's cabin, with its own seats marked below.
  const map = await deps.supplier.seatMap(
    booking.supplier_booking
      ? { booking: booking.supplier_booking, segment_id: segmentId }
      : { fare_id: booking.fare.fare_id, segment_id: segmentId },
    call,
  );
  const prices = new Map(
    (await catalogueOf(deps, booking, ctx)).map((item) => [item.ancillary_id, item.price]),
  );
  // The seats this booking holds on our side, including those not yet at the airline's map (held lines).
  const ours = new Map(
    booking.ancillaries
      .filter((l) => l.seat && l.segment_id === segmentId && l.status !== "refunded" && l.status !== "voided")
      .map((l) => [l.seat, l.passenger_index] as const),
  );
  return {
    ...map,
    rows: map.rows.map((row) => ({
      ...row,
      seats: row.seats.map((seat) => {
        const holder = ours.get(seat.seat) ?? seat.passenger_index;
        if (holder !== null && holder !== undefined)
          return { ...seat, status: "occupied", ancillary_id: null, price: null, passenger_index: holder };
        return {
          ...seat,
          price: seat.ancillary_id ? (prices.get(seat.ancillary_id) ?? seat.price) : seat.price,
        };
      }),
    })),
  };
}

/**
 * A seat asked for on a demo booking, which no airline checks: on the fare's map, of the item's zone, not taken by
 * other travellers (the booking's own seats are the decider's to check).
 */
export async function assertDemoSeat(
  deps: CommandDeps,
  booking: Awaited<ReturnType<typeof readBooking>>,
  ctx: SellingContext,
  wanted: { ancillary_id: string; segment_id: string; seat: string; seat_zone: string | null },
  pointer: string,
): Promise<void> {
  const map = await deps.supplier.seatMap(
    { fare_id: booking.fare.fare_id, segment_id: wanted.segment_id },
    supplierCall(deps.now(), ctx),
  );
  const seat = map.rows.flatMap((r) => r.seats).find((s) => s.seat === wanted.seat.toUpperCase());
  if (!seat) throw new InvalidInput([{ pointer, detail: `${wanted.seat} is not on this aircraft` }]);
  if (seat.status === "occupied") throw new Conflict(`Seat ${seat.seat} is already taken`, "seat_taken");
  if (seat.zone !== wanted.seat_zone)
    throw new InvalidInput([{ pointer, detail: `${wanted.ancillary_id} does not sell seat ${seat.seat}` }]);
}
