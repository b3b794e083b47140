import { Anchor, Group, Paper, Text } from "@mantine/core";
import { IconMail } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";

/**
 * The address being signed in, with the way back to the e-mail step. Apart from the steps' header (step-header.tsx):
 * only the steps after the e-mail show it, and it loads with them (later-steps.ts).
 */
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
