import { Center, Paper, Stack, Text, Title } from "@mantine/core";
import { createFileRoute } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";

export const Route = createFileRoute("/sign_in")({
  component: SignInPage,
});

function SignInPage() {
  const { t } = useTranslation("sign-in");
  return (
    <Center mih="calc(100vh - 56px)" p="md">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
        <Stack gap="xs">
          <Title order={1} fz={24}>
            {t("title")}
          </Title>
          <Text c="dimmed" fz="sm">
            {t("lead")}
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
