import {
  Box,
  Button,
  Container,
  Group,
  Paper,
  Progress,
  SegmentedControl,
  Skeleton,
  Stack,
  Switch,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { isMultiCity } from "@skyward/contracts/journey";
import type { JourneySearchRequest } from "@skyward/contracts/offers";
import type { SearchFilters } from "@skyward/contracts/search";
import { IconCalendarDollar, IconPlane } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { LoadFailedAlert } from "../../../components/load-failed.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { afterPaint } from "../../../lib/after-paint.ts";
import { useSession } from "../../../lib/session.ts";
import { restoredResultQueryOptions } from "../api/restore-result.ts";
import { searchOffers } from "../api/search-offers.ts";
import { searchChecks } from "../load-checks.ts";
import type { LastResult } from "../machines/search.machine.ts";
import { passengerTotal } from "../machines/search-form.ts";
import { useSearchMachine } from "../machines/use-search-machine.ts";
import {
  formValuesOf,
  hasFilters,
  journeyDates,
  paramsFromRequest,
  routeOf,
  type SearchParams,
  searchKey,
} from "../url-state.ts";
import { setClientView, useClientView } from "./client-view.ts";
import { CompanyPicker } from "./company-picker.tsx";
import {
  activeFilterKeys,
  familiesOf,
  filterOptions,
  type SortOrder,
  sortOptions,
} from "./filter-options.ts";
import { Placeholder } from "./placeholder.tsx";
import { RecentSearches } from "./recent-searches.tsx";
import { SearchForm } from "./search-form.tsx";
import { TextSearch } from "./text-search.tsx";

const resultParts = () => import("./results-parts.ts");
const RecentSearchesDialog = lazy(() => import("./recent-searches-dialog.tsx"));
const ActiveFilters = lazy(() => resultParts().then((parts) => ({ default: parts.ActiveFilters })));
const BookingForm = lazy(() => resultParts().then((parts) => ({ default: parts.BookingForm })));
const FareCalendarPanel = lazy(() => resultParts().then((parts) => ({ default: parts.FareCalendarPanel })));
const FiltersPanel = lazy(() => resultParts().then((parts) => ({ default: parts.FiltersPanel })));
const OfferDetailsModal = lazy(() => resultParts().then((parts) => ({ default: parts.OfferDetailsModal })));
const ResultsLayout = lazy(() => resultParts().then((parts) => ({ default: parts.ResultsLayout })));
const ResultsList = lazy(() => resultParts().then((parts) => ({ default: parts.ResultsList })));

/** While the results' code arrives (it usually came with the search). */
function ResultsSkeleton() {
  return (
    <Stack gap="sm" aria-busy>
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} h={128} radius="md" />
      ))}
    </Stack>
  );
}

function SearchProgress({ request }: { request: JourneySearchRequest }) {
  const { t } = useTranslation("search");
  return (
    <Stack gap="sm" role="status" aria-live="polite">
      <Paper withBorder radius="md" p="md">
        <Group gap="sm" mb="xs">
          <ThemeIcon variant="light" radius="xl">
            <IconPlane size={15} />
          </ThemeIcon>
          <div>
            <Text fw={600} fz="sm">
              {t("progress.title")}
            </Text>
            <Text fz="xs" c="dimmed">
              {t("progress.text", { route: routeOf(request) })}
            </Text>
          </div>
        </Group>
        <Progress value={100} animated striped size="sm" aria-hidden />
      </Paper>
      {[0, 1, 2].map((row) => (
        <Skeleton key={row} h={128} radius="md" />
      ))}
    </Stack>
  );
}

/**
 * A search that failed: why, with a Retry of the same search (the form above keeps it), and the results shown
 * before it, still open to choose from (a fare chosen there reopens that search's result).
 */
