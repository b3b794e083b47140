import {
  Box,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import type { BookingList } from "@skyward/contracts/bookings";
import { IconPlane, IconSearch } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { memo, type ReactNode, useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useBookingExtensions } from "../../../components/booking-extensions.tsx";
import { LoadFailed, shownInline } from "../../../components/load-failed.tsx";
import { DateField } from "../../../components/travel/date-field.tsx";
import { bookingListQueryOptions } from "../api/booking-list.ts";
import { listOfStatus, PER_PAGE } from "../lists.ts";
import { BookingDrawer, useOpenedBooking } from "./booking-drawer.tsx";
import { BookingTable } from "./booking-table.tsx";
import { BookingsHeading, ListEmpty, ListTabs } from "./page-parts.tsx";

/** What the address keeps of the list (`/bookings?list=&q=&page=&locator=`): absent means "new", "", 1, none. */
export interface BookingsView {
  list: BookingList | undefined;
  q: string | undefined;
  page: number | undefined;
  locator: string | undefined;
}

/**
 * The list's search box: a keystroke renders the box alone, and the list follows the text 300 ms after the last key
 * (issue 27's interaction budget: the page with a list of thousands re-renders only then).
 */
const SearchBox = memo(function SearchBox({
  query,
  onSearch,
}: {
  query: string;
  onSearch: (text: string) => void;
}) {
  const { t } = useTranslation("bookings");
  const [text, setText] = useState(query);
  // A query changed from outside (back, a link) shows in the field.
  const [shownQuery, setShownQuery] = useState(query);
  if (shownQuery !== query) {
    setShownQuery(query);
    setText(query);
  }
  const search = useDebouncedCallback(onSearch, 300);
  return (
    <TextInput
      data-shortcut="search"
      aria-label={t("search_label")}
      placeholder={t("search_placeholder")}
      leftSection={<IconSearch size={14} />}
      w={320}
      maw="100%"
      size="xs"
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        search(event.currentTarget.value);
      }}
    />
  );
});

/**
 * The booking lists (new, issued, cancelled, refunded), the text search within the chosen list, and the opened
 * booking in a drawer. The list, the search and the page live in the address, so a reload or a shared link keeps them.
 */
