import {
  Anchor,
  Checkbox,
  type CheckboxProps,
  Divider,
  Group,
  Loader,
  Paper,
  RangeSlider,
  Stack,
  Switch,
  type SwitchProps,
  Text,
  Title,
} from "@mantine/core";
import type { SearchFilters, SliceFilter } from "@skyward/contracts/search";
import { IconFilter } from "@tabler/icons-react";
import { type ChangeEvent, type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { afterPaint } from "../../../lib/after-paint.ts";
import { clockTime } from "../../../lib/date-format.ts";
import { majorUnit } from "../../../lib/money.ts";
import type { FilterKey } from "../api/search-offers.ts";
import {
  activeFilterKeys,
  type FilterOptions,
  stopsFromFilter,
  stopsToFilter,
  withSliceFilter,
} from "./filter-options.ts";

const DAY = 24 * 60;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={8} component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Text
        component="legend"
        fz="xs"
        fw={700}
        c="var(--mantine-color-text)"
        tt="uppercase"
        style={{ letterSpacing: "0.04em" }}
        mb={6}
      >
        {title}
      </Text>
      {children}
    </Stack>
  );
}

/**
 * A checkbox (or a switch) that shows its own tick at once, a render of itself alone, and tells the panel after that
 * paint; it follows the panel's value when that changes (issue 27's interaction budget: the page around it holds
 * 300 offers).
 */
function Instant({
  as = "checkbox",
  checked,
  onToggle,
  ...props
}: Omit<CheckboxProps, "checked" | "onChange"> & {
  as?: "checkbox" | "switch";
  checked: boolean;
  onToggle: (checked: boolean) => void;
}) {
  const [shown, setShown] = useState(checked);
  const [followed, setFollowed] = useState(checked);
  if (followed !== checked) {
    setFollowed(checked);
    setShown(checked);
  }
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const next = event.currentTarget.checked;
    setShown(next);
    afterPaint(() => onToggle(next));
  };
  return as === "switch" ? (
    <Switch {...(props as SwitchProps)} checked={shown} onChange={onChange} />
  ) : (
    <Checkbox {...props} checked={shown} onChange={onChange} />
  );
}

/** A range slider that sends its value when let go, and follows the server's filters otherwise. */
function Range({
  label,
  min,
  max,
  step,
  value,
  format,
  disabled,
  onCommit,
}: {
  label: string;
  min: number;
  max: number;
  step: number;
  value: [number, number];
  format: (value: number) => string;
  disabled: boolean;
  onCommit: (value: [number, number]) => void;
}) {
  const [local, setLocal] = useState<[number, number]>(value);
  useEffect(() => setLocal(value), [value[0], value[1]]);
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text fz="xs" c="dimmed">
          {format(local[0])}
        </Text>
        <Text fz="xs" c="dimmed">
          {format(local[1])}
        </Text>
      </Group>
      <RangeSlider
        aria-label={label}
        size="sm"
        min={min}
        max={max}
        step={step}
        minRange={step}
        value={local}
        onChange={setLocal}
        onChangeEnd={(end) => afterPaint(() => onCommit(end))}
        label={format}
        disabled={disabled}
        thumbFromLabel={`${label} ↓`}
        thumbToLabel={`${label} ↑`}
      />
    </Stack>
  );
}

/**
 * The filters of a result (stops, airlines, times, price, baggage), each kept by the server. A filter the agent just
 * set shows at once (a render of this panel only); the page asks the server after that paint, and the panel follows
 * the server's filters from then on (issue 27's interaction budget, with 300 offers on the page).
 */
