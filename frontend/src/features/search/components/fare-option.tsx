import type { Fare } from "@skyward/contracts/offers";
import { ActionIcon, Box, Button, Group, Stack, Text, Tooltip } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { FareConditions } from "../../../components/travel/fare-conditions.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { IconInfo } from "../../../components/ui/travel-icons.tsx";

/** One fare family of an itinerary: brand, baggage and rules, the price per adult and in total, and the choice. */
export function FareOption({
  fare,
  passengers,
  cheapest,
  onSelect,
  onDetails,
}: {
  fare: Fare;
  passengers: number;
  cheapest: boolean;
  onSelect: () => void;
  onDetails: () => void;
}) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const total = { amount: fare.price.amount, currency: fare.price.currency };
  const perPass = { amount: fare.price.perPass, currency: fare.price.currency };
  return (
    <Box
      component="section"
      aria-label={fare.brand_name}
      data-fare-id={fare.fare_id}
      px={12}
      py={10}
      w={158}
      style={{ borderLeft: "1px solid var(--mantine-color-gray-2)", display: "flex", flexDirection: "column", minWidth: 0 }}
    >
      <Group gap={4} wrap="nowrap" justify="space-between" mb={6}>
        <Text fz={13} fw={650} lh={1.2} truncate="end" title={fare.brand_name}>
          {fare.brand_name}
        </Text>
        <Tooltip label={t("fare.details")} withArrow>
          <ActionIcon variant="subtle" color="gray" size="sm" onClick={onDetails} aria-label={`${t("fare.details")}: ${fare.brand_name}`}>
            <IconInfo size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <FareConditions fareSegments={fare.fare_segments} penalty={fare.penalty} />
      <Stack gap={0} mt="auto" pt={8}>
        <Text fz={17} fw={700} lh={1.2} c={cheapest ? "teal.8" : undefined} style={{ fontVariantNumeric: "tabular-nums" }}>
          {formats.money(perPass)}
        </Text>
        <Text fz={11} c="dimmed" truncate="end">
          {passengers > 1 ? t("fare.total_for", { amount: formats.money(total), count: passengers }) : t("fare.per_adult")}
        </Text>
        {fare.seats_left < 5 ? (
          <Text fz={11} c="orange.8" fw={500}>
            {t("fare.seats_left", { count: fare.seats_left })}
          </Text>
        ) : null}
      </Stack>
      <Button size="compact-sm" mt={8} onClick={onSelect} aria-label={t("fare.select_label", { brand: fare.brand_name })}>
        {t("fare.select")}
      </Button>
    </Box>
  );
}
