import { Alert, Box, Paper, Skeleton, Table, Text, UnstyledButton } from "@mantine/core";
import type { FareCalendarCell } from "@skyward/contracts/fare-calendar";
import type { SearchRequest } from "@skyward/contracts/offers";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { fareCalendarQueryOptions } from "../api/fare-calendar.ts";

/**
 * The cheapest total per date 3 days either side of the search's dates (a 7 × 7 grid for a round trip: departures
 * down, returns across); a priced cell starts the search for its dates.
 */
export function FareCalendarPanel({
  request,
  companyId,
  onPick,
}: {
  request: SearchRequest;
  companyId?: string | undefined;
  onPick: (departure: string, ret: string | null) => void;
}) {
  const { t } = useTranslation("search");
  const formats = useFormats();
  const calendar = useQuery(fareCalendarQueryOptions(request, companyId));

  if (calendar.isError)
    return (
      <Alert color="red" variant="light">
        {t("calendar.failed")}
      </Alert>
    );
  if (!calendar.data) return <Skeleton h={request.return_date ? 300 : 90} radius="md" aria-busy />;

  const { departure_dates, return_dates, cells, cheapest } = calendar.data;
  const cellOf = (departure: string, ret: string | null) =>
    cells.find((c) => c.departure_date === departure && c.return_date === ret);
  const asked = (cell: FareCalendarCell) =>
    cell.departure_date === request.departure_date && cell.return_date === (request.return_date ?? null);
  const dates = (cell: FareCalendarCell) =>
    [cell.departure_date, cell.return_date].flatMap((d) => (d ? [formats.day(d)] : [])).join(" – ");

  const button = (cell: FareCalendarCell | undefined) => {
    if (!cell) return null;
    if (!cell.total)
      return (
        <Text fz="xs" c="dimmed" title={cell.reason ? t(`calendar.reasons.${cell.reason}`) : undefined}>
          {t("calendar.no_price")}
        </Text>
      );
    const lowest = cheapest !== null && cell.total.amount === cheapest.amount;
    const price = formats.money(cell.total, { whole: true });
    return (
      <UnstyledButton
        onClick={() => onPick(cell.departure_date, cell.return_date)}
        aria-label={t("calendar.cell", { dates: dates(cell), price })}
        aria-current={asked(cell) ? "date" : undefined}
        data-cheapest={lowest || undefined}
        px={6}
        py={4}
        style={{
          borderRadius: 6,
          fontSize: "var(--mantine-font-size-xs)",
          fontWeight: lowest ? 700 : 500,
          whiteSpace: "nowrap",
          color: lowest ? "var(--skyward-success-text)" : undefined,
          outline: asked(cell) ? "2px solid var(--mantine-color-anchor)" : undefined,
        }}
      >
        {price}
      </UnstyledButton>
    );
  };

  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="fare-calendar-title">
      <Text id="fare-calendar-title" fw={600} fz="sm" mb={6} component="h2" m={0}>
        {t("calendar.title")}
      </Text>
      <Box style={{ overflowX: "auto" }}>
        <Table withTableBorder={false} verticalSpacing={2} horizontalSpacing={4} fz="xs" ta="center">
          {return_dates ? (
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  {t("calendar.departure")} \ {t("calendar.return")}
                </Table.Th>
                {return_dates.map((ret) => (
                  <Table.Th key={ret} scope="col">
                    {formats.day(ret)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
          ) : (
            <Table.Thead>
              <Table.Tr>
                {departure_dates.map((departure) => (
                  <Table.Th key={departure} scope="col">
                    {formats.day(departure)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
          )}
          <Table.Tbody>
            {return_dates ? (
              departure_dates.map((departure) => (
                <Table.Tr key={departure}>
                  <Table.Th scope="row">{formats.day(departure)}</Table.Th>
                  {return_dates.map((ret) => (
                    <Table.Td key={ret}>{button(cellOf(departure, ret))}</Table.Td>
                  ))}
                </Table.Tr>
              ))
            ) : (
              <Table.Tr>
                {departure_dates.map((departure) => (
                  <Table.Td key={departure}>{button(cellOf(departure, null))}</Table.Td>
                ))}
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Box>
    </Paper>
  );
}
