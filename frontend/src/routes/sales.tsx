import { createFileRoute } from "@tanstack/react-router";
import * as z from "zod/mini";
import { SalesPage } from "../features/sales/components/sales-page.tsx";
import { requireSession } from "../lib/session.ts";

const IsoDate = z.catch(z.optional(z.iso.date()), undefined);

/** The filter and page live in the URL: /sales?text=&date_from=&date_to=&page= */
const SalesSearch = z.object({
  text: z.catch(z.optional(z.string().check(z.maxLength(100))), undefined),
  date_from: IsoDate,
  date_to: IsoDate,
  page: z.catch(z.optional(z.pipe(z.coerce.number(), z.int().check(z.minimum(1)))), undefined),
});

export const Route = createFileRoute("/sales")({
  validateSearch: SalesSearch,
  beforeLoad: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  component: SalesRoute,
});

function SalesRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SalesPage
      filter={{ text: search.text ?? "", dateFrom: search.date_from ?? null, dateTo: search.date_to ?? null }}
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
