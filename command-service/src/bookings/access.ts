import type { Principal } from "@skyward/infra/http/context";
import { NotFound } from "@skyward/infra/http/errors";
import type pg from "pg";
import type { ActiveBooking, BookingState } from "./booking.ts";

/**
 * Whether the caller may act on a booking (DESIGN.md roles table): agents within their own companies (their own
 * bookings, or all when the company shares bookings), supervisors within their agency, administrators anywhere.
 * A demo user acts only on the fake bookings it made itself. Anything else is answered as if it did not exist.
 */
export async function assertMayActOn(
  pool: pg.Pool,
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
      const { rows } = await pool.query<{ shared: boolean }>(
        "SELECT shared_bookings AS shared FROM read.companies WHERE id = $1",
        [booking.company_id],
      );
      if (rows[0]?.shared) return booking;
      break;
    }
  }
  throw new NotFound("No such booking", "booking_not_found");
}
