import { Avatar, Badge, Container, Grid, Group, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { personalData } from "../../../lib/personal-data.ts";
import type { Session } from "../../../lib/session.ts";
import { ApiTokenCard } from "./api-token-card.tsx";
import { EmailCard } from "./email-card.tsx";
import { fullName, initials } from "./initials.ts";
import { LanguageCard } from "./language-card.tsx";
import { NotificationSettingsCard } from "./notification-settings-card.tsx";
import { OrganisationCard } from "./organisation-card.tsx";
import { ProfileCard } from "./profile-card.tsx";

/** The account page: details and settings from GET /account/details, and what the user may change. */
export function AccountPage({ session }: { session: Session }) {
  const { t } = useTranslation("account");
  const { account, settings } = session;
  return (
    <Container size="lg" py="xl">
      <Stack gap="xl">
        <Group gap="md" wrap="nowrap">
          <Avatar size={56} radius="xl" color="blue" variant="light" fz="lg">
            {initials(account)}
          </Avatar>
          <Stack gap={4} {...personalData}>
            <Title order={1} fz={26}>
              {fullName(account)}
            </Title>
            <Group gap="xs">
              <Text c="dimmed" fz="sm">
                {account.email}
              </Text>
              <Badge variant="light" radius="sm" size="sm">
                {t(`user_types.${account.user_type}`)}
              </Badge>
            </Group>
          </Stack>
        </Group>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="lg">
              {/* Keyed by what the server holds, so a saved change starts the form afresh. */}
              <ProfileCard
                key={`${account.first_name}|${account.last_name}|${account.phone ?? ""}`}
                account={account}
              />
              <EmailCard email={account.email} />
              <ApiTokenCard hasToken={settings.api_token} />
              <NotificationSettingsCard />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="lg">
              <LanguageCard language={account.language} />
              <OrganisationCard session={session} />
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
