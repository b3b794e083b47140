import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { useMemo } from "react";
import * as z from "zod/mini";
import { SearchPage } from "../features/search/components/search-page.tsx";
import { SearchParams } from "../features/search/url-state.ts";
import { requireSession } from "../lib/session.ts";

const text = (max: number) =>
  z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(max))), undefined);
const count = (min: number, max: number) =>
  z.catch(z.optional(z.pipe(z.coerce.number(), z.int().check(z.minimum(min), z.maximum(max)))), undefined);

/**
 * The address's shape only, in zod/mini: the route tree is part of every first page, the contracts' schemas (classic
 * zod) are not. The page checks the values against the contracts (SearchParams) before using any of them.
 */
const SearchAddress = z.object({
  from: text(3),
  to: text(3),
  depart: z.catch(z.optional(z.iso.date()), undefined),
  return: z.catch(z.optional(z.iso.date()), undefined),
  adults: count(1, 9),
  children: count(0, 8),
  infants: count(0, 9),
  cabin: text(20),
  sort: z.catch(z.optional(z.enum(["price", "duration", "departure"])), undefined),
  filters: z.catch(z.optional(z.record(z.string(), z.unknown())), undefined),
  result: text(100),
  fare: text(200),
});

export const Route = createFileRoute("/search")({
  // The search lives in the address (route, dates, passengers, cabin, sort, filters, the open booking form).
  validateSearch: SearchAddress,
  beforeLoad: async ({ context, location }) => {
    await requireSession(context.queryClient, location);
  },
  component: SearchRoute,
});

function SearchRoute() {
  const address = Route.useSearch();
  // Whatever the contracts refuse is dropped (SearchParams catches each field), never an error.
  const params = useMemo(() => SearchParams.parse(address), [address]);
  const navigate = useNavigate({ from: "/search" });
  return (
    <SearchPage params={params} onParams={(next, { replace }) => void navigate({ search: next, replace })} />
  );
}
