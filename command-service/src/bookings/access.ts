import type { EventStore } from "@skyward/infra/event-store/event-store";
import type { Principal } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import { companyStream, evolveCompany, noCompany } from "../directory/company.ts";
import type { ActiveBooking, BookingState } from "./booking.ts";

/**
 * Whether the caller may act on a booking (DESIGN.md roles table): agents within their own companies (their own
 * bookings, or all when the company shares bookings), supervisors within their agency, administrators anywhere.
 * A demo user acts only on the fake bookings it made itself. Anything else is answered as if it did not exist.
 * Whether the company shares bookings is read from its stream, not the directory read model: sharing switched off
 * holds from the moment the switch is answered, however far the projection lags (README, "what a command may read").
 */
export async function assertMayActOn(
  store: EventStore,
  p: Principal,
  booking: BookingState,
): Promise<ActiveBooking> {
  if (booking.status === "none") throw new NotFound("No such booking", "booking_not_found");
  if (p.demo) {
    if (booking.fake_booking && booking.agent_id === p.userId) return booking;
    throw new NotFound("No such booking", "booking_not_found");
  }
  switch (p.userType) {
    case "Admin":
    case "Support":
      return booking;
    case "Supervisor":
      if (booking.agency_id === p.agencyId) return booking;
      break;
    case "Agent": {
      if (!p.companyIds.includes(booking.company_id)) break;
      if (booking.agent_id === p.userId) return booking;
      const { state: company } = await store.fold(
        companyStream(booking.company_id),
        evolveCompany,
        noCompany,
      );
      if (company.status === "active" && company.shared_bookings) return booking;
      break;
    }
  }
  throw new NotFound("No such booking", "booking_not_found");
}
