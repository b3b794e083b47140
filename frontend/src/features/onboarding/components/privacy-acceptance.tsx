import { Anchor, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconShieldCheck } from "@tabler/icons-react";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { LegalDocument } from "./legal-links.ts";

function DocumentLink({ document, children }: { document: LegalDocument; children?: ReactNode }) {
  return (
    <Anchor
      fw={500}
      underline="always"
      inherit
      renderRoot={(props) => (
        <Link {...props} to="/legal/$document" params={{ document }} target="_blank" rel="noopener" />
      )}
    >
      {children}
    </Anchor>
  );
}

/** The privacy acceptance screen (seed spec, section 2): title, description with the four documents, Accept. */
export function PrivacyAcceptance({ busy, onAccept }: { busy: boolean; onAccept: () => void }) {
  const { t } = useTranslation("onboarding");
  return (
    <Stack gap="lg">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size={44} radius="md">
          <IconShieldCheck size={24} />
        </ThemeIcon>
        <Stack gap={6}>
          <Title order={2} fz={20}>
            {t("privacy.title")}
          </Title>
          <Text fz="sm" c="dimmed">
            <Trans
              t={t}
              i18nKey="privacy.description"
              components={{
                policy: <DocumentLink document="privacy-policy" />,
                website: <DocumentLink document="website-terms" />,
                extension: <DocumentLink document="extension-terms" />,
                communication: <DocumentLink document="communication-policy" />,
              }}
            />
          </Text>
        </Stack>
      </Group>
      <Paper withBorder radius="md" p="md" bg="var(--skyward-surface)">
        <Stack gap={6}>
          {(["data", "codes", "messages"] as const).map((point) => (
            <Text key={point} fz="sm">
              {t(`privacy.points.${point}`)}
            </Text>
          ))}
        </Stack>
      </Paper>
      <Group justify="flex-end">
        <Button onClick={onAccept} loading={busy}>
          {t("privacy.accept")}
        </Button>
      </Group>
    </Stack>
  );
}
