import { salesPageSize } from "@skyward/contracts/sales";
import { createFileRoute } from "@tanstack/react-router";
import { address, count, isoDate, text } from "../app/address.ts";
import { PENDING } from "../components/page-skeleton.tsx";
import { salesListQueryOptions } from "../features/sales/api/sales-list.ts";
import { SalesPage } from "../features/sales/components/sales-page.tsx";
import { requireSession } from "../lib/session.ts";

/** The filter and page live in the URL: /sales?text=&date_from=&date_to=&page= */
const SalesSearch = address({
  text: text(100, { min: 0 }),
  date_from: isoDate,
  date_to: isoDate,
  page: count(1),
});

export const Route = createFileRoute("/sales")({
  validateSearch: SalesSearch,
  loaderDeps: ({ search }) => ({ filter: filterOf(search), page: search.page ?? 1 }),
  // The first page of lines is asked for beside the page's code and awaited on arrival only: a changed filter
  // keeps the lines on screen until the new ones come. The page size is the page's own (the window's height).
  loader: async ({ context: { queryClient }, deps, cause, location }) => {
    await requireSession(queryClient, location);
    const lines = queryClient.ensureQueryData({
      ...salesListQueryOptions(deps.filter, deps.page, salesPageSize(window.innerHeight)),
      meta: { notifyErrors: false },
    });
    if (cause === "enter") await lines.catch(() => undefined);
    else lines.catch(() => undefined);
  },
  // The loader in a chunk of its own: the page size comes from the contracts (classic zod), which the route tree
  // that every first page loads must not carry.
  codeSplitGroupings: [["loader"], ["component"], ["errorComponent"], ["notFoundComponent"]],
  ...PENDING,
  component: SalesRoute,
});

function filterOf(search: {
  text?: string | undefined;
  date_from?: string | undefined;
  date_to?: string | undefined;
}) {
  return { text: search.text ?? "", dateFrom: search.date_from ?? null, dateTo: search.date_to ?? null };
}

function SalesRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SalesPage
      filter={filterOf(search)}
      page={search.page ?? 1}
      onChange={({ filter, page }) =>
        navigate({
          search: {
            text: filter.text || undefined,
            date_from: filter.dateFrom ?? undefined,
            date_to: filter.dateTo ?? undefined,
            page: page > 1 ? page : undefined,
          },
          replace: true,
        })
      }
    />
  );
}
