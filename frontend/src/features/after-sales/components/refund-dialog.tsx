import { Alert, Box, Button, Checkbox, Group, Modal, Stack, Table, Text } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import type { Money } from "@skyward/contracts/money";
import { IconInfoCircle } from "@tabler/icons-react";
import { useMachine } from "@xstate/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import type { RefundConfirmResponse } from "../api/refund.ts";
import { refundMachine } from "../machines/refund.machine.ts";
import { FareRules } from "./fare-rules.tsx";

/** Amounts in a column of figures: right-aligned, tabular, with the minor units kept for tests and screen readers. */
function Amount({ money, testId, strong }: { money: Money; testId?: string; strong?: boolean }) {
  const formats = useFormats();
  return (
    <Text
      span
      fz="sm"
      fw={strong ? 650 : undefined}
      style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}
      data-testid={testId}
      data-amount={money.amount}
    >
      {formats.money(money)}
    </Text>
  );
}

/**
 * The refund of some or all tickets: the agent picks the tickets, gets the airline's quote (per ticket: fare and
 * taxes back, the penalty, our fees kept, what is credited; valid until), and confirms it.
 */
export function RefundDialog({
  booking,
  opened,
  onClose,
  onRefunded,
}: {
  booking: BookingDetails;
  opened: boolean;
  onClose: () => void;
  onRefunded: (response: RefundConfirmResponse) => void;
}) {
  const { t } = useTranslation("after-sales");
  const formats = useFormats();
  const { locator } = booking;
  const [state, send, actor] = useMachine(refundMachine, { input: { locator } });
  const refunded = booking.refunded_passengers ?? [];
  const open = booking.tickets.filter((ticket) => !refunded.includes(ticket.passenger_index));
  const [chosen, setChosen] = useState<number[]>(() => open.map((ticket) => ticket.passenger_index));

  useEffect(() => {
    const done = actor.on("refunded", ({ response }) => onRefunded(response));
    return () => done.unsubscribe();
  }, [actor, onRefunded]);

  const quote = state.context.quote;
  const quoting = state.matches("quoting") || state.matches("requoting");
  const confirming = state.matches("confirming");
  const quotedFor = quote?.lines.map((l) => l.passenger_index).sort() ?? [];
  const selectionChanged = quote !== null && quotedFor.join() !== [...chosen].sort().join();
  const close = () => {
    send({ type: "refund.cancel" });
    onClose();
  };
  const nameOf = (index: number) =>
    booking.tickets.find((ticket) => ticket.passenger_index === index)?.passenger_name ?? String(index + 1);

  return (
    <Modal
      closeButtonProps={{ "aria-label": t("refund.close") }}
      opened={opened}
      onClose={close}
      title={<Text fw={650}>{t("refund.title", { locator })}</Text>}
      size="xl"
    >
      <Stack gap="md">
        <FareRules penalty={booking.fare.fare.penalty} only="refund" />
        <Checkbox.Group
          label={t("refund.passengers")}
          value={chosen.map(String)}
          onChange={(values) => setChosen(values.map(Number))}
          error={chosen.length === 0 ? t("refund.select_one") : undefined}
        >
          <Stack gap={4} mt={4}>
            {open.map((ticket) => (
              <Checkbox
                key={ticket.ticket_number}
                value={String(ticket.passenger_index)}
                label={t("refund.passenger_option", {
                  name: ticket.passenger_name,
                  ticket: ticket.ticket_number,
                })}
                disabled={quoting || confirming}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        {quote === null || selectionChanged ? (
          <Group>
            <Button
              onClick={() => send({ type: "refund.request", passengers: chosen })}
              loading={quoting}
              disabled={chosen.length === 0}
            >
              {quote === null ? t("refund.get_quote") : t("refund.requote")}
            </Button>
          </Group>
        ) : null}

        {quote ? (
          <Stack gap="xs" component="section" aria-label={t("refund.quote_title")} data-testid="refund-quote">
            {state.context.requoted ? (
              <Alert color="orange" variant="light" icon={<IconInfoCircle size={16} />} role="status">
                {t("refund.requoted")}
              </Alert>
            ) : null}
            <Box
              style={{ overflowX: "auto" }}
              tabIndex={0}
              role="region"
              aria-label={t("refund.quote_title")}
            >
              <Table
                fz="sm"
                verticalSpacing={6}
                horizontalSpacing="xs"
                withTableBorder
                aria-label={t("refund.quote_title")}
              >
                <Table.Thead bg="var(--skyward-surface)">
                  <Table.Tr>
                    <Table.Th>{t("refund.columns.ticket")}</Table.Th>
                    <Table.Th>{t("refund.columns.passenger")}</Table.Th>
                    <Table.Th ta="right">{t("refund.columns.fare")}</Table.Th>
                    <Table.Th ta="right">{t("refund.columns.taxes")}</Table.Th>
                    <Table.Th ta="right">{t("refund.columns.penalty")}</Table.Th>
                    <Table.Th ta="right">{t("refund.columns.kept")}</Table.Th>
                    <Table.Th ta="right">{t("refund.columns.credit")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {quote.lines.map((line) => (
                    <Table.Tr key={line.ticket_number}>
                      <Table.Td ff="monospace">{line.ticket_number}</Table.Td>
                      <Table.Td>{nameOf(line.passenger_index)}</Table.Td>
                      <Table.Td ta="right">
                        <Amount money={line.fare_refund} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Amount money={line.taxes_refund} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Amount money={line.penalty} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Amount money={line.non_refundable} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Amount money={line.refundable} strong />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Box>
            <Stack gap={2} align="flex-end">
              <Group gap="xs">
                <Text fz="sm">{t("refund.penalty_total")}</Text>
                <Amount money={quote.penalty} testId="refund-penalty-total" />
              </Group>
              <Group gap="xs">
                <Text fz="sm">{t("refund.kept_total")}</Text>
                <Amount money={quote.non_refundable} />
              </Group>
              <Group gap="xs">
                <Text fz="sm" fw={650}>
                  {t("refund.credit_total")}
                </Text>
                <Amount money={quote.refundable} testId="refund-credit-total" strong />
              </Group>
              <Text fz="xs" c="dimmed">
                {t("refund.expires", {
                  time: formats.instant(quote.expires_at),
                  left: formats.fromNow(quote.expires_at),
                })}
              </Text>
            </Stack>
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={close} disabled={confirming}>
                {t("refund.close")}
              </Button>
              <Button
                color="red"
                onClick={() => send({ type: "refund.confirm" })}
                loading={confirming}
                disabled={quoting || selectionChanged}
              >
                {t("refund.confirm", { amount: formats.money(quote.refundable) })}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Stack>
    </Modal>
  );
}
