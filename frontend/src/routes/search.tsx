import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { SearchPage } from "../features/search/components/search-page.tsx";
import { SearchParams } from "../features/search/url-state.ts";
import { requireSession } from "../lib/session.ts";

export const Route = createFileRoute("/search")({
  // The search lives in the address (route, dates, passengers, cabin, sort, filters, the open booking form).
  validateSearch: SearchParams,
  beforeLoad: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  component: SearchRoute,
});

function SearchRoute() {
  const params = Route.useSearch();
  const navigate = useNavigate({ from: "/search" });
  return (
    <SearchPage params={params} onParams={(next, { replace }) => void navigate({ search: next, replace })} />
  );
}
