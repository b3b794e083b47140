import { createFileRoute } from "@tanstack/react-router";
import { address, isoDate } from "../app/address.ts";
import { PENDING } from "../components/page-skeleton.tsx";
import { analyticsQueryOptions } from "../features/analytics/api/analytics.ts";
import { AnalyticsPage } from "../features/analytics/components/analytics-page.tsx";
import { shiftDay, todayIso } from "../lib/date-format.ts";
import { requireSession } from "../lib/session.ts";

/** The period lives in the URL: /analytics?date_from=&date_to= (the last 30 days when not given). */
const AnalyticsSearch = address({
  date_from: isoDate,
  date_to: isoDate,
});

export const Route = createFileRoute("/analytics")({
  validateSearch: AnalyticsSearch,
  loaderDeps: ({ search }) => period(search),
  // The period's figures are asked for beside the page's code (charts included) and awaited on arrival only:
  // a changed period keeps the figures on screen until the new ones come (the page says it is loading).
  loader: async ({ context: { queryClient }, deps, cause, location }) => {
    await requireSession(queryClient, location);
    const figures = queryClient.ensureQueryData({
      ...analyticsQueryOptions(deps.dateFrom, deps.dateTo),
      meta: { notifyErrors: false },
    });
    if (cause === "enter") await figures.catch(() => undefined);
    else figures.catch(() => undefined);
  },
  ...PENDING,
  component: AnalyticsRoute,
});

/** The last 30 days when the address names no period. */
function period(search: { date_from?: string | undefined; date_to?: string | undefined }) {
  const dateTo = search.date_to ?? todayIso();
  return { dateFrom: search.date_from ?? shiftDay(dateTo, -29), dateTo };
}

function AnalyticsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const { dateFrom, dateTo } = period(search);
  return (
    <AnalyticsPage
      dateFrom={dateFrom}
      dateTo={dateTo}
      onChange={(next) =>
        navigate({ search: { date_from: next.dateFrom, date_to: next.dateTo }, replace: true })
      }
    />
  );
}
