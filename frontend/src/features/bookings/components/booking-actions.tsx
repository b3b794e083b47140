import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import { IconBan, IconRefresh, IconTicket } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useMachine } from "@xstate/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBookingExtensions } from "../../../components/booking-extensions.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { Modal } from "../../../components/ui/modal.tsx";
import { notify } from "../../../lib/notifications.ts";
import { refreshBooking, useRepriceBooking, useVoidOrCancel } from "../api/booking-commands.ts";
import { issueMachine } from "../machines/issue.machine.ts";

/** Whether the server allows an action now ("what can I do now": one rule, decided there, never copied here). */
export const allows = (booking: BookingDetails, action: string): boolean =>
  booking.actions?.some((a) => a.action === action && a.allowed) ?? false;

/**
 * Issue (with confirmation and the airline's price change), reprice, void or cancel, each offered as the server's
 * "what can I do now" allows it; the route's extensions add refund and exchange beside them.
 */
export function BookingActions({ booking }: { booking: BookingDetails }) {
  const { t } = useTranslation("bookings");
  const formats = useFormats();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [issue, sendIssue, issueActor] = useMachine(issueMachine, { input: { locator: booking.locator } });
  const reprice = useRepriceBooking();
  const removal = useVoidOrCancel();
  const [confirmRemoval, setConfirmRemoval] = useState(false);
  const { locator } = booking;
  const extensions = useBookingExtensions();

  useEffect(() => {
    const issued = issueActor.on("issued", ({ response }) => {
      notify({ type: "success", text: t("actions.issued", { locator, count: response.tickets.length }) });
      void refreshBooking(queryClient, locator, { balance: true });
    });
    // The booking now carries the airline's new price (pending_price): read it to show it.
    const changed = issueActor.on("price_changed", () => void refreshBooking(queryClient, locator));
    return () => {
      issued.unsubscribe();
      changed.unsubscribe();
    };
  }, [issueActor, queryClient, locator, t]);

  const held = booking.status === "held";
  const confirming = booking.provider_status === "in_progress";
  const voidable = allows(booking, "void");
  // What the void gives back is the server's word (the charge less EMD refunds), never the fare's price.
  const voidMoney = booking.actions?.find((a) => a.action === "void")?.money ?? null;
  const removing = allows(booking, "cancel") || voidable;
  const issuing = issue.matches("issuing");
  const newPrice = booking.pending_price?.price;

  const remove = () =>
    removal.mutate(locator, {
      onSuccess: (response) => {
        setConfirmRemoval(false);
        notify({
          type: "success",
          text: t(response.status === "voided" ? "actions.voided" : "actions.cancelled", { locator }),
        });
        void navigate({ to: "/bookings", search: {} });
      },
    });

  return (
    <Stack gap="sm">
      {issue.matches("priceChanged") ? (
        <Alert color="orange" variant="light" title={t("actions.price_changed_title")}>
          <Stack gap="xs">
            <Text fz="sm">
              {newPrice
                ? t("actions.price_changed_text", {
                    old: formats.money(booking.price),
                    new: formats.money(newPrice),
                  })
                : issue.context.priceChange}
            </Text>
            <Group gap="xs">
              <Button size="xs" color="orange" onClick={() => sendIssue({ type: "issue.accept_price" })}>
                {t("actions.issue_new_price")}
              </Button>
              <Button size="xs" variant="default" onClick={() => sendIssue({ type: "issue.cancel" })}>
                {t("actions.not_now")}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      <Group gap="xs">
        {held ? (
          <Button
            leftSection={<IconTicket size={15} />}
            onClick={() => sendIssue({ type: "issue.request" })}
            loading={issuing}
            disabled={confirming || issue.matches("priceChanged") || !allows(booking, "issue")}
          >
            {t("actions.issue")}
          </Button>
        ) : null}
        {held ? (
          <Button
            variant="default"
            leftSection={<IconRefresh size={15} />}
            loading={reprice.isPending}
            disabled={confirming || issuing}
            onClick={() =>
              reprice.mutate(locator, {
                onSuccess: (response) =>
                  notify({
                    type: "success",
                    text: response.changed
                      ? t("actions.repriced_changed", { locator, amount: formats.money(response.price) })
                      : t("actions.repriced_same", { locator }),
                  }),
              })
            }
          >
            {t("actions.reprice")}
          </Button>
        ) : null}
        {removing ? (
          <Button
            variant="light"
            color="red"
            leftSection={<IconBan size={15} />}
            disabled={issuing}
            onClick={() => setConfirmRemoval(true)}
          >
            {voidable ? t("actions.void") : t("actions.cancel_booking")}
          </Button>
        ) : null}
        {extensions.actions?.(booking)}
      </Group>

      <Modal
        closeButtonProps={{ "aria-label": t("close", { ns: "common" }) }}
        opened={issue.matches("confirming") || issuing}
        onClose={() => sendIssue({ type: "issue.cancel" })}
        title={<Text fw={650}>{t("actions.issue_confirm_title", { locator })}</Text>}
        size="md"
      >
        <Stack gap="md">
          <Text fz="sm">
            {booking.fake_booking
              ? t("actions.issue_confirm_fake")
              : t("actions.issue_confirm_text", { amount: formats.money(booking.price) })}
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => sendIssue({ type: "issue.cancel" })} disabled={issuing}>
              {t("actions.back")}
            </Button>
            <Button onClick={() => sendIssue({ type: "issue.confirm" })} loading={issuing} data-autofocus>
              {t("actions.confirm_issue")}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        closeButtonProps={{ "aria-label": t("close", { ns: "common" }) }}
        opened={confirmRemoval}
        onClose={() => setConfirmRemoval(false)}
        title={
          <Text fw={650}>
            {voidable
              ? t("actions.void_confirm_title", { locator })
              : t("actions.cancel_confirm_title", { locator })}
          </Text>
        }
        size="md"
      >
        <Stack gap="md">
          <Text fz="sm">
            {voidable
              ? t("actions.void_confirm_text", { amount: voidMoney ? formats.money(voidMoney) : "—" })
              : t("actions.cancel_confirm_text")}
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirmRemoval(false)} disabled={removal.isPending}>
              {t("actions.keep_booking")}
            </Button>
            <Button color="red" onClick={remove} loading={removal.isPending} data-autofocus>
              {voidable ? t("actions.confirm_void") : t("actions.confirm_cancel")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
