import { Alert, Button, Group, Stack, Table, Text } from "@mantine/core";
import type { BalanceRow } from "@skyward/contracts/balances";
import type { BookingDetails, IssueCharge } from "@skyward/contracts/bookings";
import type { Money } from "@skyward/contracts/money";
import { IconBan, IconRefresh, IconTicket } from "@tabler/icons-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useMachine } from "@xstate/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBookingExtensions } from "../../../components/booking-extensions.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { Modal } from "../../../components/ui/modal.tsx";
import { balancesQueryOptions } from "../../../lib/balances.ts";
import { allows } from "../../../lib/booking-actions.ts";
import { notify } from "../../../lib/notifications.ts";
import { refreshBooking, useRepriceBooking, useVoidOrCancel } from "../api/booking-commands.ts";
import { issueMachine } from "../machines/issue.machine.ts";

/** What issue charges, as the server says (fare + extras); a server without the split: the fare alone. */
function issueChargeOf(booking: BookingDetails): IssueCharge {
  if (booking.issue_charge) return booking.issue_charge;
  const zero = { amount: 0, currency: booking.price.currency };
  return { fare: booking.price, extras: zero, total: booking.price };
}

/** What the balance lacks to pay `total` within its credit limit, or null when it can (or is unknown, or differs). */
export function shortfall(balance: BalanceRow | null, total: Money): Money | null {
  if (!balance || balance.balance_amount.currency !== total.currency) return null;
  const limit = balance.credit_limit?.currency === total.currency ? balance.credit_limit.amount : 0;
  const missing = total.amount - balance.balance_amount.amount - limit;
  return missing > 0 ? { amount: missing, currency: total.currency } : null;
}

/** The issue's figures: fare, extras and the total charged; the company balance before and after it. */
function IssueFigures({ charge, balance }: { charge: IssueCharge; balance: BalanceRow | null }) {
  const { t } = useTranslation("bookings");
  const formats = useFormats();
  const row = (label: string, money: Money, testId: string, strong?: boolean) => (
    <Table.Tr>
      <Table.Td>
        {strong ? (
          <Text fw={650} fz="sm">
            {label}
          </Text>
        ) : (
          label
        )}
      </Table.Td>
      <Table.Td ta="right">
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
      </Table.Td>
    </Table.Tr>
  );
  const after =
    balance && balance.balance_amount.currency === charge.total.currency
      ? { amount: balance.balance_amount.amount - charge.total.amount, currency: charge.total.currency }
      : null;
  return (
    <Table fz="sm" verticalSpacing={4} withTableBorder aria-label={t("actions.issue_figures")}>
      <Table.Tbody>
        {row(t("actions.issue_fare"), charge.fare, "issue-fare")}
        {row(t("actions.issue_extras"), charge.extras, "issue-extras")}
        {row(t("actions.issue_total"), charge.total, "issue-total", true)}
        {balance ? row(t("actions.balance_before"), balance.balance_amount, "issue-balance-before") : null}
        {after ? row(t("actions.balance_after"), after, "issue-balance-after") : null}
      </Table.Tbody>
    </Table>
  );
}

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
  const charge = issueChargeOf(booking);
  // The company balance the agent may read (GET /balances): shown before and after the charge when issue takes it
  // from there (not a demo booking, not a channel paying by card); a demo user reads none.
  const byBalance = !booking.fake_booking && booking.issue_paid_by !== "card";
  const balances = useQuery({ ...balancesQueryOptions(), enabled: held && byBalance });
  const balance = byBalance
    ? (balances.data?.find((b) => b.company_id === booking.company_id) ?? null)
    : null;
  const short = byBalance ? shortfall(balance, charge.total) : null;

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
              : t(byBalance ? "actions.issue_confirm_text" : "actions.issue_confirm_card", {
                  amount: formats.money(charge.total),
                })}
          </Text>
          {booking.fake_booking ? null : <IssueFigures charge={charge} balance={balance} />}
          {short && balance ? (
            <Alert color="red" variant="light" data-testid="issue-balance-short">
              {t("actions.issue_balance_short", {
                balance: formats.money(balance.balance_amount),
                amount: formats.money(charge.total),
                missing: formats.money(short),
              })}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => sendIssue({ type: "issue.cancel" })} disabled={issuing}>
              {t("actions.back")}
            </Button>
            <Button
              onClick={() => sendIssue({ type: "issue.confirm" })}
              loading={issuing}
              disabled={short !== null}
              data-autofocus
            >
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
