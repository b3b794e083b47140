import { Divider } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import type { ReactNode } from "react";
import { allows } from "../../../lib/booking-actions.ts";
import { AncillariesSection } from "./ancillaries-section.tsx";

/** What this feature adds to the booking page, handed in by the bookings route: bags, seats and their EMDs. */
export const ancillaryExtensions: { ancillaries: (booking: BookingDetails) => ReactNode } = {
  ancillaries: (booking) =>
    (booking.ancillaries?.length ?? 0) > 0 || allows(booking, "add_bags") ? (
      <>
        <Divider />
        <AncillariesSection booking={booking} />
      </>
    ) : null,
};
