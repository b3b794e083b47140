import type { BookingHeld } from "@skyward/contracts/booking-events";
import type { Fare, PriceDetail } from "@skyward/contracts/offers";

/**
 * The held booking the booking deciders' tests start from (booking.test.ts, booking-schedule-change.test.ts): one
 * adult, 250.00 UAH, confirmed by the airline. The decider never reads inside the fare, so an empty one keeps it short.
 */
export const heldBooking = (overrides: Partial<BookingHeld> = {}): BookingHeld => ({
  locator: "ABC234",
  company_id: "c1",
  agency_id: "a1",
  agent_id: "u1",
  channel_id: "ch1",
  supplier_booking: null,
  fare: {
    fare_id: "f1",
    carrier: "PS",
    route: "KBP-WAW",
    departure_at: "2026-12-01T08:00:00+02:00",
    fare: {} as Fare,
    flights: [],
  },
  passengers: [],
  contacts: { email: "a@b.test", phone: "+380501112233" },
  price: { amount: 250_00, currency: "UAH" },
  price_detail: {} as PriceDetail,
  time_limit: "2026-11-22T12:00:00.000Z",
  fake_booking: false,
  provider_status: "confirmed",
  instant_payment: false,
  held_at: "2026-11-21T12:00:00.000Z",
  ...overrides,
});
