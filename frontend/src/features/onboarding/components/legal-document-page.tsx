import { Anchor, Container, Divider, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { TERMS_VERSION } from "@skyward/contracts/account";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { LEGAL_DOCUMENTS, type LegalDocument } from "./legal-links.ts";

const KEY = {
  "privacy-policy": "privacy_policy",
  "website-terms": "website_terms",
  "extension-terms": "extension_terms",
  "communication-policy": "communication_policy",
} as const satisfies Record<LegalDocument, string>;

/** One of the documents a user accepts: privacy policy, website terms, extension terms, communication policy. */
export function LegalDocumentPage({ document }: { document: LegalDocument }) {
  const { t } = useTranslation("legal");
  const key = KEY[document];
  // Sections come in the catalogue's order, so a translation can never drop or add one unnoticed (catalogue test).
  const sections: Record<string, { title: string; text: string }> = t(`${key}.sections`, {
    returnObjects: true,
  });
  return (
    <Container size={720} py={48}>
      <Stack gap="lg">
        <Stack gap={6}>
          <Text c="dimmed" fz="sm" fw={500}>
            {t("eyebrow")}
          </Text>
          <Title order={1} fz={30}>
            {t(`${key}.title`)}
          </Title>
          <Text c="dimmed" fz="sm">
            {t("version", { version: TERMS_VERSION })}
          </Text>
        </Stack>
        <Paper withBorder radius="md" p="xl">
          <Stack gap="lg">
            <Text>{t(`${key}.intro`)}</Text>
            {Object.entries(sections).map(([name, section]) => (
              <Stack key={name} gap={6}>
                <Title order={2} fz={18}>
                  {section.title}
                </Title>
                <Text c="var(--mantine-color-text)" lh={1.6}>
                  {section.text}
                </Text>
              </Stack>
            ))}
          </Stack>
        </Paper>
        <Divider />
        <Group gap="lg">
          {LEGAL_DOCUMENTS.filter((other) => other !== document).map((other) => (
            <Anchor
              key={other}
              fz="sm"
              renderRoot={(props) => <Link {...props} to="/legal/$document" params={{ document: other }} />}
            >
              {t(`${KEY[other]}.title`)}
            </Anchor>
          ))}
        </Group>
      </Stack>
    </Container>
  );
}
