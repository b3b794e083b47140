import { Anchor, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { IconMail } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The title and lead of a sign-in step. */
export function StepHeader({ title, lead }: { title: string; lead?: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={1} fz={24}>
        {title}
      </Title>
      {lead ? (
        <Text c="dimmed" fz="sm">
          {lead}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The address being signed in, with the way back to the e-mail step. */
export function EmailBadge({ email, onChange }: { email: string; onChange: () => void }) {
  const { t } = useTranslation("sign-in");
  return (
    <Paper withBorder radius="md" px="sm" py={8} bg="var(--skyward-surface)">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap={8} wrap="nowrap" miw={0}>
          <IconMail size={16} color="var(--mantine-color-dimmed)" />
          <Text fz="sm" fw={500} truncate="end" data-testid="sign-in-email">
            {email}
          </Text>
        </Group>
        <Anchor component="button" type="button" fz="sm" fw={500} onClick={onChange}>
          {t("actions.change_email")}
        </Anchor>
      </Group>
    </Paper>
  );
}
