import { Alert, Badge, Button, Group, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import type { AncillaryLine } from "@skyward/contracts/ancillaries";
import type { BookingDetails } from "@skyward/contracts/bookings";
import { paidByText } from "@skyward/contracts/cards";
import { IconArmchair, IconLuggage } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ancillaryName, segmentLabel } from "../../../components/travel/ancillary-name.ts";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { Modal } from "../../../components/ui/modal.tsx";
import { notifyApiError } from "../../../lib/api-client.ts";
import { allows } from "../../../lib/booking-actions.ts";
import { notify } from "../../../lib/notifications.ts";
import { personalData } from "../../../lib/personal-data.ts";
import { useRefundEmd } from "../api/ancillaries.ts";
import { AncillaryPicker } from "./ancillary-picker.tsx";
import { SeatMapPicker } from "./seat-map-picker.tsx";

const STATUS_COLORS: Record<AncillaryLine["status"], string> = {
  held: "gray",
  pending: "yellow",
  issued: "green",
  assigned: "teal",
  refunded: "orange",
  voided: "gray",
};

/**
 * The booking's bags and seats with their EMDs and amounts, and the buttons to add them (as the server's "what can I
 * do now" allows) or refund an unused EMD.
 */
export function AncillariesSection({ booking }: { booking: BookingDetails }) {
  const { t } = useTranslation("ancillaries");
  const formats = useFormats();
  const [open, setOpen] = useState<"bags" | "seats" | null>(null);
  const [refunding, setRefunding] = useState<AncillaryLine | null>(null);
  const refund = useRefundEmd(booking.locator);
  const lines = booking.ancillaries ?? [];
  const canAdd = allows(booking, "add_bags");
  const segments = new Map(booking.fare.flights.flatMap((f) => f.segments).map((s) => [s.id, s]));
  const refundable =
    booking.status === "issued" || booking.status === "exchanged" || booking.status === "refunded";
  if (lines.length === 0 && !canAdd) return null;

  const passengerName = (i: number) => {
    const p = booking.passengers[i];
    return p ? `${p.last_name}/${p.first_name}`.toUpperCase() : String(i + 1);
  };

  const confirmRefund = (line: AncillaryLine) => {
    if (!line.emd_number) return;
    refund.mutate(line.emd_number, {
      onSuccess: (response) => {
        notify({
          type: "success",
          text: t("refunded_notice", {
            emd: response.emd_number,
            amount: formats.money(response.credited ?? response.refunded ?? line.price),
          }),
        });
        setRefunding(null);
      },
      onError: notifyApiError,
    });
  };

  return (
    <Stack gap="xs" component="section" aria-label={t("title")}>
      <Group justify="space-between">
        <Title order={3} fz={14} fw={650}>
          {t("title")}
        </Title>
        {canAdd ? (
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              leftSection={<IconLuggage size={14} />}
              onClick={() => setOpen("bags")}
            >
              {t("add_bags")}
            </Button>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconArmchair size={14} />}
              onClick={() => setOpen("seats")}
            >
              {t("choose_seat")}
            </Button>
          </Group>
        ) : null}
      </Group>
      {booking.async_emd_issue ? (
        <Alert color="yellow" variant="light" role="status">
          {t("async_notice")}
        </Alert>
      ) : null}
      {lines.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t("none")}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table fz="xs" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("columns.passenger")}</Table.Th>
                <Table.Th>{t("columns.flight")}</Table.Th>
                <Table.Th>{t("columns.item")}</Table.Th>
                <Table.Th>{t("columns.emd")}</Table.Th>
                <Table.Th ta="right">{t("columns.amount")}</Table.Th>
                <Table.Th>{t("columns.paid_by")}</Table.Th>
                <Table.Th>{t("columns.status")}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t("columns.actions")}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) => {
                const segment = segments.get(line.segment_id);
                return (
                  <Table.Tr key={line.line_id} data-emd={line.emd_number ?? undefined}>
                    <Table.Td>{passengerName(line.passenger_index)}</Table.Td>
                    <Table.Td>{segment ? segmentLabel(segment) : line.segment_id}</Table.Td>
                    <Table.Td>
                      {ancillaryName(t, line)}
                      {line.seat ? ` · ${line.seat}` : ""}
                    </Table.Td>
                    <Table.Td ff="monospace">{line.emd_number ?? "—"}</Table.Td>
                    <Table.Td ta="right" fw={600}>
                      {formats.money(line.price)}
                    </Table.Td>
                    <Table.Td data-testid="emd-paid-by" {...personalData}>
                      {line.paid_by ? paidByText(line.paid_by, t("columns.paid_by_balance")) : "—"}
                    </Table.Td>
                    <Table.Td>
                      <Badge size="sm" variant="light" color={STATUS_COLORS[line.status]}>
                        {t(`status.${line.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {refundable && line.status === "issued" && line.emd_number && !booking.operation ? (
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          aria-label={t("refund_label", { emd: line.emd_number })}
                          onClick={() => setRefunding(line)}
                        >
                          {t("refund")}
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {open === "bags" ? <AncillaryPicker booking={booking} onClose={() => setOpen(null)} /> : null}
      {open === "seats" ? <SeatMapPicker booking={booking} onClose={() => setOpen(null)} /> : null}
      {refunding ? (
        <Modal
          opened
          closeButtonProps={{ "aria-label": t("close", { ns: "common" }) }}
          onClose={() => setRefunding(null)}
          title={
            <Title order={2} fz={16}>
              {t("refund_confirm_title", { emd: refunding.emd_number })}
            </Title>
          }
        >
          <Stack>
            <Text fz="sm">{t("refund_confirm_text", { amount: formats.money(refunding.price) })}</Text>
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setRefunding(null)}>
                {t("back")}
              </Button>
              <Button color="orange.9" loading={refund.isPending} onClick={() => confirmRefund(refunding)}>
                {t("confirm_refund")}
              </Button>
            </Group>
          </Stack>
        </Modal>
      ) : null}
    </Stack>
  );
}
