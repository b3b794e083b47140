import {
  Badge,
  Button,
  Card,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from "@mantine/core";
import { IconChartBar, IconSearch, IconTicket } from "@tabler/icons-react";
import { createFileRoute, Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "../lib/session.ts";

export const Route = createFileRoute("/")({
  component: HomePage,
});

const AREAS = [
  { key: "search", icon: <IconSearch size={18} /> },
  { key: "ticketing", icon: <IconTicket size={18} /> },
  { key: "reports", icon: <IconChartBar size={18} /> },
] as const satisfies readonly { key: string; icon: ReactNode }[];

function HomePage() {
  const { t } = useTranslation();
  const { t: tAccount } = useTranslation("account");
  const session = useSession();
  return (
    <Container size="lg" py={48}>
      <Stack gap="xl">
        <Stack gap="sm" maw={640}>
          <Badge variant="light" radius="sm" w="fit-content">
            {t("home.eyebrow")}
          </Badge>
          <Title order={1} fz={32}>
            {t("home.title")}
          </Title>
          <Text c="dimmed" fz="lg">
            {t("home.lead")}
          </Text>
          <Group gap="sm" mt="xs">
            {session ? (
              <Button component={Link} to="/account">
                {tAccount("menu.account")}
              </Button>
            ) : (
              <Button component={Link} to="/sign_in">
                {t("home.sign_in")}
              </Button>
            )}
            <Button component={Link} to="/bookings" variant="default">
              {t("home.bookings")}
            </Button>
          </Group>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          {AREAS.map((area) => (
            <Card key={area.key} withBorder padding="lg" radius="md">
              <ThemeIcon variant="light" size={36} radius="md">
                {area.icon}
              </ThemeIcon>
              <Text fw={600} mt="md">
                {t(`home.areas.${area.key}.title`)}
              </Text>
              <Text c="dimmed" fz="sm" mt={4}>
                {t(`home.areas.${area.key}.text`)}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>
    </Container>
  );
}
