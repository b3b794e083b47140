import { Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** One titled section of the account page. */
export function SectionCard({
  title,
  description,
  aside,
  children,
}: {
  title: string;
  description?: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper component="section" withBorder radius="md" p="lg" aria-label={title}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
          <Stack gap={4}>
            <Title order={2} fz={17}>
              {title}
            </Title>
            {description ? (
              <Text fz="sm" c="dimmed">
                {description}
              </Text>
            ) : null}
          </Stack>
          {aside ? <div style={{ flexShrink: 0 }}>{aside}</div> : null}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