function SearchFailed({
  messages,
  onRetry,
  last,
  onSelect,
  onDetails,
}: {
  messages: string[];
  onRetry: () => void;
  last: LastResult | null;
  onSelect: (last: LastResult, fareId: string) => void;
  onDetails: (fareId: string) => void;
}) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const sorted = useMemo(() => (last ? sortOptions(last.result.origin_destinations, "price") : []), [last]);
  const families = useMemo(() => (last ? familiesOf(last.unfiltered) : []), [last]);
  const cheapest = useMemo(() => (last ? (filterOptions(last.unfiltered).price?.min ?? null) : null), [last]);
  return (
    <Stack gap="sm" data-testid="search-failed">
      <LoadFailedAlert title={t("failed.title")} messages={messages} onRetry={onRetry} />
      {last ? (
        <Stack gap="sm" aria-labelledby="last-results-heading" component="section">
          <Text fw={650} id="last-results-heading">
            {t("failed.last_results", {
              route: routeOf(last.request),
              dates: journeyDates(last.request)
                .map((day) => formats.day(day))
                .join(" – "),
            })}
          </Text>
          <Suspense fallback={<ResultsSkeleton />}>
            <ResultsList
              resultId={last.result.id}
              options={sorted}
              passengers={passengerTotal(last.request.passengers)}
              cheapest={cheapest}
              families={families}
              onSelect={(fareId) => onSelect(last, fareId)}
              onDetails={onDetails}
            />
          </Suspense>
        </Stack>
      ) : null}
    </Stack>
  );
}

/**
 * The results' sort: the chosen segment shows at once (a render of this control only), and the page re-sorts after
 * that paint (issue 27's interaction budget: the page with 300 offers re-renders in a task of its own).
 */
const SortControl = memo(function SortControl({
  value,
  onChange,
}: {
  value: SortOrder;
  onChange: (order: SortOrder) => void;
}) {
  const { t } = useTranslation("search");
  const [shown, setShown] = useState(value);
  const [followed, setFollowed] = useState(value);
  if (followed !== value) {
    setFollowed(value);
    setShown(value);
  }
  return (
    <SegmentedControl
      size="xs"
      value={shown}
      onChange={(next) => {
        setShown(next as SortOrder);
        afterPaint(() => onChange(next as SortOrder));
      }}
      aria-label={t("results.sort.label")}
      data={(["price", "duration", "departure"] as const).map((order) => ({
        value: order,
        label: t(`results.sort.${order}`),
      }))}
    />
  );
});

export interface SearchPageProps {
  /** The page's address (validated by the route): the search, its sort and filters, the open booking form. */
  params?: SearchParams;
  /** Changes the address; `replace` for what only mirrors the page (a result's id), a new entry otherwise. */
  onParams?: (next: SearchParams, options: { replace: boolean }) => void;
  /** Administrators and support book for a company they choose (the address's `company`): no search without it. */
  choosesCompany?: boolean;
}

const same = (a: SearchParams, b: SearchParams) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Flight search: the form, the progress, the filtered results and, for a chosen fare, the booking form. The address
 * holds the search (so back, reload and links work): a new search or a chosen fare is a new history entry.
 */
