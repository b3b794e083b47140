import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod";
import { BookingExtensionsProvider } from "../components/booking-extensions.tsx";
import { afterSalesExtensions } from "../features/after-sales/components/extensions.tsx";
import { BalanceSummary } from "../features/balance/components/balance-summary.tsx";
import { BookingsPage } from "../features/bookings/components/bookings-page.tsx";
import { requireSession } from "../lib/session.ts";

const BookingsSearch = z.object({
  /** Opens one booking of the list: /bookings?locator=ABC234 (seed spec, section 2). */
  locator: z.string().trim().toUpperCase().min(1).optional().catch(undefined),
});

export const Route = createFileRoute("/bookings")({
  validateSearch: BookingsSearch,
  beforeLoad: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  component: BookingsRoute,
});

function BookingsRoute() {
  const { locator } = Route.useSearch();
  return (
    <BookingExtensionsProvider value={afterSalesExtensions}>
      <BookingsPage locator={locator} aside={<BalanceSummary />} />
    </BookingExtensionsProvider>
  );
}
