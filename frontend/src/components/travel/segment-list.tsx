import { Badge, Box, Group, Stack, Text } from "@mantine/core";
import type { FareSegment, Flight } from "@skyward/contracts/offers";
import { IconClock } from "@tabler/icons-react";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { useAirportName } from "../../lib/airport-names.ts";
import { airportTime, dayShift } from "../../lib/date-format.ts";
import { useCityName } from "../../lib/place-names.ts";
import { CarrierMark } from "./carrier-mark.tsx";
import { useFormats } from "./use-formats.ts";

/** Every leg of a flight with its airports, aircraft and cabin, and the connections between them. */
export function SegmentList({ flight, fareSegments }: { flight: Flight; fareSegments?: FareSegment[] }) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const cityName = useCityName();
  // The city in the interface language with the airport's proper name ("Київ Boryspil"): no English words.
  const { label: airportText } = useAirportName();
  return (
    <Stack gap={0}>
      {flight.segments.map((segment, index) => {
        const connection = index > 0 ? flight.connections[index - 1] : undefined;
        const fareSegment = fareSegments?.find((f) => f.segment_id === segment.id);
        const shift = dayShift(segment.departure_at, segment.arrival_at);
        return (
          <Fragment key={segment.id}>
            {connection ? (
              <Group gap={6} py={6} pl={46} c="var(--skyward-warning-text)">
                <IconClock size={14} />
                <Text fz="xs" fw={500}>
                  {t("itinerary.connection", {
                    city: cityName(segment.from.code, segment.from.city),
                    airport: connection.airport,
                    duration: formats.duration(connection.minutes),
                  })}
                </Text>
              </Group>
            ) : null}
            <Group gap="sm" wrap="nowrap" align="flex-start" py={6}>
              <CarrierMark code={segment.carrier} name={segment.carrier_name} size={34} />
              <Box
                style={{
                  display: "grid",
                  gridTemplateColumns: "56px 1fr",
                  rowGap: 2,
                  columnGap: 10,
                  flex: 1,
                  minWidth: 0,
                }}
              >
                <Text fz="sm" fw={700} style={{ fontVariantNumeric: "tabular-nums" }}>
                  {airportTime(segment.departure_at)}
                </Text>
                <Text fz="sm" truncate="end" title={airportText(segment.from)}>
                  <Text span fw={600}>
                    {segment.from.code}
                  </Text>{" "}
                  {airportText(segment.from)}
                  <Text span c="dimmed" fz="xs">
                    {" "}
                    · {formats.day(segment.departure_at)}
                  </Text>
                </Text>
                <Text fz="xs" c="dimmed">
                  {formats.duration(segment.duration_minutes)}
                </Text>
                <Group gap={6} wrap="wrap">
                  <Text fz="xs" c="dimmed">
                    {segment.carrier_name} · {segment.carrier} {segment.flight_number} ·{" "}
                    {segment.equipment.name}
                  </Text>
                  <Badge size="xs" variant="light" color="gray" radius="sm">
                    {t(`cabins.${segment.cabin}`)}
                    {fareSegment ? ` · ${fareSegment.booking_class}` : ""}
                  </Badge>
                  {segment.operating_carrier !== segment.carrier ? (
                    <Text fz="xs" c="dimmed">
                      {t("itinerary.operated_by", { carrier: segment.operating_carrier })}
                    </Text>
                  ) : null}
                  {segment.stops > 0 ? (
                    <Text fz="xs" c="var(--skyward-warning-text)">
                      {t("itinerary.technical_stops", { count: segment.stops })}
                    </Text>
                  ) : null}
                </Group>
                <Text fz="sm" fw={700} style={{ fontVariantNumeric: "tabular-nums" }}>
                  {airportTime(segment.arrival_at)}
                  {shift ? (
                    <Text span fz={11} c="var(--skyward-warning-text)" fw={700}>
                      {" "}
                      +{shift}
                    </Text>
                  ) : null}
                </Text>
                <Text fz="sm" truncate="end" title={airportText(segment.to)}>
                  <Text span fw={600}>
                    {segment.to.code}
                  </Text>{" "}
                  {airportText(segment.to)}
                </Text>
              </Box>
            </Group>
          </Fragment>
        );
      })}
    </Stack>
  );
}
