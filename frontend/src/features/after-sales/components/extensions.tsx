import { lazy } from "react";
import type { BookingExtensions } from "../../../components/booking-extensions.tsx";
import { TimeLimitNotices } from "./time-limit-notices.tsx";

// An opened booking's after-sales parts load with the booking's screen (the drawer asks for them beside its own code,
// `preload`), not with the bookings list: the list's first load carries only the notices above it.
const loadParts = () => import("./booking-parts.tsx");
const AfterSalesActions = lazy(() => loadParts().then((m) => ({ default: m.AfterSalesActions })));
const AfterSalesHistory = lazy(() => loadParts().then((m) => ({ default: m.AfterSalesHistory })));
const BookingNow = lazy(() => loadParts().then((m) => ({ default: m.BookingNow })));
const ItineraryMails = lazy(() => loadParts().then((m) => ({ default: m.ItineraryMails })));
const ScheduleChangePanel = lazy(() => loadParts().then((m) => ({ default: m.ScheduleChangePanel })));

/** The after-sales parts of the bookings screens, for the route to hand to the bookings feature. */
export const afterSalesExtensions: BookingExtensions = {
  preload: loadParts,
  notices: <TimeLimitNotices />,
  actions: (booking) => <AfterSalesActions booking={booking} />,
  now: (booking) => (
    <>
      <ScheduleChangePanel booking={booking} />
      <BookingNow actions={booking.actions ?? []} />
    </>
  ),
  history: (booking) => (
    <>
      {(booking.refunds?.length ?? 0) > 0 || (booking.history?.length ?? 0) > 0 ? (
        <AfterSalesHistory booking={booking} />
      ) : null}
      {/* The traveller's itinerary e-mail, once there are tickets to send. */}
      {(booking.tickets?.length ?? 0) > 0 ? <ItineraryMails booking={booking} /> : null}
    </>
  ),
};
