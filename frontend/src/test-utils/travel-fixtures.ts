import type { Money } from "@skyward/contracts/money";
import type { Fare, Flight, OriginDestination, PriceDetail } from "@skyward/contracts/offers";

/** A sandbox answer for KBP → WAW, as the search and booking screens receive it. */

export const uah = (amount: number): Money => ({ amount, currency: "UAH" });

export const flightKbpWaw: Flight = {
  id: "PS1380-20261212",
  direction: "outbound",
  segments: [
    {
      id: "PS1380-20261212",
      carrier: "PS",
      carrier_name: "Ukraine International Airlines",
      operating_carrier: "PS",
      flight_number: "1380",
      from: { code: "KBP", name: "Kyiv Boryspil International Airport", city: "Kyiv", country: "UA" },
      to: { code: "WAW", name: "Warsaw Chopin Airport", city: "Warsaw", country: "PL" },
      departure_at: "2026-12-12T19:55:00+02:00",
      arrival_at: "2026-12-12T20:25:00+01:00",
      duration_minutes: 90,
      distance_km: 719,
      equipment: { code: "E90", name: "Embraer 190" },
      stops: 0,
      cabin: "economy",
    },
  ],
  departure_at: "2026-12-12T19:55:00+02:00",
  arrival_at: "2026-12-12T20:25:00+01:00",
  duration_minutes: 90,
  stops: 0,
  connections: [],
};

/** Two adults at 5,646.26 each. */
export function priceDetail(perAdult = 564626, adults = 2): PriceDetail {
  const taxes = 128826;
  return {
    passengers: [
      {
        type: "adult",
        count: adults,
        base_fare: uah(perAdult - taxes),
        taxes: uah(taxes),
        agency_markup: uah(0),
        company_markup: uah(0),
        transaction_fee: uah(0),
        total: uah(perAdult),
      },
    ],
    base_fare: uah((perAdult - taxes) * adults),
    taxes: uah(taxes * adults),
    agency_markup: uah(0),
    company_markup: uah(0),
    transaction_fee: uah(0),
    total: uah(perAdult * adults),
  };
}

export function standardFare(adults = 2): Fare {
  const detail = priceDetail(564626, adults);
  return {
    fare_id: "SBX1-KBPWAW-20261212-OW-200-Y-ALL-UAH-1-ST",
    validating_carrier: "PS",
    family: "standard",
    brand_name: "Economy Standard",
    cabin: "economy",
    fare_segments: [
      {
        segment_id: "PS1380-20261212",
        booking_class: "M",
        fare_basis: "MSTOW",
        cabin: "economy",
        baggage: {
          checked: { pieces: 1, weight_kg: 23 },
          carry_on: { pieces: 1, weight_kg: 8 },
          personal_item: true,
        },
      },
    ],
    penalty: {
      change_before_departure: { allowed: true, fee: uah(315000) },
      change_after_departure: { allowed: false },
      refund_before_departure: { allowed: true, fee: uah(675000) },
      refund_after_departure: { allowed: false },
    },
    seats_left: 9,
    instant_payment: false,
    price: { amount: detail.total.amount, currency: "UAH", perPass: 564626 },
    price_detail: detail,
    original_price_detail: {
      passengers: detail.passengers.map(({ type, count, base_fare, taxes, total }) => ({
        type,
        count,
        base_fare,
        taxes,
        total,
      })),
      base_fare: detail.base_fare,
      taxes: detail.taxes,
      total: detail.total,
      exchange_rate: "1.000000",
    },
  };
}

export function optionKbpWaw(adults = 2): OriginDestination {
  return {
    id: "SBX1-KBPWAW-20261212-OW-200-Y-ALL-UAH-1",
    flights: [flightKbpWaw],
    fares: [standardFare(adults)],
    ancillaries: [],
  };
}
