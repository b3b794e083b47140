import { ActionIcon, Badge, Box, Button, Group, Stack, Text, Tooltip } from "@mantine/core";
import type { Fare } from "@skyward/contracts/offers";
import { IconInfoCircle } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FareConditions } from "../../../components/travel/fare-conditions.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { afterPaint } from "../../../lib/after-paint.ts";
import { useFareText } from "../../../lib/fare-text.ts";

export const FARE_COLUMN_WIDTH = 176;

/** One fare family of an itinerary: brand, baggage and rules, the party's total then the price per adult, and the choice. */
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
  const { t: tp } = useTranslation("pricing");
  const formats = useFormats();
  const brand = useFareText().brand(fare);
  const total = { amount: fare.price.amount, currency: fare.price.currency };
  const perPass = { amount: fare.price.perPass, currency: fare.price.currency };
  // The choice shows busy at once; the booking form (a large render) opens after that paint.
  const [opening, setOpening] = useState(false);
  const select = () => {
    setOpening(true);
    afterPaint(() => {
      setOpening(false);
      onSelect();
    });
  };
  return (
    <Box
      component="section"
      aria-label={brand}
      data-fare-id={fare.fare_id}
      px={12}
      py={8}
      w={FARE_COLUMN_WIDTH}
      style={{
        borderLeft: "1px solid var(--skyward-border)",
        display: "flex",
        flexDirection: "column",
        minWidth: 0,
      }}
    >
      <Text fz={13} fw={650} lh={1.2} mb={4}>
        {brand}
      </Text>
      <FareConditions fareSegments={fare.fare_segments} penalty={fare.penalty} />
      <Stack gap={0} mt="auto" pt={6}>
        {/* The instant-ticketing mark shares the total's label line (it wraps below a long label): a line less
            per card keeps three itineraries in view at 1280×720 whatever the fares say. */}
        <Group gap={4} justify="space-between" align="center" wrap="wrap">
          {/* The party's total first (what the booking costs), what one adult pays second. */}
          <Text fz={10} c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: "0.04em" }}>
            {passengers > 1 ? tp("total_party") : tp("total")}
          </Text>
          {fare.instant_payment ? (
            <Tooltip label={t("fare.instant_hint")} withArrow multiline w={220}>
              <Badge
                size="xs"
                variant="light"
                color="orange"
                radius="sm"
                maw="100%"
                h="auto"
                styles={{ label: { whiteSpace: "normal", overflow: "visible" } }}
              >
                {t("fare.instant")}
              </Badge>
            </Tooltip>
          ) : null}
        </Group>
        <Text
          fz={17}
          fw={700}
          lh={1.2}
          c={cheapest ? "var(--skyward-success-text)" : undefined}
          style={{ fontVariantNumeric: "tabular-nums" }}
          data-testid="fare-total"
        >
          {formats.money(total)}
        </Text>
        {passengers > 1 ? (
          <Text fz={11} c="dimmed" style={{ fontVariantNumeric: "tabular-nums" }}>
            {tp("per_adult", { amount: formats.money(perPass) })}
          </Text>
        ) : null}
        {fare.seats_left < 5 ? (
          <Text fz={11} c="var(--skyward-warning-text)" fw={500}>
            {t("fare.seats_left", { count: fare.seats_left })}
          </Text>
        ) : null}
      </Stack>
      <Group gap={4} wrap="nowrap" mt={6}>
        <Button
          size="compact-sm"
          flex={1}
          onClick={select}
          loading={opening}
          aria-label={t("fare.select_label", { brand })}
          data-shortcut-open
        >
          {t("fare.select")}
        </Button>
        <Tooltip label={t("fare.details")} withArrow>
          <ActionIcon
            variant="default"
            size={26}
            onClick={onDetails}
            aria-label={`${t("fare.details")}: ${brand}`}
          >
            <IconInfoCircle size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Box>
  );
}
