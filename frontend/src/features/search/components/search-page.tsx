import {
  Box,
  Button,
  Center,
  Container,
  Group,
  Paper,
  Progress,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import type { SearchRequest } from "@skyward/contracts/offers";
import { IconPlane } from "@tabler/icons-react";
import { useMachine } from "@xstate/react";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { TravelDatesProvider } from "../../../components/travel/date-field.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { searchMachine } from "../machines/search.machine.ts";
import { passengerTotal } from "../machines/search-form.ts";
import { ActiveFilters } from "./active-filters.tsx";
import { BookingForm } from "./booking-form.tsx";
import {
  activeFilterKeys,
  familiesOf,
  filterOptions,
  type SortOrder,
  sortOptions,
} from "./filter-options.ts";
import { FiltersPanel } from "./filters-panel.tsx";
import { ItineraryCard } from "./itinerary-card.tsx";
import { OfferDetailsModal } from "./offer-details-modal.tsx";
import { SearchForm } from "./search-form.tsx";

function routeOf(request: SearchRequest): string {
  return request.return_date
    ? `${request.origin} ⇄ ${request.destination}`
    : `${request.origin} → ${request.destination}`;
}

function SearchProgress({ request }: { request: SearchRequest }) {
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

function Placeholder({ title, text, action }: { title: string; text: string; action?: ReactNode }) {
  return (
    <Paper withBorder radius="md" py={56} px="md">
      <Center>
        <Stack align="center" gap={6} maw={420} ta="center">
          <ThemeIcon variant="light" size={42} radius="xl">
            <IconPlane size={20} />
          </ThemeIcon>
          <Text fw={600}>{title}</Text>
          <Text fz="sm" c="dimmed">
            {text}
          </Text>
          {action}
        </Stack>
      </Center>
    </Paper>
  );
}

/** Flight search: the form, the progress, the filtered results and, for a chosen fare, the booking form. */
export function SearchPage() {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const [snapshot, send] = useMachine(searchMachine);
  const [sort, setSort] = useState<SortOrder>("price");
  const [detailsFareId, setDetailsFareId] = useState<string | null>(null);
  const { request, result, unfiltered, filters, traceId, selectedFareId } = snapshot.context;

  const options = useMemo(() => (unfiltered ? filterOptions(unfiltered) : null), [unfiltered]);
  const families = useMemo(() => (unfiltered ? familiesOf(unfiltered) : []), [unfiltered]);
  const sorted = useMemo(() => (result ? sortOptions(result.origin_destinations, sort) : []), [result, sort]);
  const selected = useMemo(() => {
    if (!selectedFareId || !result) return null;
    for (const option of result.origin_destinations) {
      const fare = option.fares.find((f) => f.fare_id === selectedFareId);
      if (fare) return { option, fare };
    }
    return null;
  }, [result, selectedFareId]);

  const cheapest = options?.price?.min ?? null;
  const booking = snapshot.matches({ result: "booking" }) && selected !== null && request !== null;
  const filtering = snapshot.matches({ result: "filtering" });
  const seats = request ? passengerTotal(request.passengers) : 1;
  const activeFilters = activeFilterKeys(filters);

  return (
    <TravelDatesProvider>
      <Container fluid px="lg" py="md" maw={1480}>
        <Stack gap="md">
          <Box hidden={booking}>
            <Stack gap="sm">
              <Title order={1} fz={22}>
                {t("title")}
              </Title>
              <SearchForm
                searching={snapshot.matches("searching")}
                onSearch={(next) => send({ type: "search.submit", request: next })}
              />
            </Stack>
          </Box>

          {snapshot.matches("searching") && request ? <SearchProgress request={request} /> : null}

          {snapshot.matches("start") ? <Placeholder title={t("empty.title")} text={t("empty.text")} /> : null}

          {booking && selected && request && result ? (
            <BookingForm
              key={selected.fare.fare_id}
              searchResultId={result.id}
              option={selected.option}
              fare={selected.fare}
              counts={request.passengers}
              onBack={() => send({ type: "booking.close" })}
            />
          ) : null}

          {snapshot.matches("result") && !booking && result && options && request ? (
            <Box
              style={{
                display: "grid",
                gridTemplateColumns: "248px minmax(0, 1fr)",
                gap: 16,
                alignItems: "start",
              }}
            >
              <FiltersPanel
                options={options}
                filters={filters}
                currency={result.currency}
                busy={filtering}
                onApply={(next) => send({ type: "filter.apply", filters: next })}
                onRemove={(keys) => send({ type: "filter.remove", keys })}
              />
              <Stack gap="sm" aria-busy={filtering}>
                <Group justify="space-between" wrap="nowrap">
                  <Stack gap={0}>
                    <Text fw={650} data-testid="results-count">
                      {t("results.count", { count: result.origin_destinations.length })}
                      {activeFilters.length > 0 && unfiltered
                        ? ` ${t("results.of_total", { total: unfiltered.origin_destinations.length })}`
                        : ""}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {routeOf(request)} · {formats.day(request.departure_date)}
                      {request.return_date ? ` – ${formats.day(request.return_date)}` : ""} ·{" "}
                      {t("passengers.summary", { count: seats })} · {t(`cabins.${request.cabin}`)}
                    </Text>
                  </Stack>
                  <Group gap="sm" wrap="nowrap">
                    {traceId ? (
                      <Text fz={10} c="dimmed" ff="monospace" title={t("results.trace")}>
                        {traceId.slice(0, 8)}
                      </Text>
                    ) : null}
                    <SegmentedControl
                      size="xs"
                      value={sort}
                      onChange={(value) => setSort(value as SortOrder)}
                      aria-label={t("results.sort.label")}
                      data={(["price", "duration", "departure"] as const).map((order) => ({
                        value: order,
                        label: t(`results.sort.${order}`),
                      }))}
                    />
                  </Group>
                </Group>
                <ActiveFilters
                  filters={filters}
                  currency={result.currency}
                  busy={filtering}
                  onRemove={(keys) => send({ type: "filter.remove", keys })}
                />
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
                    {sorted.map((option) => (
                      <ItineraryCard
                        key={option.id}
                        option={option}
                        passengers={seats}
                        cheapest={cheapest}
                        families={families}
                        onSelect={(fareId) => send({ type: "fare.select", fareId })}
                        onDetails={setDetailsFareId}
                      />
                    ))}
                  </Stack>
                )}
              </Stack>
            </Box>
          ) : null}

          {result ? (
            <OfferDetailsModal
              fareId={detailsFareId}
              searchResultId={result.id}
              onClose={() => setDetailsFareId(null)}
              onBook={(fareId) => {
                setDetailsFareId(null);
                send({ type: "fare.select", fareId });
              }}
            />
          ) : null}
        </Stack>
      </Container>
    </TravelDatesProvider>
  );
}
