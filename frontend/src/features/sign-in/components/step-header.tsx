import { Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

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
