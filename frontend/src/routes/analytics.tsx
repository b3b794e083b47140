import { createFileRoute } from "@tanstack/react-router";
import * as z from "zod/mini";
import { AnalyticsPage } from "../features/analytics/components/analytics-page.tsx";
import { shiftDay, todayIso } from "../lib/date-format.ts";
import { requireSession } from "../lib/session.ts";

const IsoDate = z.catch(z.optional(z.iso.date()), undefined);

/** The period lives in the URL: /analytics?date_from=&date_to= (the last 30 days when not given). */
const AnalyticsSearch = z.object({
  date_from: IsoDate,
  date_to: IsoDate,
});

export const Route = createFileRoute("/analytics")({
  validateSearch: AnalyticsSearch,
  beforeLoad: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  component: AnalyticsRoute,
});

function AnalyticsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const dateTo = search.date_to ?? todayIso();
  const dateFrom = search.date_from ?? shiftDay(dateTo, -29);
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
