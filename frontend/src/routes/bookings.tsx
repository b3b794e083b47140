import type { BalanceRow } from "@skyward/contracts/balances";
import type { BookingListPage } from "@skyward/contracts/bookings";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { address, count, oneOf, text } from "../app/address.ts";
import { BookingExtensionsProvider } from "../components/booking-extensions.tsx";
import { PENDING } from "../components/page-skeleton.tsx";
import { afterSalesExtensions } from "../features/after-sales/components/extensions.tsx";
import { ancillaryExtensions } from "../features/ancillaries/components/extensions.tsx";
import { BalanceSummary } from "../features/balance/components/balance-summary.tsx";
import { bookingListQueryOptions, startingListParams } from "../features/bookings/api/booking-list.ts";
import { BookingsPage } from "../features/bookings/components/bookings-page.tsx";
import { PER_PAGE } from "../features/bookings/lists.ts";
import { balancesQueryOptions } from "../lib/balances.ts";
import { takeWritten } from "../lib/page-data.ts";
import { requireSession } from "../lib/session.ts";

const BookingsSearch = address({
  /** Opens one booking of the list: /bookings?locator=ABC234 (seed spec, section 2). */
  locator: text(Number.MAX_SAFE_INTEGER, { prepare: (value) => value.trim().toUpperCase() }),
  /** The list shown (absent: "new"), a text search within it, and the page: kept over a reload. */
  list: oneOf(["new", "issued", "cancelled", "refunded"]),
  q: text(100, { prepare: (value) => value.trim() }),
  page: count(1, 100_000),
});

export const Route = createFileRoute("/bookings")({
  validateSearch: BookingsSearch,
  // Data and the page's code load side by side: the first list and the balance are asked for while the chunk
  // arrives; the page's own queries report failures. An opened booking is left to the drawer, which explains a
  // refusal (404, 416) itself.
  loaderDeps: ({ search }) => ({ list: search.list, q: search.q, page: search.page }),
  loader: async ({ context: { queryClient }, location, deps }) => {
    await requireSession(queryClient, location);
    // The list and balances the server wrote into the page (its first load, scripts/src/page-data.ts) are the
    // start's answers.
    const written = takeWritten("bookings");
    if (written)
      queryClient.setQueryData(
        bookingListQueryOptions(startingListParams(written.list, "", written.page, written.per_page))
          .queryKey,
        written.answer as BookingListPage,
      );
    const balances = takeWritten("balances");
    if (balances) queryClient.setQueryData(balancesQueryOptions().queryKey, balances as BalanceRow[]);
    // Silent here: a failure leaves the query without data, the page asks again and reports it once.
    const quietly = (promise: Promise<unknown>) => promise.catch(() => undefined);
    const silent = { meta: { notifyErrors: false } } as const;
    await Promise.all([
      // The list the page opens on (the address's list, search and page, no date filters: BookingsPage's start).
      quietly(
        queryClient.ensureQueryData({
          ...bookingListQueryOptions(
            startingListParams(deps.list ?? "new", deps.q ?? "", deps.page ?? 1, PER_PAGE),
          ),
          ...silent,
        }),
      ),
      quietly(queryClient.ensureQueryData({ ...balancesQueryOptions(), ...silent })),
    ]);
  },
  ...PENDING,
  component: BookingsRoute,
});

const EXTENSIONS = {
  ...afterSalesExtensions,
  ...ancillaryExtensions,
  preload: () => Promise.all([afterSalesExtensions.preload?.(), ancillaryExtensions.preload()]),
};

function BookingsRoute() {
  const { locator, list, q, page } = Route.useSearch();
  const navigate = useNavigate({ from: "/bookings" });
  return (
    <BookingExtensionsProvider value={EXTENSIONS}>
      <BookingsPage
        view={{ locator, list, q, page }}
        onView={(next, options) => void navigate({ search: next, replace: options?.replace ?? false })}
        aside={<BalanceSummary />}
      />
    </BookingExtensionsProvider>
  );
}
