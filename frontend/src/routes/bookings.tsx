import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod";
import { BookingExtensionsProvider } from "../components/booking-extensions.tsx";
import { afterSalesExtensions } from "../features/after-sales/components/extensions.tsx";
import { ancillaryExtensions } from "../features/ancillaries/components/extensions.tsx";
import { BalanceSummary } from "../features/balance/components/balance-summary.tsx";
import { bookingQueryOptions } from "../features/bookings/api/booking.ts";
import { bookingListQueryOptions } from "../features/bookings/api/booking-list.ts";
import { BookingsPage } from "../features/bookings/components/bookings-page.tsx";
import { balancesQueryOptions } from "../lib/balances.ts";
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
  // Data and the page's code load side by side: the first list, the balance and the opened booking are asked for
  // while the chunk arrives; the page's own queries report failures (none is awaited past its first answer).
  loaderDeps: ({ search }) => ({ locator: search.locator }),
  loader: async ({ context: { queryClient }, deps: { locator } }) => {
    const quietly = (promise: Promise<unknown>) => promise.catch(() => undefined);
    await Promise.all([
      // The list the page opens on (the "new" list, first page, no filters: BookingsPage's starting state).
      quietly(
        queryClient.ensureQueryData(
          bookingListQueryOptions({
            list: "new",
            q: "",
            page: 1,
            perPage: 20,
            createdFrom: null,
            createdTo: null,
            byTimeLimit: false,
          }),
        ),
      ),
      quietly(queryClient.ensureQueryData(balancesQueryOptions())),
      // A refused booking (404, 416) is left for the page to ask for and explain, as if never fetched here.
      locator
        ? queryClient
            .ensureQueryData(bookingQueryOptions(locator))
            .catch(() =>
              queryClient.removeQueries({ queryKey: bookingQueryOptions(locator).queryKey, exact: true }),
            )
        : null,
    ]);
  },
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
