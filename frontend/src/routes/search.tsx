import { Text } from "@mantine/core";
import { mayUseScreen } from "@skyward/contracts/screens";
import { createFileRoute, useNavigate } from "@tanstack/react-router";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { address, count, isoDate, oneOf, record, text } from "../app/address.ts";
import { PageSkeleton, PENDING } from "../components/page-skeleton.tsx";
import { restoredResultQueryOptions } from "../features/search/api/restore-result.ts";
import { SearchPage } from "../features/search/components/search-page.tsx";
import { useSearchChecks } from "../features/search/load-checks.ts";
import { hasRecentSearches } from "../features/search/recent-searches-key.ts";
import { balancesQueryOptions } from "../lib/balances.ts";
import { siteLanguage } from "../lib/i18n.ts";
import { placeNamesQueryOptions } from "../lib/place-names-query.ts";
import { requireSession, useSession } from "../lib/session.ts";

/**
 * The address's shape only, without zod (app/address.ts): the route tree is part of every first page, zod is not.
 * The page checks the values against the contracts (SearchParams) before using any of them.
 */
const SearchAddress = address({
  from: text(3),
  to: text(3),
  depart: isoDate,
  return: isoDate,
  slices: text(120),
  adults: count(1, 9),
  children: count(0, 8),
  infants: count(0, 9),
  cabin: text(20),
  sort: oneOf(["price", "duration", "departure"]),
  filters: record,
  result: text(100),
  fare: text(200),
  company: text(100),
  calendar: oneOf(["open"]),
});

export const Route = createFileRoute("/search")({
  // The search lives in the address (route, dates, passengers, cabin, sort, filters, the open booking form).
  validateSearch: SearchAddress,
  loaderDeps: ({ search }) => ({
    from: search.from,
    to: search.to,
    depart: search.depart,
    result: search.result,
    filters: search.filters,
    fare: search.fare,
    company: search.company,
  }),
  // Started beside the page's code rather than after it. Only what the first paint shows is awaited: the city
  // names of the address's airports or of the recent searches (a few KB; an empty form with no recent search
  // fetches none). A result named by the address (a reload, a shared link) and the balances an open booking form
  // checks are asked for now and read by the page when they come.
  loader: async ({ context: { queryClient }, deps, cause, location }) => {
    await requireSession(queryClient, location);
    const quietly = (promise: Promise<unknown>) => promise.catch(() => undefined);
    // On arrival only: later the page itself moves the address along with the result it already has.
    if (cause === "enter" && deps.result && deps.from && deps.to && deps.depart)
      void queryClient.prefetchQuery(restoredResultQueryOptions(deps.result, deps.filters ?? {}));
    if (deps.fare || deps.company)
      void queryClient.prefetchQuery({ ...balancesQueryOptions(), meta: { notifyErrors: false } });
    if (deps.from || deps.to || hasRecentSearches())
      await quietly(queryClient.ensureQueryData(placeNamesQueryOptions(siteLanguage())));
  },
  ...PENDING,
  component: SearchRoute,
});

function SearchRoute() {
  const session = useSession();
  if (session && !mayUseScreen(session.account.user_type, "search")) return <SearchUnavailable />;
  return <SearchScreen />;
}

/** An auditor (read-only) searches and books nothing: the search's calls are not theirs to make. */
function SearchUnavailable() {
  const { t } = useTranslation("search");
  return (
    <Text p="md" c="dimmed">
      {t("unavailable_role")}
    </Text>
  );
}

function SearchScreen() {
  const address = Route.useSearch();
  // Whatever the contracts refuse is dropped (SearchParams catches each field), never an error. An empty address
  // and no recent search have nothing to check: the checks (and zod) load only when there is something to read, the
  // page's outline shown meanwhile.
  const needed = Object.values(address).some((value) => value !== undefined) || hasRecentSearches();
  const checks = useSearchChecks(needed);
  const params = useMemo(() => (checks ? checks.SearchParams.parse(address) : {}), [checks, address]);
  const navigate = useNavigate({ from: "/search" });
  const userType = useSession()?.account.user_type;
  if (needed && !checks) return <PageSkeleton />;
  return (
    <SearchPage
      params={params}
      onParams={(next, { replace }) => void navigate({ search: next, replace })}
      choosesCompany={userType === "Admin" || userType === "Support"}
    />
  );
}
