import { Center, Paper, Stack, Text, ThemeIcon } from "@mantine/core";
import { IconPlane } from "@tabler/icons-react";
import type { ReactNode } from "react";

/**
 * The search page's empty state (start, nothing found): also the largest text of its first screen, which the server
 * sends painted before the app starts (app/first-screen.tsx), so both are this one component.
 */
export function Placeholder({ title, text, action }: { title: string; text: string; action?: ReactNode }) {
  return (
    <Paper withBorder radius="md" py={56} px="md">
      <Center>
        <Stack align="center" gap={6} maw={420} ta="center">
          <ThemeIcon variant="light" size={42} radius="xl">
            <IconPlane size={20} />
          </ThemeIcon>
          <Text fw={600}>{title}</Text>
          <Text fz="sm" c="dimmed">
            {text}
          </Text>
          {action}
        </Stack>
      </Center>
    </Paper>
  );
}
