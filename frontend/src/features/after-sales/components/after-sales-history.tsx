import { Box, Stack, Table, Text, Title } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import type { Money } from "@skyward/contracts/money";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";

/** The refunds of a booking (per ticket, with what was credited) and every supplier operation with its money. */
export function AfterSalesHistory({ booking }: { booking: BookingDetails }) {
  const { t, i18n } = useTranslation("after-sales");
  const formats = useFormats();
  const refunds = booking.refunds ?? [];
  const history = booking.history ?? [];
  const signed = (money: Money) =>
    `${money.amount > 0 ? "−" : "+"}${formats.money({ ...money, amount: Math.abs(money.amount) })}`;
  const kind = (name: string) => {
    const key = `after-sales:history.kinds.${name}`;
    return i18n.exists(key) ? t(key as never) : name;
  };
  return (
    <Stack gap="md">
      {refunds.length > 0 ? (
        <Stack gap="xs" component="section" aria-label={t("history.refunds")} data-testid="booking-refunds">
          <Title order={3} fz={14} fw={650}>
            {t("history.refunds")}
          </Title>
          {refunds.map((refund) => (
            <Stack key={refund.at} gap={4}>
              <Text fz="sm" fw={600}>
                {t("history.refund_line", { at: formats.instant(refund.at) })}
                {refund.credited
                  ? ` · ${t("history.credited", { amount: formats.money(refund.credited) })}`
                  : ""}
              </Text>
              <Table fz="sm" verticalSpacing={4} horizontalSpacing="xs" withTableBorder>
                <Table.Thead bg="var(--skyward-surface)">
                  <Table.Tr>
                    <Table.Th>{t("refund.columns.ticket")}</Table.Th>
                    <Table.Th ta="right">{t("refund.columns.penalty")}</Table.Th>
                    <Table.Th ta="right">{t("refund.columns.kept")}</Table.Th>
                    <Table.Th ta="right">{t("refund.columns.credit")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {refund.lines.map((line) => (
                    <Table.Tr key={line.ticket_number}>
                      <Table.Td ff="monospace">{line.ticket_number}</Table.Td>
                      <Table.Td ta="right">{formats.money(line.penalty)}</Table.Td>
                      <Table.Td ta="right">{formats.money(line.non_refundable)}</Table.Td>
                      <Table.Td ta="right" fw={600}>
                        {formats.money(line.refundable)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          ))}
        </Stack>
      ) : null}
      {history.length > 0 ? (
        <Stack
          gap="xs"
          component="section"
          aria-label={t("history.operations")}
          data-testid="booking-history"
        >
          <Title order={3} fz={14} fw={650}>
            {t("history.operations")}
          </Title>
          <Box style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label={t("history.operations")}>
            <Table fz="sm" verticalSpacing={4} horizontalSpacing="xs" withTableBorder>
              <Table.Thead bg="var(--skyward-surface)">
                <Table.Tr>
                  <Table.Th>{t("history.columns.operation")}</Table.Th>
                  <Table.Th>{t("history.columns.started")}</Table.Th>
                  <Table.Th>{t("history.columns.outcome")}</Table.Th>
                  <Table.Th ta="right">{t("history.columns.money")}</Table.Th>
                  <Table.Th>{t("history.columns.tickets")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.map((op) => (
                  <Table.Tr key={op.operation_id} data-operation={op.kind}>
                    <Table.Td fw={600}>{kind(op.kind)}</Table.Td>
                    <Table.Td style={{ whiteSpace: "nowrap" }}>{formats.instant(op.started_at)}</Table.Td>
                    <Table.Td>
                      {t(`history.outcomes.${op.outcome}`)}
                      {op.error ? (
                        <Text span fz="xs" c="dimmed">
                          {" "}
                          · {op.error}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
                      {op.balance_effect ? signed(op.balance_effect) : "—"}
                    </Table.Td>
                    <Table.Td ff="monospace" fz="xs">
                      {op.tickets.join(", ") || "—"}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
        </Stack>
      ) : null}
    </Stack>
  );
}
