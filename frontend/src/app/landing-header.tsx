import { Box, Container, Group, UnstyledButton } from "@mantine/core";
// The bell's badge sheet (0.5 KB) in the shell's sheet: the bell's chunk then brings no sheet, one request fewer.
import "@mantine/core/styles/Indicator.css";
import { Link } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Logo } from "../components/ui/logo.tsx";
import { UserMenu } from "../features/account/components/user-menu.tsx";
import { LanguagePicker } from "../features/language/components/language-picker.tsx";
import type { Language } from "../lib/i18n.ts";
import { useSession } from "../lib/session.ts";
import { MainNav } from "./main-nav.tsx";

/** The landing header offers fewer languages than the product (seed spec, section 2). */
export const LANDING_LANGUAGES: readonly Language[] = ["en", "ua", "pl"];

/** The bell of the signed-in user's notifications: its code comes with the first signed-in screen, not before. */
const NotificationBell = lazy(() =>
  import("./signed-in-chrome.ts").then((module) => ({ default: module.NotificationBell })),
);

export function LandingHeader() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Box
      component="header"
      h="var(--skyward-header-height)"
      bg="var(--mantine-color-body)"
      pos="sticky"
      top={0}
      style={{
        zIndex: "var(--mantine-z-index-app)",
        borderBottom: "1px solid var(--mantine-color-default-border)",
      }}
    >
      <Container fluid px="lg" h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap" miw={0} style={{ flex: 1 }}>
            <UnstyledButton component={Link} to="/" aria-label={t("header.home")} style={{ flexShrink: 0 }}>
              <Logo />
            </UnstyledButton>
            {/* Narrower than the nav (a phone, the longer languages): what does not fit goes into a menu. */}
            <MainNav />
          </Group>
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            {/* On a phone the picker shows its globe only; its name still says the language. */}
            <Box className="skyward-compact-language">
              <LanguagePicker languages={LANDING_LANGUAGES} />
            </Box>
            {session ? (
              <Suspense fallback={null}>
                <NotificationBell />
              </Suspense>
            ) : null}
            <UserMenu />
          </Group>
        </Group>
      </Container>
    </Box>
  );
}
