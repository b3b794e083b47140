import { Box, Stack, Table, Text } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import type { Money } from "@skyward/contracts/money";
import type { FarePenalty } from "@skyward/contracts/offers";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { Modal } from "../../../components/ui/modal.tsx";
import { FareRules } from "./fare-rules.tsx";

/** What the booking page gives a refund or exchange dialog: the booking, whether it shows, what to do once done. */
export interface AfterSalesDialogProps<Done> {
  booking: BookingDetails;
  opened: boolean;
  onClose: () => void;
  onDone: (response: Done) => void;
}

/** The layout the refund and exchange dialogs share: their title, the fare rule that applies, then their steps. */
export function AfterSalesDialog({
  title,
  opened,
  onClose,
  penalty,
  rule,
  lead,
  size = "xl",
  dirty,
  children,
}: {
  title: string;
  /** The modal's width (Mantine size or CSS length); "xl" unless a dialog needs more. */
  size?: string;
  /** The agent typed something here: closing asks before discarding it. */
  dirty?: boolean;
  /** A line above the fare rule saying what the dialog does. */
  lead?: string;
  opened: boolean;
  onClose: () => void;
  penalty: FarePenalty;
  rule: "refund" | "change";
  children: ReactNode;
}) {
  const { t } = useTranslation("after-sales");
  return (
    <Modal
      closeButtonProps={{ "aria-label": t("refund.close") }}
      opened={opened}
      onClose={onClose}
      dirty={dirty}
      title={<Text fw={650}>{title}</Text>}
      size={size}
    >
      <Stack gap="md">
        {lead ? <Text fz="sm">{lead}</Text> : null}
        <FareRules penalty={penalty} only={rule} />
        {children}
      </Stack>
    </Modal>
  );
}

/** Amounts in a column of figures: right-aligned, tabular, with the minor units kept for tests and screen readers. */
export function Amount({ money, testId, strong }: { money: Money; testId?: string; strong?: boolean }) {
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

/** A table of figures (a quote's lines, priced offers) that scrolls sideways on narrow screens; money columns right. */
export function FiguresTable({
  label,
  columns,
  children,
}: {
  label: string;
  columns: { title: string; money?: boolean }[];
  children: ReactNode;
}) {
  return (
    <Box style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label={label}>
      <Table fz="sm" verticalSpacing={6} horizontalSpacing="xs" withTableBorder aria-label={label}>
        <Table.Thead bg="var(--skyward-surface)">
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.title} ta={c.money ? "right" : undefined}>
                {c.title}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Box>
  );
}

/** A money cell of a FiguresTable. */
export const AmountCell = (props: { money: Money; testId?: string; strong?: boolean }) => (
  <Table.Td ta="right">
    <Amount {...props} />
  </Table.Td>
);

/** Until when the airline holds a quote or its offers, and how long is left. */
export function ValidUntil({
  at,
  text,
}: {
  at: string;
  text: (values: { time: string; left: string }) => string;
}) {
  const formats = useFormats();
  return (
    <Text fz="xs" c="dimmed">
      {text({ time: formats.instant(at), left: formats.fromNow(at) })}
    </Text>
  );
}
