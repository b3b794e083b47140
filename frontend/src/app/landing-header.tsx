import { AppShell, Container, Group, UnstyledButton } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { Logo } from "../components/ui/logo.tsx";
import { LanguagePicker } from "../features/language/components/language-picker.tsx";
import type { Language } from "../lib/i18n.ts";

/** The landing header offers fewer languages than the product (seed spec, section 2). */
export const LANDING_LANGUAGES: readonly Language[] = ["en", "ua", "pl"];

export function LandingHeader() {
  const { t } = useTranslation();
  return (
    <AppShell.Header withBorder>
      <Container fluid px="lg" h="100%">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <UnstyledButton component={Link} to="/" aria-label={t("header.home")}>
            <Logo />
          </UnstyledButton>
          <LanguagePicker languages={LANDING_LANGUAGES} />
        </Group>
      </Container>
    </AppShell.Header>
  );
}