export function SearchPage({ params = {}, onParams = () => {}, choosesCompany = false }: SearchPageProps) {
  const { t } = useTranslation("search");
  const { t: tp } = useTranslation("pricing");
  const formats = useFormats();
  const clientView = useClientView();
  const queryClient = useQueryClient();
  // The company a search is made for, read when it starts (a choice sets it before asking for a new search).
  const company = choosesCompany ? params.company : undefined;
  const companyRef = useRef(company);
  companyRef.current = company;
  // A restored result comes through the query cache: the route's loader has usually asked for it already.
  const [snapshot, send] = useSearchMachine(() => ({
    searchOffers: (input) => searchOffers(input, companyRef.current),
    restoreResult: (input) =>
      queryClient.fetchQuery(restoredResultQueryOptions(input.searchResultId, input.filters)),
  }));
  const [detailsFareId, setDetailsFareId] = useState<string | null>(null);
  // The address and the recent searches are read with zod, loaded only when there is one to read (the route waits for
  // them then): an empty form on a first visit loads none (load-checks.ts). A search's submit loads them first.
  const checks = searchChecks();
  // Each user's own recent searches (kept in this browser under the user's id).
  const userId = useSession()?.account.skyward_id ?? "";
  const [recent, setRecent] = useState(() => checks?.recentSearches(userId) ?? []);
  const [recentOwner, setRecentOwner] = useState(userId);
  if (recentOwner !== userId) {
    setRecentOwner(userId);
    setRecent(checks?.recentSearches(userId) ?? []);
  }
  const [recentOpen, setRecentOpen] = useState(false);
  const { request, result, unfiltered, filters, traceId, selectedFareId, failure, last } = snapshot.context;
  // A sort the agent just chose shows at once; the address (a navigation, re-rendering the route) follows after the
  // click's paint (issue 27's interaction budget).
  const [chosenSort, setChosenSort] = useState<SortOrder | null>(null);
  const addressSort: SortOrder = params.sort ?? "price";
  const sort: SortOrder = chosenSort ?? addressSort;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address caught up (or changed): it says the sort again
  useEffect(() => setChosenSort(null), [addressSort]);
  const paramsRef = useRef(params);
  paramsRef.current = params;

  const urlRequest = useMemo(() => checks?.requestFromParams(params) ?? null, [checks, params]);
  const urlKey = searchKey(urlRequest);
  const machineKey = searchKey(request);
  const inResult = snapshot.matches("result");
  const inBooking = snapshot.matches({ result: "booking" });

  // The results' code loads beside the search itself, not after it.
  useEffect(() => {
    if (request || urlRequest) void resultParts();
  }, [request, urlRequest]);

  // Without the company it is for, an administrator's search waits (the picker asks for it).
  const companyMissing = choosesCompany && !company;
  // Address -> page: a search the address names that the page does not show yet (a load, back, a link).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the address's search (or its company arriving) starts one
  useEffect(() => {
    if (!urlRequest || urlKey === machineKey || companyMissing) return;
    if (params.result)
      send({
        type: "search.restore",
        request: urlRequest,
        searchResultId: params.result,
        filters: params.filters ?? {},
        fareId: params.fare ?? null,
      });
    else {
      send({ type: "search.submit", request: urlRequest });
      if (checks) setRecent(checks.rememberSearch(urlRequest, userId));
    }
  }, [urlKey, companyMissing]);

  // Page -> address: the result's id and filters, so a reload shows the same offers.
  // biome-ignore lint/correctness/useExhaustiveDependencies: mirrors the result, not each render's params object
  useEffect(() => {
    if (!inResult || !request || !unfiltered || urlKey !== machineKey) return;
    const { filters: _filters, result: _result, ...rest } = params;
    const next: SearchParams = {
      ...rest,
      ...(hasFilters(filters) ? { filters } : {}),
      result: unfiltered.id,
    };
    if (!same(next, params)) onParams(next, { replace: true });
  }, [inResult, machineKey, urlKey, unfiltered?.id, filters]);

  // Address -> page: the booking form is open exactly when the address names its fare.
  useEffect(() => {
    if (!inResult || urlKey !== machineKey) return;
    if (params.fare && params.fare !== selectedFareId) send({ type: "fare.select", fareId: params.fare });
    else if (!params.fare && inBooking) send({ type: "booking.close" });
  }, [inResult, inBooking, params.fare, selectedFareId, urlKey, machineKey, send]);

  // A new search keeps the company chosen.
  const addressOf = (next: JourneySearchRequest): SearchParams => ({
    ...paramsFromRequest(next),
    ...(params.company ? { company: params.company } : {}),
  });
  const search = (next: JourneySearchRequest) => {
    if (searchKey(next) === machineKey && !snapshot.matches("start") && !companyMissing)
      send({ type: "search.submit", request: next });
    else onParams(addressOf(next), { replace: false });
  };
  // Another company: the offers shown were priced for the previous one, so the search is made again for it.
  const chooseCompany = (companyId: string) => {
    if (companyId === params.company) return;
    const { result: _result, fare: _fare, filters: _filters, ...rest } = params;
    companyRef.current = companyId;
    onParams({ ...rest, company: companyId }, { replace: false });
    if (urlRequest && urlKey === machineKey && !snapshot.matches("start"))
      send({ type: "search.submit", request: urlRequest });
  };
  const applyFilters = useCallback(
    (next: SearchFilters) => send({ type: "filter.apply", filters: next }),
    [send],
  );
  const withoutFare = () => {
    const { fare: _fare, ...rest } = params;
    return rest;
  };
  const selectFare = (fareId: string) => onParams({ ...withoutFare(), fare: fareId }, { replace: false });
  // The cards get a choice that stays the same function (they are memoized), calling this render's.
  const selectFareRef = useRef(selectFare);
  selectFareRef.current = selectFare;
  const selectFareStable = useCallback((fareId: string) => selectFareRef.current(fareId), []);
  // The sort control answers the click itself; the page follows after its paint (SortControl).
  const setSort = (order: SortOrder) => {
    setChosenSort(order);
    afterPaint(() => {
      const { sort: _sort, ...rest } = paramsRef.current;
      onParams(order === "price" ? rest : { ...rest, sort: order }, { replace: true });
    });
  };

  const setSortRef = useRef(setSort);
  setSortRef.current = setSort;
  const setSortStable = useCallback((order: SortOrder) => setSortRef.current(order), []);

  // The fare calendar is for one-way and round trips.
  const oneOrRoundTrip = request && !isMultiCity(request) ? request : null;
  const options = useMemo(() => (unfiltered ? filterOptions(unfiltered) : null), [unfiltered]);
  const families = useMemo(() => (unfiltered ? familiesOf(unfiltered) : []), [unfiltered]);
  // The list follows a new sort or filtered answer in a render of its own (interruptible), after the click's paint.
  const listedResult = useDeferredValue(result);
  const listedSort = useDeferredValue(sort);
  const sorted = useMemo(
    () => (listedResult ? sortOptions(listedResult.origin_destinations, listedSort) : []),
    [listedResult, listedSort],
  );
  const selected = useMemo(() => {
    if (!selectedFareId || !result) return null;
    for (const option of result.origin_destinations) {
      const fare = option.fares.find((f) => f.fare_id === selectedFareId);
      if (fare) return { option, fare };
    }
    return null;
  }, [result, selectedFareId]);

  const cheapest = options?.price?.min ?? null;
  const booking = inBooking && selected !== null && request !== null;
  const filtering = snapshot.matches({ result: "filtering" });
  const seats = request ? passengerTotal(request.passengers) : 1;
  const activeFilters = activeFilterKeys(filters);

  return (
    <Container fluid px="lg" py="md" maw={1480}>
      <Stack gap="md">
        <Box hidden={booking}>
          <Stack gap="sm">
            <Title order={1} fz={22}>
              {t("title")}
            </Title>
            {choosesCompany ? (
              <CompanyPicker
                value={params.company}
                onChange={chooseCompany}
                missing={companyMissing && urlRequest !== null}
              />
            ) : null}
            <TextSearch
              onSearch={search}
              resultId={snapshot.matches({ result: "browsing" }) ? (unfiltered?.id ?? null) : null}
              onApplyFilters={applyFilters}
            />
            {/* Alt+R anywhere in the form, its fields too: the recent searches, one to search again. */}
            <Box
              data-shortcut="new-search"
              onKeyDown={(event) => {
                if (!event.altKey || event.code !== "KeyR") return;
                event.preventDefault();
                setRecentOpen(true);
              }}
            >
              <SearchForm
                key={urlKey}
                initial={urlRequest ? formValuesOf(urlRequest) : undefined}
                searching={snapshot.matches("searching") || snapshot.matches("restoring")}
                onSearch={search}
              />
            </Box>
            {/* The next Tab after the search button: straight to the first fare, past the filters. */}
            {snapshot.matches({ result: "browsing" }) && sorted.length > 0 ? (
              <button
                type="button"
                className="skyward-skip-link"
                onClick={() =>
                  document.querySelector<HTMLElement>("[data-fare-id] [data-shortcut-open]")?.focus()
                }
              >
                {t("skip_to_first_fare")}
              </button>
            ) : null}
          </Stack>
        </Box>

        {(snapshot.matches("searching") || snapshot.matches("restoring")) && request ? (
          <SearchProgress request={request} />
        ) : null}

        {snapshot.matches("failed") && request ? (
          <SearchFailed
            messages={failure ?? []}
            onRetry={() => send({ type: "search.submit", request })}
            last={last}
            onSelect={(lastResult, fareId) =>
              onParams(
                { ...addressOf(lastResult.request), result: lastResult.unfiltered.id, fare: fareId },
                { replace: false },
              )
            }
            onDetails={setDetailsFareId}
          />
        ) : null}

        {snapshot.matches("start") ? (
          <>
            <RecentSearches
              searches={recent}
              onOpen={(chosen) => onParams(addressOf(chosen), { replace: false })}
            />
            <Placeholder title={t("empty.title")} text={t("empty.text")} />
          </>
        ) : null}

        {booking && selected && request && result ? (
          <Suspense fallback={<ResultsSkeleton />}>
            <BookingForm
              key={selected.fare.fare_id}
              searchResultId={result.id}
              option={selected.option}
              fare={selected.fare}
              counts={request.passengers}
              onBack={() => onParams(withoutFare(), { replace: false })}
            />
          </Suspense>
        ) : null}

        {snapshot.matches("result") && !booking && result && options && request ? (
          <Suspense fallback={<ResultsSkeleton />}>
            <ResultsLayout
              applied={activeFilters.length}
              filters={
                <FiltersPanel
                  options={options}
                  filters={filters}
                  currency={result.currency}
                  busy={filtering}
                  onApply={(next) => send({ type: "filter.apply", filters: next })}
                  onRemove={(keys) => send({ type: "filter.remove", keys })}
                />
              }
            >
              <Stack gap="sm" aria-busy={filtering}>
                <Group justify="space-between" wrap="wrap">
                  <Stack gap={0}>
                    <Text fw={650} data-testid="results-count">
                      {t("results.count", { count: result.origin_destinations.length })}
                      {activeFilters.length > 0 && unfiltered
                        ? ` ${t("results.of_total", { total: unfiltered.origin_destinations.length })}`
                        : ""}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {routeOf(request)} ·{" "}
                      {journeyDates(request)
                        .map((day) => formats.day(day))
                        .join(" – ")}{" "}
                      · {t("passengers.summary", { count: seats })} · {t(`cabins.${request.cabin}`)}
                    </Text>
                  </Stack>
                  <Group gap="sm" wrap="wrap">
                    {traceId ? (
                      <Text fz={10} c="dimmed" ff="monospace" title={t("results.trace")}>
                        {traceId.slice(0, 8)}
                      </Text>
                    ) : null}
                    {oneOrRoundTrip ? (
                      <Button
                        size="compact-xs"
                        variant={params.calendar === "open" ? "light" : "subtle"}
                        leftSection={<IconCalendarDollar size={14} aria-hidden />}
                        aria-pressed={params.calendar === "open"}
                        onClick={() => {
                          const { calendar: _calendar, ...rest } = params;
                          onParams(params.calendar === "open" ? rest : { ...rest, calendar: "open" }, {
                            replace: true,
                          });
                        }}
                      >
                        {t("calendar.open")}
                      </Button>
                    ) : null}
                    <Switch
                      size="xs"
                      label={tp("client_view")}
                      title={tp("client_view_hint")}
                      checked={clientView}
                      onChange={(event) => setClientView(event.currentTarget.checked)}
                    />
                    <SortControl value={sort} onChange={setSortStable} />
                  </Group>
                </Group>
                <ActiveFilters
                  filters={filters}
                  currency={result.currency}
                  busy={filtering}
                  onRemove={(keys) => send({ type: "filter.remove", keys })}
                />
                {oneOrRoundTrip && params.calendar === "open" ? (
                  <FareCalendarPanel
                    request={oneOrRoundTrip}
                    companyId={params.company}
                    onPick={(departure, ret) => {
                      const { return_date: _return, ...oneWay } = oneOrRoundTrip;
                      onParams(
                        {
                          ...addressOf({
                            ...oneWay,
                            departure_date: departure,
                            ...(ret ? { return_date: ret } : {}),
                          }),
                          calendar: "open",
                        },
                        { replace: false },
                      );
                    }}
                  />
                ) : null}
                {sorted.length === 0 ? (
                  <Placeholder
                    title={t("no_results.title")}
                    text={t("no_results.text")}
                    action={
                      activeFilters.length > 0 ? (
                        <Button
                          variant="light"
                          size="xs"
                          mt="xs"
                          onClick={() => send({ type: "filter.remove", keys: activeFilters })}
                        >
                          {t("no_results.clear_filters")}
                        </Button>
                      ) : undefined
                    }
                  />
                ) : (
                  <Stack gap="sm" style={{ opacity: filtering ? 0.55 : 1, transition: "opacity 120ms" }}>
                    <ResultsList
                      resultId={unfiltered?.id ?? result.id}
                      options={sorted}
                      passengers={seats}
                      cheapest={cheapest}
                      families={families}
                      onSelect={selectFareStable}
                      onDetails={setDetailsFareId}
                    />
                  </Stack>
                )}
              </Stack>
            </ResultsLayout>
          </Suspense>
        ) : null}

        {recentOpen ? (
          <Suspense fallback={null}>
            <RecentSearchesDialog
              searches={recent}
              onClose={() => setRecentOpen(false)}
              onPick={(chosen) => {
                setRecentOpen(false);
                search(chosen);
              }}
            />
          </Suspense>
        ) : null}

        {result || last ? (
          <Suspense fallback={null}>
            <OfferDetailsModal
              fareId={detailsFareId}
              searchResultId={result?.id ?? last?.unfiltered.id ?? ""}
              onClose={() => setDetailsFareId(null)}
              onBook={(fareId) => {
                setDetailsFareId(null);
                selectFare(fareId);
              }}
            />
          </Suspense>
        ) : null}
      </Stack>
    </Container>
  );
}
