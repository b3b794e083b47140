import { Group, Pill } from "@mantine/core";
import type { SearchFilters } from "@skyward/contracts/search";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { clockTime } from "../../../lib/date-format.ts";
import type { FilterKey } from "../api/search-offers.ts";
import { activeFilterKeys, stopsFromFilter } from "./filter-options.ts";

/** The filters in force, each removable on its own (`DELETE /search_results/{id}?filter_key=`). */
export function ActiveFilters({
  filters,
  currency,
  busy,
  onRemove,
}: {
  filters: SearchFilters;
  currency: string;
  busy: boolean;
  onRemove: (keys: FilterKey[]) => void;
}) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const keys = activeFilterKeys(filters);
  if (keys.length === 0) return null;

  const describe = (key: FilterKey): string => {
    switch (key) {
      case "stops":
        return stopsFromFilter(filters.stops)
          .map((stop) => t(`filters.stops_${stop}` as "filters.stops_0"))
          .join(", ");
      case "carriers":
        return (filters.carriers ?? []).join(", ");
      case "departure_time":
      case "arrival_time": {
        const window = filters[key];
        return window ? `${clockTime(window.from)}–${clockTime(window.to)}` : "";
      }
      case "price": {
        const money = (amount: number | undefined) =>
          amount === undefined ? "…" : formats.money({ amount, currency }, { whole: true });
        return `${money(filters.price?.min)} – ${money(filters.price?.max)}`;
      }
      case "baggage":
        return t("filters.checked_bag");
      case "slices":
        return (filters.slices ?? []).map((f) => t("filters.slice", { number: f.slice + 1 })).join(", ");
    }
  };
  const title: Record<FilterKey, string> = {
    stops: t("filters.stops"),
    carriers: t("filters.carriers"),
    departure_time: t("filters.departure_time"),
    arrival_time: t("filters.arrival_time"),
    price: t("filters.price"),
    baggage: t("filters.baggage"),
    slices: t("filters.slices"),
  };

  return (
    <Group gap={6} aria-label={t("filters.active")} role="list">
      {keys.map((key) => {
        const name = `${title[key]}: ${describe(key)}`;
        return (
          <Pill
            key={key}
            role="listitem"
            size="md"
            bg="var(--skyward-selected)"
            c="var(--mantine-color-anchor)"
            withRemoveButton={!busy}
            onRemove={() => onRemove([key])}
            removeButtonProps={{ "aria-label": t("filters.remove", { name }) }}
          >
            {name}
          </Pill>
        );
      })}
    </Group>
  );
}
