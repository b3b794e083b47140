import { Box, Button, Center, Stack, Text, Title } from "@mantine/core";
import { createRootRouteWithContext, Link, Outlet, useRouter } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { LandingHeader } from "../app/landing-header.tsx";
import type { RouterContext } from "../app/router-context.ts";
import { NotificationBar } from "../components/notification-bar.tsx";
import { cataloguesFor } from "../lib/i18n.ts";
import { useSession } from "../lib/session.ts";

export const Route = createRootRouteWithContext<RouterContext>()({
  // A signed-in screen opened from a public page (after signing in) waits for its language's full catalogues.
  beforeLoad: async ({ location }) => {
    await cataloguesFor(location.pathname).catch(() => undefined); // each namespace is asked for again on use
  },
  component: RootLayout,
  notFoundComponent: NotFound,
  errorComponent: RouteError,
});

/** The agents' keyboard shortcuts: signed-in screens only, so their code is not part of a signed-out first page. */
const KeyboardShortcuts = lazy(() =>
  import("../app/signed-in-chrome.ts").then((module) => ({ default: module.KeyboardShortcuts })),
);

function SignedInShortcuts() {
  const session = useSession();
  return session ? (
    <Suspense fallback={null}>
      <KeyboardShortcuts />
    </Suspense>
  ) : null;
}

// A sticky header over the page rather than Mantine's AppShell: no navbar or aside here, and AppShell brought its
// layout variables, resize handles and scroll locking (about 20 KB gzip) into every first page.
function RootLayout() {
  return (
    <>
      <LandingHeader />
      <NotificationBar />
      <SignedInShortcuts />
      <Box component="main" bg="var(--skyward-surface)" mih="calc(100dvh - var(--skyward-header-height))">
        <Outlet />
      </Box>
    </>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="xs" maw={420} ta="center">
        <Text c="dimmed" fw={600} fz="sm">
          404
        </Text>
        <Title order={2}>{t("not_found.title")}</Title>
        <Text c="dimmed">{t("not_found.description")}</Text>
        <Button component={Link} to="/" variant="light" mt="sm">
          {t("not_found.back_home")}
        </Button>
      </Stack>
    </Center>
  );
}

function RouteError() {
  const { t } = useTranslation();
  const router = useRouter();
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="xs" maw={420} ta="center">
        <Title order={2}>{t("error.title")}</Title>
        <Text c="dimmed">{t("error.description")}</Text>
        <Button variant="light" mt="sm" onClick={() => void router.invalidate()}>
          {t("error.retry")}
        </Button>
      </Stack>
    </Center>
  );
}