export function FiltersPanel({
  options,
  filters: applied,
  currency,
  busy,
  onApply,
  onRemove,
}: {
  options: FilterOptions;
  filters: SearchFilters;
  currency: string;
  busy: boolean;
  onApply: (filters: SearchFilters) => void;
  onRemove: (keys: FilterKey[]) => void;
}) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const [pending, setPending] = useState<{ applied: SearchFilters; shown: SearchFilters } | null>(null);
  const filters = pending?.applied === applied ? pending.shown : applied;
  const active = activeFilterKeys(filters);
  const stops = stopsFromFilter(filters.stops);
  const carriers = filters.carriers ?? [];

  const setOrRemove = <K extends FilterKey>(key: K, value: SearchFilters[K] | undefined) => {
    const { [key]: _old, ...rest } = filters;
    setPending({ applied, shown: value === undefined ? rest : { ...rest, [key]: value } });
    if (value === undefined) onRemove([key]);
    else onApply({ [key]: value });
  };

  const timeWindow = (key: "departure_time" | "arrival_time"): [number, number] => [
    filters[key]?.from ?? 0,
    filters[key]?.to ?? DAY,
  ];
  const commitTime =
    (key: "departure_time" | "arrival_time") =>
    ([from, to]: [number, number]) =>
      setOrRemove(key, from === 0 && to === DAY ? undefined : { from, to });

  const step = majorUnit(currency) * 100;
  const price = options.price;
  const priceRange: [number, number] | null = price
    ? [Math.floor(price.min / step) * step, Math.ceil(price.max / step) * step]
    : null;

  return (
    <Paper withBorder radius="md" p="md" component="aside" aria-label={t("filters.title")}>
      <Group justify="space-between" mb="md">
        <Group gap={6}>
          <IconFilter size={15} />
          <Title order={2} fz={15}>
            {t("filters.title")}
          </Title>
          {busy ? <Loader size={12} /> : null}
        </Group>
        {active.length > 0 ? (
          <Anchor component="button" type="button" fz="xs" onClick={() => onRemove(active)} disabled={busy}>
            {t("filters.reset")}
          </Anchor>
        ) : null}
      </Group>
      <Stack gap="md">
        {options.stops.length > 1 ? (
          <Section title={t("filters.stops")}>
            {options.stops.map((stop) => (
              <Instant
                key={stop}
                size="xs"
                label={t(`filters.stops_${stop}` as "filters.stops_0")}
                checked={stops.includes(stop)}
                disabled={busy}
                onToggle={(checked) => {
                  const next = checked ? [...stops, stop] : stops.filter((s) => s !== stop);
                  setOrRemove("stops", next.length ? stopsToFilter(next) : undefined);
                }}
              />
            ))}
          </Section>
        ) : null}
        <Section title={t("filters.carriers")}>
          {options.carriers.map((carrier) => (
            <Instant
              key={carrier.code}
              size="xs"
              disabled={busy}
              checked={carriers.includes(carrier.code)}
              onToggle={(checked) => {
                const next = checked
                  ? [...carriers, carrier.code]
                  : carriers.filter((code) => code !== carrier.code);
                setOrRemove("carriers", next.length ? next : undefined);
              }}
              label={
                <Group gap={6} wrap="nowrap" justify="space-between" w={184}>
                  <Text fz="xs" lh={1.3}>
                    {carrier.name}{" "}
                    <Text span fz="xs" c="dimmed">
                      {carrier.code}
                    </Text>
                  </Text>
                  {carrier.from !== null ? (
                    <Text fz={11} c="dimmed" style={{ whiteSpace: "nowrap" }}>
                      {formats.money({ amount: carrier.from, currency }, { whole: true })}
                    </Text>
                  ) : null}
                </Group>
              }
              aria-label={`${carrier.name} ${carrier.code}`}
            />
          ))}
        </Section>
        <Divider />
        <Section title={t("filters.departure_time")}>
          <Range
            label={t("filters.departure_time")}
            min={0}
            max={DAY}
            step={30}
            value={timeWindow("departure_time")}
            format={clockTime}
            disabled={busy}
            onCommit={commitTime("departure_time")}
          />
        </Section>
        <Section title={t("filters.arrival_time")}>
          <Range
            label={t("filters.arrival_time")}
            min={0}
            max={DAY}
            step={30}
            value={timeWindow("arrival_time")}
            format={clockTime}
            disabled={busy}
            onCommit={commitTime("arrival_time")}
          />
        </Section>
        {priceRange && priceRange[1] > priceRange[0] ? (
          <Section title={t("filters.price")}>
            <Range
              label={t("filters.price")}
              min={priceRange[0]}
              max={priceRange[1]}
              step={step}
              value={[filters.price?.min ?? priceRange[0], filters.price?.max ?? priceRange[1]]}
              format={(amount) => formats.money({ amount, currency }, { whole: true })}
              disabled={busy}
              onCommit={([min, max]) =>
                setOrRemove(
                  "price",
                  min <= priceRange[0] && max >= priceRange[1]
                    ? undefined
                    : { ...(min > priceRange[0] ? { min } : {}), ...(max < priceRange[1] ? { max } : {}) },
                )
              }
            />
          </Section>
        ) : null}
        {options.slices.map((slice) => {
          const own = filters.slices?.find((f) => f.slice === slice.slice);
          const ownStops = stopsFromFilter(own?.stops);
          const ownCarriers = own?.carriers ?? [];
          // As with stops: a carrier the slice's filter names stays choosable on a narrowed result.
          const carrierChoices = [
            ...slice.carriers,
            ...ownCarriers
              .filter((code) => !slice.carriers.some((c) => c.code === code))
              .map((code) => ({ code, name: code })),
          ];
          // A result restored with its filters has only what they let through: a set filter stays choosable.
          const stopChoices = [...new Set([...slice.stops, ...ownStops])].sort();
          const setSlice = (change: Omit<Partial<SliceFilter>, "slice">) => {
            const next = withSliceFilter(filters.slices, slice.slice, change);
            setOrRemove("slices", next.length ? next : undefined);
          };
          const title = t("filters.slice_title", {
            number: slice.slice + 1,
            from: slice.from,
            to: slice.to,
          });
          return (
            <Stack key={slice.slice} gap="xs" data-testid="slice-filters" data-slice={slice.slice}>
              <Divider />
              <Section title={title}>
                {stopChoices.length > 1 || ownStops.length > 0
                  ? stopChoices.map((stop) => (
                      <Instant
                        key={stop}
                        size="xs"
                        label={t(`filters.stops_${stop}` as "filters.stops_0")}
                        aria-label={`${title}: ${t(`filters.stops_${stop}` as "filters.stops_0")}`}
                        checked={ownStops.includes(stop)}
                        disabled={busy}
                        onToggle={(checked) => {
                          const picked = checked ? [...ownStops, stop] : ownStops.filter((s) => s !== stop);
                          setSlice({ stops: picked.length ? stopsToFilter(picked) : undefined });
                        }}
                      />
                    ))
                  : null}
                {carrierChoices.length > 1 || ownCarriers.length > 0 ? (
                  <Stack gap={4} data-testid="slice-carriers">
                    <Text fz="xs" c="dimmed">
                      {t("filters.carriers")}
                    </Text>
                    {carrierChoices.map((carrier) => (
                      <Checkbox
                        key={carrier.code}
                        size="xs"
                        label={`${carrier.name} ${carrier.code}`}
                        aria-label={`${title}: ${carrier.name} ${carrier.code}`}
                        checked={ownCarriers.includes(carrier.code)}
                        disabled={busy}
                        onChange={(event) => {
                          const picked = event.currentTarget.checked
                            ? [...ownCarriers, carrier.code]
                            : ownCarriers.filter((code) => code !== carrier.code);
                          setSlice({ carriers: picked.length ? picked : undefined });
                        }}
                      />
                    ))}
                  </Stack>
                ) : null}
                <Range
                  label={`${title}: ${t("filters.departure_time")}`}
                  min={0}
                  max={DAY}
                  step={30}
                  value={[own?.departure_time?.from ?? 0, own?.departure_time?.to ?? DAY]}
                  format={clockTime}
                  disabled={busy}
                  onCommit={([from, to]) =>
                    setSlice({ departure_time: from === 0 && to === DAY ? undefined : { from, to } })
                  }
                />
              </Section>
            </Stack>
          );
        })}
        <Divider />
        <Instant
          as="switch"
          size="sm"
          label={t("filters.checked_bag")}
          checked={filters.baggage === "checked"}
          disabled={busy}
          onToggle={(checked) => setOrRemove("baggage", checked ? "checked" : undefined)}
        />
      </Stack>
    </Paper>
  );
}
