import { Badge, Container, Group, Stack, Text, Title } from "@mantine/core";
import { createFileRoute } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { z } from "zod";

const BookingsSearch = z.object({
  /** Opens one booking of the list: /bookings?locator=ABC234 (seed spec, section 2). */
  locator: z.string().trim().toUpperCase().min(1).optional().catch(undefined),
});

export const Route = createFileRoute("/bookings")({
  validateSearch: BookingsSearch,
  component: BookingsPage,
});

function BookingsPage() {
  const { t } = useTranslation("bookings");
  const { locator } = Route.useSearch();
  return (
    <Container fluid px="lg" py="lg">
      <Stack gap={4}>
        <Group gap="sm">
          <Title order={1} fz={24}>
            {t("title")}
          </Title>
          {locator ? (
            <Badge variant="light" size="lg" radius="sm" tt="none">
              {t("locator", { locator })}
            </Badge>
          ) : null}
        </Group>
        <Text c="dimmed" fz="sm">
          {t("lead")}
        </Text>
      </Stack>
    </Container>
  );
}