export function BookingsPage({
  view,
  onView,
  aside,
}: {
  view: BookingsView;
  /** Moves the address to another view; `replace` while typing, so each keystroke is no history entry. */
  onView: (next: BookingsView, options?: { replace?: boolean }) => void;
  aside?: ReactNode;
}) {
  const { t } = useTranslation("bookings");
  const extensions = useBookingExtensions();
  const { locator } = view;
  const list = view.list ?? "new";
  const query = view.q ?? "";
  const page = view.page ?? 1;
  const show = (next: Partial<BookingsView>, options?: { replace?: boolean }) =>
    onView(
      {
        ...view,
        ...next,
        list: (next.list ?? list) === "new" ? undefined : (next.list ?? list),
        q: ("q" in next ? next.q : view.q) || undefined,
        page: next.page && next.page > 1 ? next.page : undefined,
      },
      options,
    );
  const showRef = useRef(show);
  showRef.current = show;
  const showList = useCallback((next: BookingList) => showRef.current({ list: next, page: 1 }), []);
  const search = useCallback(
    (value: string) => showRef.current({ q: value.trim(), page: 1 }, { replace: true }),
    [],
  );

  const [createdFrom, setCreatedFrom] = useState<string | null>(null);
  const [createdTo, setCreatedTo] = useState<string | null>(null);
  const [byTimeLimit, setByTimeLimit] = useState(false);
  const queue = byTimeLimit && list === "new";
  const bookings = useQuery({
    ...bookingListQueryOptions({
      list,
      q: query,
      page,
      perPage: PER_PAGE,
      createdFrom,
      createdTo,
      byTimeLimit: queue,
    }),
    ...shownInline,
  });
  const rows = bookings.data?.data ?? [];
  const total = bookings.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const searching = query.trim().length > 0;

  const opened = useOpenedBooking(locator);
  const openedStatus = opened.data?.status;
  // A booking opened by a link that names no list shows among its kind (issued and exchanged: "issued").
  const listNamed = view.list !== undefined;
  const showOwnList = useEffectEvent((status: string) => {
    const own = listOfStatus(status);
    if (own !== list) show({ list: own, page: 1 }, { replace: true });
  });
  useEffect(() => {
    if (openedStatus && !searching && !listNamed) showOwnList(openedStatus);
  }, [openedStatus, searching, listNamed]);

  return (
    <Container fluid px="lg" py="md" maw={1480}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <BookingsHeading title={t("title")} lead={t("lead")} />
          <Group gap="sm" wrap="wrap" align="stretch">
            {aside}
            <Button
              component={Link}
              to="/search"
              leftSection={<IconPlane size={15} />}
              style={{ alignSelf: "center" }}
            >
              {t("new_search")}
            </Button>
          </Group>
        </Group>

        {extensions.notices}

        <Paper withBorder radius="md" style={{ overflow: "hidden" }}>
          <Group justify="space-between" wrap="wrap" gap="xs" px="sm" pt={6}>
            <ListTabs list={list} onList={showList} />
            {/* Outside the tab list: a tablist may hold only tabs (axe aria-required-children). */}
            <Group gap="xs" wrap="wrap" pb={6} role="search">
              {list === "new" ? (
                <Switch
                  size="xs"
                  label={t("filters.queue")}
                  title={t("filters.queue_hint")}
                  checked={byTimeLimit}
                  onChange={(event) => {
                    setByTimeLimit(event.currentTarget.checked);
                    show({ page: 1 });
                  }}
                />
              ) : null}
              <DateField
                size="xs"
                w={140}
                aria-label={t("filters.created_from")}
                placeholder={t("filters.created_from")}
                clearable
                value={createdFrom}
                onChange={(value) => {
                  setCreatedFrom(value);
                  show({ page: 1 });
                }}
              />
              <DateField
                size="xs"
                w={140}
                aria-label={t("filters.created_to")}
                placeholder={t("filters.created_to")}
                clearable
                value={createdTo}
                onChange={(value) => {
                  setCreatedTo(value);
                  show({ page: 1 });
                }}
              />
              {bookings.isFetching ? <Loader size={14} /> : null}
              <SearchBox query={query} onSearch={search} />
            </Group>
          </Group>
          {searching ? (
            <Text fz="xs" c="dimmed" px="sm" py={6} bg="var(--skyward-warning-surface)">
              {t("searching_list", { query, list: t(`lists.${list}`) })}
            </Text>
          ) : null}
          {bookings.isError ? (
            <Box p="sm">
              <LoadFailed query={bookings} />
            </Box>
          ) : bookings.isPending ? (
            <Center py={60}>
              <Loader size="sm" />
            </Center>
          ) : rows.length === 0 ? (
            <ListEmpty
              title={searching ? t("empty.nothing_found", { query }) : t(`empty.${list}`)}
              text={t("empty.text")}
            />
          ) : (
            <BookingTable rows={rows} openLocator={locator} showTimeLimit={list === "new" || searching} />
          )}
          {total > 0 ? (
            <Group
              justify="space-between"
              px="sm"
              py="xs"
              style={{ borderTop: "1px solid var(--skyward-border)" }}
            >
              <Text fz="xs" c="dimmed">
                {t("pagination", {
                  from: (page - 1) * PER_PAGE + 1,
                  to: Math.min(page * PER_PAGE, total),
                  total,
                })}
              </Text>
              {pages > 1 ? (
                <Pagination size="sm" total={pages} value={page} onChange={(next) => show({ page: next })} />
              ) : null}
            </Group>
          ) : null}
        </Paper>
      </Stack>
      <BookingDrawer locator={locator} opened={opened} onClose={() => show({ locator: undefined })} />
    </Container>
  );
}
