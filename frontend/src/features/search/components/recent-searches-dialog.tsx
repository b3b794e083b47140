import { Button, Stack, Text } from "@mantine/core";
import type { JourneySearchRequest } from "@skyward/contracts/offers";
import { IconHistory } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { Modal } from "../../../components/ui/modal.tsx";
import { passengerTotal } from "../machines/search-form.ts";
import { journeyDates, routeOf, searchKey } from "../url-state.ts";

/**
 * Alt+R in the search form: the user's recent searches in a dialog, the latest focused; a pick fills the form and
 * searches again (loaded when first asked for).
 */
export default function RecentSearchesDialog({
  searches,
  onPick,
  onClose,
}: {
  searches: JourneySearchRequest[];
  onPick: (search: JourneySearchRequest) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(["search-history", "search", "common"]);
  const formats = useFormats();
  return (
    <Modal
      opened
      onClose={onClose}
      title={<Text fw={650}>{t("search-history:recent")}</Text>}
      size="md"
      closeButtonProps={{ "aria-label": t("common:close") }}
    >
      {searches.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t("search-history:none")}
        </Text>
      ) : (
        <Stack gap={6}>
          {searches.map((search, index) => (
            <Button
              key={searchKey(search)}
              variant="default"
              justify="flex-start"
              leftSection={<IconHistory size={14} aria-hidden />}
              data-autofocus={index === 0 ? true : undefined}
              onClick={() => onPick(search)}
            >
              {`${routeOf(search)} · ${journeyDates(search)
                .map((day) => formats.day(day))
                .join(" – ")} · ` +
                t("search:passengers.summary", { count: passengerTotal(search.passengers) })}
            </Button>
          ))}
        </Stack>
      )}
    </Modal>
  );
}
