import { Center, Loader, Text } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBookingExtensions } from "../../../components/booking-extensions.tsx";
import { LoadFailed, type Reloadable } from "../../../components/load-failed.tsx";
import { useEscapeLayer } from "../../../components/ui/layers.ts";
import { ApiError, notifyApiError } from "../../../lib/api-client.ts";
import { bookingQueryOptions } from "../api/booking.ts";
import { dropFromLists } from "../api/booking-commands.ts";

// The booking's own screen (tickets, passengers, actions, dialogs) loads when a booking is opened, not with the list.
const loadPanel = () => import("./booking-panel.tsx");
const BookingPanel = lazy(() => loadPanel().then((m) => ({ default: m.BookingPanel })));
// The drawer itself (Mantine's Drawer, its overlay, focus trap and scroll lock) too: the list's first paint has none.
const loadDrawer = () => import("../../../components/ui/drawer.tsx");
const Drawer = lazy(() => loadDrawer().then((m) => ({ default: m.Drawer })));

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
  const { preload } = useBookingExtensions();
  // The screen's code (the drawer, the panel, what other features add to it) comes beside the booking's data rather
  // than after it.
  useEffect(() => {
    if (locator) void Promise.all([loadDrawer(), loadPanel(), preload?.()]).catch(() => undefined);
  }, [locator, preload]);

  useEffect(() => {
    if (!error || !locator) return;
    notifyApiError(error);
    if (error instanceof ApiError && (error.status === 416 || error.status === 400)) {
      if (error.status === 416) dropFromLists(queryClient, locator);
      queryClient.removeQueries({ queryKey: bookingQueryOptions(locator).queryKey });
      void navigate({ to: "/bookings", search: (prev) => ({ ...prev, locator: undefined }) });
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
  // Escape closes an opened booking even before the drawer's code has come (the drawer, once there, is the layer
  // above this one and takes Escape itself).
  useEscapeLayer(Boolean(locator), onClose);
  // Mounted from the first opening on, so closing it still slides it out.
  const [wanted, setWanted] = useState(Boolean(locator));
  if (locator && !wanted) setWanted(true);
  if (!wanted) return null;

  return (
    <Suspense fallback={null}>
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
        {opened.openError ? <BookingOpenError opened={opened} /> : null}
        {data && locator === data.locator ? (
          <Suspense fallback={<BookingLoading />}>
            <BookingPanel key={data.locator} booking={data} />
          </Suspense>
        ) : null}
      </Drawer>
    </Suspense>
  );
}

/** While the booking (or its screen's code) loads. */
export function BookingLoading() {
  return (
    <Center py={80}>
      <Loader size="sm" />
    </Center>
  );
}

/** The opened booking could not be read (spec section 8: the booking gets an open error flag). */
export function BookingOpenError({ opened }: { opened: Reloadable }) {
  const { t } = useTranslation("bookings");
  return (
    <div data-open-error>
      <LoadFailed query={opened} title={t("drawer.error_title")} />
    </div>
  );
}
