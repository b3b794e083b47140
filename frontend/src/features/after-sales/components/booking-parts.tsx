// The after-sales parts of an opened booking (its actions, what can be done now, its history and mails): loaded with
// the booking's own screen (extensions.tsx), not with the bookings list.
import { Button } from "@mantine/core";
import type { BookingDetails, FlightsChangeConfirmResponse } from "@skyward/contracts/bookings";
import { IconArrowsExchange, IconReceiptRefund } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { allows } from "../../../lib/booking-actions.ts";
import { notify } from "../../../lib/notifications.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import type { RefundConfirmResponse } from "../api/refund.ts";
import { AfterSalesHistory } from "./after-sales-history.tsx";
import { BookingNow } from "./booking-now.tsx";
import { ItineraryMails } from "./itinerary-mails.tsx";
import { ScheduleChangePanel } from "./schedule-change-panel.tsx";

// The dialogs, their forms and state machines load when an agent opens one, not with every bookings page.
const RefundDialog = lazy(() => import("./refund-dialog.tsx").then((m) => ({ default: m.RefundDialog })));
const ExchangeDialog = lazy(() =>
  import("./exchange-dialog.tsx").then((m) => ({ default: m.ExchangeDialog })),
);

/** Refund and exchange buttons, each as the server allows it, with their dialogs and outcomes. */
export function AfterSalesActions({ booking }: { booking: BookingDetails }) {
  const { t } = useTranslation("after-sales");
  const formats = useFormats();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState<"refund" | "exchange" | null>(null);
  const { locator } = booking;

  const moved = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.booking(locator) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.bookingLists }),
        queryClient.invalidateQueries({ queryKey: queryKeys.balances }),
      ]),
    [queryClient, locator],
  );
  const refunded = useCallback(
    (response: RefundConfirmResponse) => {
      setOpen(null);
      notify({
        type: "success",
        text: response.credited
          ? t("refund.done", { locator, amount: formats.money(response.credited) })
          : t("refund.done_nothing", { locator }),
      });
      void moved();
      // Spec: a refunded booking leaves the open list, and the agent is back at the list.
      if (response.status === "refunded") void navigate({ to: "/bookings", search: {} });
    },
    [formats, locator, moved, navigate, t],
  );
  const exchanged = useCallback(
    (response: FlightsChangeConfirmResponse) => {
      setOpen(null);
      const count = response.tickets.length;
      notify({
        type: "success",
        text: response.charged
          ? t("exchange.done", { locator, count, amount: formats.money(response.charged) })
          : t("exchange.done_free", { locator, count }),
      });
      void moved();
      // Spec: an exchange's confirmation takes the agent to the booking.
      void navigate({ to: "/bookings", search: { locator } });
    },
    [formats, locator, moved, navigate, t],
  );

  return (
    <>
      {allows(booking, "refund") ? (
        <Button
          variant="default"
          leftSection={<IconReceiptRefund size={15} />}
          onClick={() => setOpen("refund")}
        >
          {t("refund.open")}
        </Button>
      ) : null}
      {allows(booking, "exchange") ? (
        <Button
          variant="default"
          leftSection={<IconArrowsExchange size={15} />}
          onClick={() => setOpen("exchange")}
        >
          {t("exchange.open")}
        </Button>
      ) : null}
      <Suspense fallback={null}>
        {open === "refund" ? (
          <RefundDialog booking={booking} opened onClose={() => setOpen(null)} onDone={refunded} />
        ) : null}
        {open === "exchange" ? (
          <ExchangeDialog booking={booking} opened onClose={() => setOpen(null)} onDone={exchanged} />
        ) : null}
      </Suspense>
    </>
  );
}

export { AfterSalesHistory, BookingNow, ItineraryMails, ScheduleChangePanel };
