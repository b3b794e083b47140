import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import { IconBan, IconRefresh, IconTicket } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useMachine } from "@xstate/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { notify } from "../../../lib/notifications.ts";
import { refreshBooking, useRepriceBooking, useVoidOrCancel } from "../api/booking-commands.ts";
import { issueMachine } from "../machines/issue.machine.ts";

/** Whether the void window is still open: issued bookings of carriers that allow a void, until `void_until`. */
export function canVoid(booking: BookingDetails, now: number = Date.now()): boolean {
  return booking.status === "issued" && booking.void_until !== null && Date.parse(booking.void_until) > now;
}

/** Issue (with confirmation and the airline's price change), reprice, and void or cancel. */
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
  const voidable = canVoid(booking);
  const removing = held || voidable;
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
            disabled={confirming || issue.matches("priceChanged")}
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
        {booking.status === "issued" && !voidable ? (
          <Text fz="xs" c="dimmed">
            {t("actions.void_window_closed")}
          </Text>
        ) : null}
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
              ? t("actions.void_confirm_text", { amount: formats.money(booking.price) })
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
