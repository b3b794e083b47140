import { Button, Group, Text } from "@mantine/core";
import type { JourneySearchRequest } from "@skyward/contracts/offers";
import { IconHistory } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { passengerTotal } from "../machines/search-form.ts";
import { journeyDates, routeOf, searchKey } from "../url-state.ts";

/** The last searches made in this browser, one click to run again (each opens its own address). */
export function RecentSearches({
  searches,
  onOpen,
}: {
  searches: JourneySearchRequest[];
  onOpen: (search: JourneySearchRequest) => void;
}) {
  const { t } = useTranslation(["search-history", "search"]);
  const formats = useFormats();
  if (searches.length === 0) return null;
  return (
    <nav aria-labelledby="recent-searches-title" data-shortcut="recent-searches">
      <Group gap="xs" align="center">
        <Text id="recent-searches-title" fz="sm" fw={600} component="h2" m={0}>
          {t("search-history:recent")}
        </Text>
        {searches.map((search) => (
          <Button
            key={searchKey(search)}
            size="compact-sm"
            variant="default"
            leftSection={<IconHistory size={14} aria-hidden />}
            onClick={() => onOpen(search)}
          >
            {`${routeOf(search)} · ${journeyDates(search)
              .map((day) => formats.day(day))
              .join(" – ")} · ` +
              t("search:passengers.summary", { count: passengerTotal(search.passengers) })}
          </Button>
        ))}
      </Group>
    </nav>
  );
}
