import { Box, Container, Group, Paper, Stack, Title } from "@mantine/core";
import type { BookingList } from "@skyward/contracts/bookings";
import { useTranslation } from "react-i18next";
import { Logo } from "../components/ui/logo.tsx";
import { BookingsHeading, ListEmpty, ListTabs } from "../features/bookings/components/page-parts.tsx";
import { Placeholder } from "../features/search/components/placeholder.tsx";

/**
 * Which first screen: the search page's start (no search in its address), or the bookings page on one of its lists,
 * its rows still to come or known to be none (the list's empty state).
 */
export type FirstScreenOf = { page: "search" } | { page: "bookings"; list: BookingList; empty: boolean };

/**
 * A block where a part that needs the app (a form, a picker, a list) comes, at the height it comes at (by the
 * screen's width: Mantine's breakpoints, measured in the browser on the search form and its text search).
 */
function Block({
  h,
  w = "100%",
}: {
  h: number | Partial<Record<"base" | "xs" | "sm" | "lg", number>>;
  w?: number | string;
}) {
  return (
    <Box
      h={h}
      w={w}
      style={{ borderRadius: 8, background: "var(--mantine-color-default-border)", opacity: 0.6 }}
    />
  );
}

/**
 * The first screen of a signed-in page as the server sends it (issue 27: the largest text paints before any script
 * runs; `frontend/scripts/first-screens.tsx` renders it at build time, in every language, and the server writes it
 * into the page): the header's frame and the page's own heading and empty state, made of the components the page
 * renders, with blocks at their size where the parts that need the app (navigation, forms, the list) come. The app
 * renders over it once started.
 */
export function FirstScreen({ of }: { of: FirstScreenOf }) {
  const { t } = useTranslation();
  return (
    // Inert and hidden from assistive technology, as the start-up skeleton it replaces: a click or a key before the
    // app has started would go nowhere, and a screen reader reads the page the app renders a moment later.
    <div data-first-screen={of.page} inert aria-hidden="true">
      <Box
        component="header"
        h="var(--skyward-header-height)"
        bg="var(--mantine-color-body)"
        style={{ borderBottom: "1px solid var(--mantine-color-default-border)" }}
      >
        <Container fluid px="lg" h="100%">
          <Group h="100%" wrap="nowrap">
            <a href="/" aria-label={t("header.home")} style={{ display: "block", flexShrink: 0 }}>
              <Logo />
            </a>
          </Group>
        </Container>
      </Box>
      <Box component="main" bg="var(--skyward-surface)" mih="calc(100dvh - var(--skyward-header-height))">
        {of.page === "search" ? <SearchStart /> : <BookingsStart list={of.list} empty={of.empty} />}
      </Box>
    </div>
  );
}

/** The search page's start (search-page.tsx): its title, the search box and the form, the empty state. */
function SearchStart() {
  const { t } = useTranslation("search");
  return (
    <Container fluid px="lg" py="md" maw={1480}>
      <Stack gap="md">
        <Stack gap="sm">
          <Title order={1} fz={22}>
            {t("title")}
          </Title>
          <Block h={{ base: 135, xs: 121, sm: 106 }} />
          <Block h={{ base: 350, xs: 279, sm: 208, lg: 138 }} />
        </Stack>
        <Placeholder title={t("empty.title")} text={t("empty.text")} />
      </Stack>
    </Container>
  );
}

/** The bookings page (bookings-page.tsx): its heading and tabs, the list's empty state or the list to come. */
function BookingsStart({ list, empty }: { list: BookingList; empty: boolean }) {
  const { t } = useTranslation("bookings");
  return (
    <Container fluid px="lg" py="md" maw={1480}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <BookingsHeading title={t("title")} lead={t("lead")} />
          <Block h={46} w={260} />
        </Group>
        <Paper withBorder radius="md" style={{ overflow: "hidden" }}>
          <Group justify="space-between" wrap="wrap" gap="xs" px="sm" pt={6}>
            <ListTabs list={list} onList={() => undefined} />
          </Group>
          {empty ? (
            <ListEmpty title={t(`empty.${list}`)} text={t("empty.text")} />
          ) : (
            <Stack gap={8} p="sm">
              {[0, 1, 2, 3, 4].map((row) => (
                <Block key={row} h={36} />
              ))}
            </Stack>
          )}
        </Paper>
      </Stack>
    </Container>
  );
}
