import { Box, Group, Stack, Text } from "@mantine/core";
import type { Flight } from "@skyward/contracts/offers";
import { useTranslation } from "react-i18next";
import { airportTime, dayShift } from "../../lib/date-format.ts";
import { useCityName } from "../../lib/place-names.ts";
import { CarrierMark } from "./carrier-mark.tsx";
import { useFormats } from "./use-formats.ts";

/** The carriers of a flight, each once, in the order flown. */
export function carriersOf(flight: Flight): { code: string; name: string }[] {
  const seen = new Map<string, string>();
  for (const segment of flight.segments)
    if (!seen.has(segment.carrier)) seen.set(segment.carrier, segment.carrier_name);
  return [...seen].map(([code, name]) => ({ code, name }));
}

function Endpoint({
  time,
  code,
  city,
  shift,
  align,
}: {
  time: string;
  code: string;
  city: string;
  shift?: number;
  align: "left" | "right";
}) {
  return (
    <Stack gap={0} align={align === "left" ? "flex-start" : "flex-end"} miw={64}>
      <Group gap={2} wrap="nowrap" align="flex-start">
        <Text fw={700} fz={19} lh={1.15} style={{ fontVariantNumeric: "tabular-nums" }}>
          {time}
        </Text>
        {shift ? (
          <Text component="sup" fz={11} fw={700} c="var(--skyward-warning-text)" lh={1}>
            +{shift}
          </Text>
        ) : null}
      </Group>
      <Text fz="xs" c="dimmed" lh={1.3} maw={110}>
        <Text span fw={600} c="var(--mantine-color-text)" fz="xs">
          {code}
        </Text>{" "}
        {city}
      </Text>
    </Stack>
  );
}

/**
 * One direction of an itinerary on one line: carrier, times at the airports, duration and stops. `compact` (a narrow
 * column) shows the carriers above the times.
 */
export function FlightSummary({ flight, compact = false }: { flight: Flight; compact?: boolean }) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const cityName = useCityName();
  const first = flight.segments[0];
  const last = flight.segments.at(-1);
  if (!first || !last) return null;
  const carriers = carriersOf(flight);
  const via = flight.connections.map((c) => c.airport).join(", ");
  return (
    // The wide layout's columns are in styles.css (.skyward-flight): on a phone the carriers take a row of their own.
    <Box
      className={compact ? undefined : "skyward-flight"}
      style={{
        display: "grid",
        gridTemplateColumns: compact ? "auto minmax(90px, 1fr) auto" : undefined,
        alignItems: "center",
        columnGap: compact ? 10 : 16,
        rowGap: 6,
      }}
    >
      <Group gap={10} wrap="nowrap" miw={0} style={compact ? { gridColumn: "1 / -1" } : undefined}>
        <Group gap={4} wrap="nowrap">
          {carriers.map((carrier) => (
            <CarrierMark key={carrier.code} code={carrier.code} name={carrier.name} />
          ))}
        </Group>
        <Stack gap={0} miw={0}>
          {/* Whole names, wrapped rather than cut (issue 27). */}
          <Text fz="sm" fw={500} lh={1.3}>
            {carriers.map((c) => c.name).join(" · ")}
          </Text>
          <Text fz="xs" c="dimmed">
            {flight.segments.map((s) => `${s.carrier} ${s.flight_number}`).join(", ")}
          </Text>
        </Stack>
      </Group>
      <Endpoint
        time={airportTime(flight.departure_at)}
        code={first.from.code}
        city={cityName(first.from.code, first.from.city)}
        align="left"
      />
      <Stack gap={2} align="center" px={4}>
        <Text fz="xs" c="dimmed">
          {formats.duration(flight.duration_minutes)}
        </Text>
        <Box pos="relative" w="100%" h={8}>
          <Box pos="absolute" top={3.5} left={0} right={0} h={1} bg="var(--skyward-border)" />
          <Group pos="absolute" top={0} left={0} right={0} justify="center" gap={18}>
            {flight.connections.map((connection) => (
              <Box
                key={connection.airport}
                w={8}
                h={8}
                bg="var(--mantine-color-body)"
                bd="2px solid var(--mantine-color-orange-6)"
                style={{ borderRadius: 8 }}
              />
            ))}
          </Group>
        </Box>
        <Text
          fz="xs"
          fw={500}
          c={flight.stops === 0 ? "var(--skyward-success-text)" : "var(--skyward-warning-text)"}
        >
          {flight.stops === 0
            ? t("itinerary.direct")
            : `${t("itinerary.stops", { count: flight.stops })}${via ? ` · ${via}` : ""}`}
        </Text>
      </Stack>
      <Endpoint
        time={airportTime(flight.arrival_at)}
        code={last.to.code}
        city={cityName(last.to.code, last.to.city)}
        shift={dayShift(flight.departure_at, flight.arrival_at)}
        align="right"
      />
    </Box>
  );
}
