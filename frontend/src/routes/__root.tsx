import { AppShell, Button, Center, Stack, Text, Title } from "@mantine/core";
import { createRootRouteWithContext, Link, Outlet, useRouter } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { LandingHeader } from "../app/landing-header.tsx";
import type { RouterContext } from "../app/router.ts";
import { NotificationBar } from "../components/notification-bar.tsx";

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
  errorComponent: RouteError,
});

function RootLayout() {
  return (
    <AppShell header={{ height: 56 }} padding={0}>
      <LandingHeader />
      <NotificationBar />
      <AppShell.Main bg="var(--skyward-surface)">
        <Outlet />
      </AppShell.Main>
    </AppShell>
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
