import { Anchor, Box, Center, Collapse, Divider, Group, Paper, Stack, Text } from "@mantine/core";
import type { FareFamilyCode, OriginDestination } from "@skyward/contracts/offers";
import { IconChevronDown } from "@tabler/icons-react";
import { memo, useState } from "react";
import { useTranslation } from "react-i18next";
import { FlightSummary } from "../../../components/travel/flight-summary.tsx";
import { SegmentList } from "../../../components/travel/segment-list.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { FARE_COLUMN_WIDTH, FareOption } from "./fare-option.tsx";

/**
 * One itinerary: its flights on the left, its fare families side by side on the right. Memoized: a filter or a sort
 * of the results re-renders only the cards whose props changed (results-list.tsx keeps them the same objects).
 */
export const ItineraryCard = memo(function ItineraryCard({
  option,
  passengers,
  onSelect,
  onDetails,
  families,
  cheapest,
}: {
  option: OriginDestination;
  passengers: number;
  onSelect: (fareId: string) => void;
  onDetails: (fareId: string) => void;
  /** The fare families of the whole result, in order: every card has a column for each, so prices line up. */
  families: FareFamilyCode[];
  /** The lowest total of the whole result, marked in every card that offers it. */
  cheapest: number | null;
}) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const [open, setOpen] = useState(false);
  return (
    <Paper
      withBorder
      radius="md"
      component="article"
      aria-label={option.flights
        .map((f) => f.segments.map((s) => `${s.carrier} ${s.flight_number}`).join(", "))
        .join(" / ")}
      data-option-id={option.id}
      data-shortcut-row
      tabIndex={-1}
      style={{ overflow: "hidden" }}
    >
      <Box
        className="skyward-itinerary"
        style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr) auto" }}
      >
        <Stack gap={0} p="sm" justify="center">
          {option.flights.map((flight, index) => (
            <Stack key={flight.id} gap={4}>
              {index > 0 ? <Divider my={8} variant="dashed" /> : null}
              <Text fz={11} c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: "0.04em" }}>
                {t(`itinerary.${flight.direction}`)} · {formats.day(flight.departure_at)}
              </Text>
              <FlightSummary flight={flight} />
            </Stack>
          ))}
          <Group mt={8}>
            <Anchor
              component="button"
              type="button"
              fz="xs"
              onClick={() => setOpen((value) => !value)}
              aria-expanded={open}
            >
              <Group gap={4}>
                {open ? t("itinerary.hide_details") : t("itinerary.show_details")}
                <IconChevronDown size={12} style={{ transform: open ? "rotate(180deg)" : undefined }} />
              </Group>
            </Anchor>
          </Group>
        </Stack>
        <Box className="skyward-fares" bg="var(--skyward-surface)">
          {families.map((family) => {
            const fare = option.fares.find((f) => f.family === family);
            return fare ? (
              <FareOption
                key={fare.fare_id}
                fare={fare}
                passengers={passengers}
                cheapest={fare.price.amount === cheapest}
                onSelect={() => onSelect(fare.fare_id)}
                onDetails={() => onDetails(fare.fare_id)}
              />
            ) : (
              <Center
                key={family}
                w={FARE_COLUMN_WIDTH}
                style={{ borderLeft: "1px solid var(--skyward-border)" }}
              >
                <Text fz="xs" c="dimmed">
                  {t("fare.unavailable")}
                </Text>
              </Center>
            );
          })}
        </Box>
      </Box>
      <Collapse expanded={open}>
        <Divider />
        <Stack gap="sm" p="sm" bg="var(--skyward-surface)">
          {option.flights.map((flight) => (
            <Stack key={flight.id} gap={2}>
              <Text fz="xs" fw={600} c="dimmed" tt="uppercase">
                {t(`itinerary.${flight.direction}`)} · {formats.duration(flight.duration_minutes)}
              </Text>
              <SegmentList flight={flight} fareSegments={option.fares[0]?.fare_segments} />
            </Stack>
          ))}
        </Stack>
      </Collapse>
    </Paper>
  );
});
