import { Anchor, Group, Table, Text } from "@mantine/core";
import type { BookingRow } from "@skyward/contracts/bookings";
import { useNavigate } from "@tanstack/react-router";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { CarrierMark } from "../../../components/travel/carrier-mark.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { airportTime } from "../../../lib/date-format.ts";
import { personalData } from "../../../lib/personal-data.ts";
import { FakeBadge, StatusBadge } from "./status-badge.tsx";

/** Less than this left on the time limit is shown in red: the agent should act now. */
const URGENT_MS = 2 * 3600_000;

/** Memoized: the page re-renders around it (a tab, a filter, the drawer) without re-rendering its rows. */
export const BookingTable = memo(function BookingTable({
  rows,
  openLocator,
  showTimeLimit,
}: {
  rows: BookingRow[];
  openLocator: string | undefined;
  /** Only held bookings have a time limit worth a column. */
  showTimeLimit: boolean;
}) {
  const { t } = useTranslation("bookings");
  const formats = useFormats();
  const navigate = useNavigate();
  // Time limits and booking times are shown in the browser's zone: the column says which one.
  const zoneLabel = t("columns.time_zone", { zone: Intl.DateTimeFormat().resolvedOptions().timeZone });
  const numeric = { fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" } as const;
  return (
    <Table.ScrollContainer minWidth={1180}>
      <Table highlightOnHover verticalSpacing={7} horizontalSpacing="sm" fz="sm" stickyHeader>
        <Table.Thead bg="var(--skyward-surface)">
          <Table.Tr>
            <Table.Th>{t("columns.locator")}</Table.Th>
            <Table.Th>{t("columns.status")}</Table.Th>
            <Table.Th>{t("columns.route")}</Table.Th>
            <Table.Th>{t("columns.departure")}</Table.Th>
            <Table.Th>{t("columns.passengers")}</Table.Th>
            <Table.Th>{t("columns.booked_by")}</Table.Th>
            <Table.Th>{t("columns.company")}</Table.Th>
            <Table.Th ta="right">{t("columns.price")}</Table.Th>
            {showTimeLimit ? (
              <Table.Th>
                {t("columns.time_limit")}
                <Text span fz="xs" c="dimmed" fw={400} display="block">
                  {zoneLabel}
                </Text>
              </Table.Th>
            ) : null}
            <Table.Th>
              {t("columns.created")}
              <Text span fz="xs" c="dimmed" fw={400} display="block">
                {zoneLabel}
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            // When a held booking is really lost: the agency's automatic cancellation, else the airline's time limit.
            const deadline = row.cancel_before ?? row.time_limit;
            const left = deadline ? Date.parse(deadline) - Date.now() : null;
            const urgent = row.list === "new" && left !== null && left < URGENT_MS;
            return (
              <Table.Tr
                key={row.locator}
                data-locator={row.locator}
                data-shortcut-row
                tabIndex={-1}
                bg={row.locator === openLocator ? "var(--skyward-selected)" : undefined}
                style={{ cursor: "pointer" }}
                onClick={() =>
                  void navigate({ to: "/bookings", search: (prev) => ({ ...prev, locator: row.locator }) })
                }
              >
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Anchor
                      href={`/bookings?locator=${row.locator}`}
                      ff="monospace"
                      fw={700}
                      fz="sm"
                      onClick={(event) => {
                        // The row opens it; a modified click keeps the browser's new-tab behaviour.
                        event.stopPropagation();
                        if (event.metaKey || event.ctrlKey || event.shiftKey) return;
                        event.preventDefault();
                        void navigate({
                          to: "/bookings",
                          search: (prev) => ({ ...prev, locator: row.locator }),
                        });
                      }}
                    >
                      {row.locator}
                    </Anchor>
                    {row.fake_booking ? <FakeBadge size="xs" /> : null}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={row.status} size="xs" />
                </Table.Td>
                <Table.Td>
                  <Group gap={8} wrap="nowrap">
                    <CarrierMark code={row.carrier} name={row.carrier} size={22} />
                    <Text fz="sm" fw={500} style={{ whiteSpace: "nowrap" }}>
                      {row.route}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td style={numeric}>
                  {row.departure_at
                    ? `${formats.day(row.departure_at, "long")}, ${airportTime(row.departure_at)}`
                    : "—"}
                </Table.Td>
                <Table.Td maw={260}>
                  <Text fz="sm" truncate="end" title={row.passenger_names} {...personalData}>
                    {row.passenger_names}
                  </Text>
                </Table.Td>
                <Table.Td maw={180}>
                  <Text fz="sm" truncate="end" title={row.booked_by ?? undefined} {...personalData}>
                    {row.booked_by ?? "—"}
                  </Text>
                </Table.Td>
                <Table.Td maw={200}>
                  <Text fz="sm" truncate="end" title={row.company_name ?? undefined}>
                    {row.company_name ?? "—"}
                  </Text>
                </Table.Td>
                <Table.Td ta="right" fw={600} style={numeric}>
                  {formats.money(row.price)}
                </Table.Td>
                {showTimeLimit ? (
                  <Table.Td style={numeric}>
                    {row.list === "new" && deadline ? (
                      <Text
                        fz="sm"
                        c={urgent ? "var(--mantine-color-error)" : undefined}
                        fw={urgent ? 600 : undefined}
                        title={formats.instant(deadline)}
                      >
                        {formats.fromNow(deadline)}
                        <Text span fz="xs" c="dimmed" fw={400} display="block">
                          {formats.instant(deadline)}
                        </Text>
                      </Text>
                    ) : (
                      <Text fz="sm" c="dimmed">
                        —
                      </Text>
                    )}
                  </Table.Td>
                ) : null}
                <Table.Td style={numeric}>
                  <Text fz="sm" c="dimmed">
                    {formats.instant(row.created_at)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
});
