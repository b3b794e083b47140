import { Divider } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import type { ReactNode } from "react";
import { AncillariesSection } from "./ancillaries-section.tsx";

/** What this feature adds to the booking page, handed in by the bookings route: bags, seats and their EMDs. */
export const ancillaryExtensions: { ancillaries: (booking: BookingDetails) => ReactNode } = {
  ancillaries: (booking) =>
    (booking.ancillaries?.length ?? 0) > 0 ||
    (booking.actions?.some((a) => a.action === "add_bags" && a.allowed) ?? false) ? (
      <>
        <Divider />
        <AncillariesSection booking={booking} />
      </>
    ) : null,
};
