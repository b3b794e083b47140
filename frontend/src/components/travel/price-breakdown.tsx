import { Divider, Group, Stack, Table, Text } from "@mantine/core";
import type { Money } from "@skyward/contracts/money";
import type { PriceDetail } from "@skyward/contracts/offers";
import { useTranslation } from "react-i18next";
import { useFormats } from "./use-formats.ts";

const add = (...items: Money[]): Money => ({
  amount: items.reduce((sum, item) => sum + item.amount, 0),
  currency: items[0]?.currency ?? "",
});

const LINES = ["base_fare", "taxes", "agency_markup", "company_markup", "transaction_fee"] as const;

type Charges = Pick<PriceDetail, "base_fare" | "agency_markup" | "company_markup" | "transaction_fee">;
/** What the client sees as the fare: the base fare with the agency's markups and fee folded in. */
const clientFare = (line: Charges) =>
  add(line.base_fare, line.agency_markup, line.company_markup, line.transaction_fee);

/**
 * The price line by line: per passenger type, then the booking's base fare, taxes, markups, fee and total.
 * `compact` (a narrow column) lists each passenger type on one line instead of the table.
 */
export function PriceBreakdown({
  detail,
  compact = false,
  clientView = false,
}: {
  detail: PriceDetail;
  compact?: boolean;
  /** Markups and fees folded into the fare: the view an agent shows a client. */
  clientView?: boolean;
}) {
  const { t } = useTranslation("search");
  const { t: tp } = useTranslation("pricing");
  const formats = useFormats();
  const numeric = { fontVariantNumeric: "tabular-nums" } as const;
  return (
    <Stack gap="sm">
      {compact ? (
        <Stack gap={4} px="xs">
          {detail.passengers.map((line) => (
            <Group key={line.type} justify="space-between" wrap="nowrap">
              <Text fz="sm">
                {t(`passenger_types.${line.type}`)} × {line.count}
              </Text>
              <Text fz="sm" fw={600} style={numeric}>
                {formats.money(line.total)}
              </Text>
            </Group>
          ))}
          <Divider my={2} />
        </Stack>
      ) : (
        <Table fz="sm" verticalSpacing={6} horizontalSpacing="xs" withRowBorders>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("price.passenger")}</Table.Th>
              <Table.Th ta="right">{clientView ? tp("fare") : t("price.base_fare")}</Table.Th>
              <Table.Th ta="right">{t("price.taxes")}</Table.Th>
              {clientView ? null : <Table.Th ta="right">{t("price.markups_fees")}</Table.Th>}
              <Table.Th ta="right">{t("price.per_passenger")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {detail.passengers.map((line) => (
              <Table.Tr key={line.type}>
                <Table.Td>
                  {t(`passenger_types.${line.type}`)} × {line.count}
                </Table.Td>
                <Table.Td ta="right" style={numeric}>
                  {formats.money(clientView ? clientFare(line) : line.base_fare)}
                </Table.Td>
                <Table.Td ta="right" style={numeric}>
                  {formats.money(line.taxes)}
                </Table.Td>
                {clientView ? null : (
                  <Table.Td ta="right" style={numeric}>
                    {formats.money(add(line.agency_markup, line.company_markup, line.transaction_fee))}
                  </Table.Td>
                )}
                <Table.Td ta="right" fw={600} style={numeric}>
                  {formats.money(line.total)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Stack gap={4} px="xs">
        {(clientView
          ? [
              { key: "fare", label: tp("fare"), money: clientFare(detail) },
              { key: "taxes", label: t("price.taxes"), money: detail.taxes },
            ]
          : LINES.map((line) => ({ key: line, label: t(`price.${line}`), money: detail[line] }))
        ).map((line) => (
          <Group key={line.key} justify="space-between" wrap="nowrap">
            <Text fz="sm" c="dimmed">
              {line.label}
            </Text>
            <Text fz="sm" style={numeric}>
              {formats.money(line.money)}
            </Text>
          </Group>
        ))}
        <Divider my={4} />
        <Group justify="space-between" wrap="nowrap">
          <Text fw={700}>{t("price.total")}</Text>
          <Text fw={700} fz="lg" style={numeric} data-testid="price-total">
            {formats.money(detail.total)}
          </Text>
        </Group>
      </Stack>
    </Stack>
  );
}
