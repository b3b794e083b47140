import { createFileRoute } from "@tanstack/react-router";
import * as z from "zod/mini";
import { BookingExtensionsProvider } from "../components/booking-extensions.tsx";
import { PENDING } from "../components/page-skeleton.tsx";
import { afterSalesExtensions } from "../features/after-sales/components/extensions.tsx";
import { ancillaryExtensions } from "../features/ancillaries/components/extensions.tsx";
import { BalanceSummary } from "../features/balance/components/balance-summary.tsx";
import { bookingListQueryOptions } from "../features/bookings/api/booking-list.ts";
import { BookingsPage } from "../features/bookings/components/bookings-page.tsx";
import { balancesQueryOptions } from "../lib/balances.ts";
import { requireSession } from "../lib/session.ts";

const BookingsSearch = z.object({
  /** Opens one booking of the list: /bookings?locator=ABC234 (seed spec, section 2). */
  locator: z.catch(z.optional(z.string().check(z.trim(), z.toUpperCase(), z.minLength(1))), undefined),
});

export const Route = createFileRoute("/bookings")({
  validateSearch: BookingsSearch,
  // Data and the page's code load side by side: the first list and the balance are asked for while the chunk
  // arrives; the page's own queries report failures. An opened booking is left to the drawer, which explains a
  // refusal (404, 416) itself.
  loader: async ({ context: { queryClient }, location }) => {
    await requireSession(queryClient, location);
    // Silent here: a failure leaves the query without data, the page asks again and reports it once.
    const quietly = (promise: Promise<unknown>) => promise.catch(() => undefined);
    const silent = { meta: { notifyErrors: false } } as const;
    await Promise.all([
      // The list the page opens on (the "new" list, first page, no filters: BookingsPage's starting state).
      quietly(
        queryClient.ensureQueryData({
          ...bookingListQueryOptions({
            list: "new",
            q: "",
            page: 1,
            perPage: 20,
            createdFrom: null,
            createdTo: null,
            byTimeLimit: false,
          }),
          ...silent,
        }),
      ),
      quietly(queryClient.ensureQueryData({ ...balancesQueryOptions(), ...silent })),
    ]);
  },
  ...PENDING,
  component: BookingsRoute,
});

function BookingsRoute() {
  const { locator } = Route.useSearch();
  return (
    <BookingExtensionsProvider value={{ ...afterSalesExtensions, ...ancillaryExtensions }}>
      <BookingsPage locator={locator} aside={<BalanceSummary />} />
    </BookingExtensionsProvider>
  );
}
