import { Divider } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import { lazy, type ReactNode } from "react";
import { allows } from "../../../lib/booking-actions.ts";

// The bags and seats section (its pickers, seat map and forms) loads with an opened booking's screen, not with the list.
const loadSection = () => import("./ancillaries-section.tsx");
const AncillariesSection = lazy(() => loadSection().then((m) => ({ default: m.AncillariesSection })));

/** What this feature adds to the booking page, handed in by the bookings route: bags, seats and their EMDs. */
export const ancillaryExtensions: {
  preload: () => Promise<unknown>;
  ancillaries: (booking: BookingDetails) => ReactNode;
} = {
  preload: loadSection,
  ancillaries: (booking) =>
    (booking.ancillaries?.length ?? 0) > 0 || allows(booking, "add_bags") ? (
      <>
        <Divider />
        <AncillariesSection booking={booking} />
      </>
    ) : null,
};
