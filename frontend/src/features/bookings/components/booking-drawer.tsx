import { Drawer, Text } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorMessages, notifyApiError } from "../../../lib/api-client.ts";
import { bookingQueryOptions } from "../api/booking.ts";
import { dropFromLists } from "../api/booking-commands.ts";
import { BookingLoading, BookingOpenError, BookingPanel } from "./booking-panel.tsx";

/**
 * Opening a booking (`/bookings?locator=`), with the spec's outcomes of a failure (section 8): 416 (expired) takes
 * it out of the list and goes back to /bookings, 400 goes back, anything else leaves the booking open with an error.
 */
export function useOpenedBooking(locator: string | undefined) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = useQuery({
    ...bookingQueryOptions(locator ?? ""),
    enabled: Boolean(locator),
    // An airline still confirming answers within a minute: the page follows it without a reload.
    refetchInterval: (current) => (current.state.data?.provider_status === "in_progress" ? 5_000 : false),
  });
  const { error } = query;

  useEffect(() => {
    if (!error || !locator) return;
    notifyApiError(error);
    if (error instanceof ApiError && (error.status === 416 || error.status === 400)) {
      if (error.status === 416) dropFromLists(queryClient, locator);
      queryClient.removeQueries({ queryKey: bookingQueryOptions(locator).queryKey });
      void navigate({ to: "/bookings", search: {} });
    }
  }, [error, locator, queryClient, navigate]);

  const closesItself = error instanceof ApiError && (error.status === 416 || error.status === 400);
  return { ...query, openError: query.isError && !closesItself };
}

export function BookingDrawer({
  locator,
  opened,
  onClose,
}: {
  locator: string | undefined;
  opened: ReturnType<typeof useOpenedBooking>;
  onClose: () => void;
}) {
  const { t } = useTranslation("bookings");
  const { data } = opened;

  return (
    <Drawer
      opened={Boolean(locator)}
      onClose={onClose}
      position="right"
      size={820}
      padding="lg"
      title={
        <Text fw={650} c="dimmed" fz="sm">
          {locator ? t("locator", { locator }) : ""}
        </Text>
      }
      closeButtonProps={{ "aria-label": t("drawer.close") }}
    >
      {opened.isPending && locator ? <BookingLoading /> : null}
      {opened.openError ? (
        <BookingOpenError
          message={errorMessages(opened.error).join(" ")}
          onRetry={() => void opened.refetch()}
        />
      ) : null}
      {data && locator === data.locator ? <BookingPanel key={data.locator} booking={data} /> : null}
    </Drawer>
  );
}
