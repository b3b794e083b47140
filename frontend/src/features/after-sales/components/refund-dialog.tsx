import { Alert, Button, Checkbox, Group, Stack, Table, Text } from "@mantine/core";
import type { RefundQuoteSlice } from "@skyward/contracts/supplier";
import { IconInfoCircle } from "@tabler/icons-react";
import { useMachine } from "@xstate/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { useFareText } from "../../../lib/fare-text.ts";
import type { RefundConfirmResponse } from "../api/refund.ts";
import { refundMachine } from "../machines/refund.machine.ts";
import {
  AfterSalesDialog,
  type AfterSalesDialogProps,
  Amount,
  AmountCell,
  FiguresTable,
  ValidUntil,
} from "./after-sales-dialog.tsx";

/**
 * A multi-city quote's slices, each under its own fare rule: the fare it carries, what of it comes back (nothing on a
 * non-refundable slice) and its penalty. Nothing for a fare of one rule throughout.
 */
function RefundSlices({ slices }: { slices: RefundQuoteSlice[] }) {
  const { t } = useTranslation("after-sales");
  const fareText = useFareText();
  if (slices.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text fz="sm" fw={600}>
        {t("refund.slices.title")}
      </Text>
      <FiguresTable
        label={t("refund.slices.title")}
        columns={[
          { title: t("refund.slices.flight") },
          { title: t("refund.slices.brand") },
          { title: t("refund.slices.fare_part"), money: true },
          { title: t("refund.slices.fare"), money: true },
          { title: t("refund.slices.penalty"), money: true },
        ]}
      >
        {slices.map((slice) => (
          <Table.Tr key={slice.slice} data-testid="refund-slice" data-refundable={slice.refundable}>
            <Table.Td style={{ whiteSpace: "nowrap" }}>
              {t("refund.slices.route", {
                number: slice.slice + 1,
                from: slice.origin,
                to: slice.destination,
              })}
            </Table.Td>
            <Table.Td>
              <Text fz="sm">{fareText.brandName(slice.brand_name)}</Text>
              {slice.refundable ? null : (
                <Text fz="xs" c="dimmed">
                  {t("refund.slices.non_refundable")}
                </Text>
              )}
            </Table.Td>
            <AmountCell money={slice.fare_part} />
            <AmountCell money={slice.fare_refund} />
            <AmountCell money={slice.penalty} />
          </Table.Tr>
        ))}
      </FiguresTable>
    </Stack>
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
  onDone,
}: AfterSalesDialogProps<RefundConfirmResponse>) {
  const { t } = useTranslation("after-sales");
  const formats = useFormats();
  const { locator } = booking;
  const [state, send, actor] = useMachine(refundMachine, { input: { locator } });
  const refunded = booking.refunded_passengers ?? [];
  const open = booking.tickets.filter((ticket) => !refunded.includes(ticket.passenger_index));
  const [chosen, setChosen] = useState<number[]>(() => open.map((ticket) => ticket.passenger_index));

  useEffect(() => {
    const done = actor.on("refunded", ({ response }) => onDone(response));
    return () => done.unsubscribe();
  }, [actor, onDone]);

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
    <AfterSalesDialog
      title={t("refund.title", { locator })}
      // Wide enough for the quote's seven columns, its credit total included, at 1280 px (issue 27).
      size="min(1000px, 100%)"
      opened={opened}
      onClose={close}
      penalty={booking.fare.fare.penalty}
      rule="refund"
    >
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
          <FiguresTable
            label={t("refund.quote_title")}
            columns={[
              { title: t("refund.columns.ticket") },
              { title: t("refund.columns.passenger") },
              { title: t("refund.columns.fare"), money: true },
              { title: t("refund.columns.taxes"), money: true },
              { title: t("refund.columns.penalty"), money: true },
              { title: t("refund.columns.kept"), money: true },
              { title: t("refund.columns.credit"), money: true },
            ]}
          >
            {quote.lines.map((line) => (
              <Table.Tr key={line.ticket_number}>
                <Table.Td ff="monospace">{line.ticket_number}</Table.Td>
                <Table.Td>{nameOf(line.passenger_index)}</Table.Td>
                <AmountCell money={line.fare_refund} />
                <AmountCell money={line.taxes_refund} />
                <AmountCell money={line.penalty} />
                <AmountCell money={line.non_refundable} />
                <AmountCell money={line.refundable} strong />
              </Table.Tr>
            ))}
          </FiguresTable>
          <RefundSlices slices={quote.supplier_quote?.slices ?? []} />
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
            <ValidUntil at={quote.expires_at} text={(values) => t("refund.expires", values)} />
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
    </AfterSalesDialog>
  );
}
