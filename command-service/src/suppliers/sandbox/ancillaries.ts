import type { SeatZone, SupplierAncillary } from "@skyward/contracts/ancillaries";
import { type Money, money } from "@skyward/contracts/money";
import type { Flight } from "@skyward/contracts/offers";
import { convertMinor, eurosToMinor } from "./exchange-rates.ts";
import { ancillaries, type Itinerary } from "./fares.ts";
import { seatAncillaryId } from "./seat-map.ts";

const inSale = (eur: number, filing: string, sale: string): Money =>
  money(convertMinor(eurosToMinor(eur, filing, true), filing, sale), sale);

/**
 * Seat prices per segment, in EUR at the carrier's filing: front rows and exit rows are paid everywhere; a standard
 * seat is free to choose on a network carrier and paid on a low-cost one.
 */
function seatEuros(zone: SeatZone, distanceKm: number, lowCost: boolean): number {
  switch (zone) {
    case "front":
      return Math.min(8 + 0.004 * distanceKm, 30);
    case "extra_legroom":
      return Math.min(15 + 0.006 * distanceKm, 50);
    case "standard":
      return lowCost ? Math.min(5 + 0.002 * distanceKm, 15) : 0;
  }
}

const SEAT_TITLES: Readonly<Record<SeatZone, string>> = {
  front: "Seat in the front rows",
  extra_legroom: "Extra legroom seat",
  standard: "Standard seat",
};

/**
 * The sandbox catalogue of an itinerary: its bags (fares.ts, as the search shows them) and its seats by zone, per
 * segment, for adults and children (an infant sits on a lap and carries no bag).
 */
export function sandboxCatalogue(
  itinerary: Itinerary,
  flights: readonly Flight[],
  sale: string,
): SupplierAncillary[] {
  const { carrier } = itinerary;
  const bags: SupplierAncillary[] = ancillaries(itinerary, sale).map((bag) => ({
    ancillary_id: bag.ancillary_id,
    type: bag.type,
    title: bag.title,
    segment_id: bag.segment_id,
    passenger_types: bag.passenger_types,
    price: bag.price,
    pieces: bag.pieces,
    weight_kg: bag.weight_kg,
    seat_zone: null,
  }));
  const seats = flights.flatMap((flight) =>
    flight.segments.flatMap((segment) =>
      (["standard", "extra_legroom", "front"] as const).map(
        (zone): SupplierAncillary => ({
          ancillary_id: seatAncillaryId(segment.id, zone),
          type: "seat",
          title: SEAT_TITLES[zone],
          segment_id: segment.id,
          passenger_types: ["adult", "child"],
          price: inSale(seatEuros(zone, segment.distance_km, carrier.lowCost), carrier.currency, sale),
          pieces: null,
          weight_kg: null,
          seat_zone: zone,
        }),
      ),
    ),
  );
  return [...bags, ...seats];
}

/** The seat items of a segment by zone, for its seat map. */
export function seatPrices(catalogue: readonly SupplierAncillary[], segmentId: string): Map<SeatZone, Money> {
  return new Map(
    catalogue.flatMap((item) =>
      item.type === "seat" && item.seat_zone && item.segment_id === segmentId
        ? [[item.seat_zone, item.price] as const]
        : [],
    ),
  );
}
