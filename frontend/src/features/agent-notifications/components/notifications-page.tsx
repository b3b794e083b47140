import { Anchor, Badge, Button, Container, Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { AgentNotification } from "@skyward/contracts/agent-notifications";
import { useSuspenseQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { formatInstant } from "../../../lib/date-format.ts";
import { useSiteLanguage } from "../../../lib/i18n.ts";
import { notificationsQueryOptions, useMarkNotificationsRead } from "../api/notifications.ts";

/** The user's notifications, newest first: each opens its booking and may be marked read; or all at once. */
export function NotificationsPage() {
  const { t } = useTranslation("agent-notifications");
  const { data } = useSuspenseQuery(notificationsQueryOptions());
  const markRead = useMarkNotificationsRead();
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={1} fz={26}>
            {t("title")}
          </Title>
          <Group gap="sm">
            <Text c="dimmed" fz="sm" data-testid="unread-count">
              {t("unread", { count: data.unread })}
            </Text>
            <Button
              variant="light"
              size="compact-sm"
              disabled={data.unread === 0}
              loading={markRead.isPending && markRead.variables?.all === true}
              onClick={() => markRead.mutate({ all: true })}
            >
              {t("mark_all_read")}
            </Button>
          </Group>
        </Group>
        {data.data.length === 0 ? (
          <Text c="dimmed">{t("empty")}</Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {data.data.map((n) => (
              <NotificationRow
                key={n.id}
                notification={n}
                onRead={() => markRead.mutate({ notification_ids: [n.id] })}
                pending={markRead.isPending && markRead.variables?.notification_ids?.includes(n.id) === true}
              />
            ))}
          </Stack>
        )}
      </Stack>
    </Container>
  );
}

function NotificationRow({
  notification: n,
  onRead,
  pending,
}: {
  notification: AgentNotification;
  onRead: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation("agent-notifications");
  const language = useSiteLanguage();
  const detail =
    n.kind === "schedule_change" && n.detail
      ? t(`change_kinds.${n.detail as "minor" | "major" | "cancelled"}`, { defaultValue: n.detail })
      : n.detail;
  return (
    <Paper component="li" withBorder radius="md" p="md" data-read={n.read} aria-label={t(`kinds.${n.kind}`)}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="md">
        <Stack gap={4} miw={0}>
          <Group gap="xs" wrap="wrap">
            {n.read ? null : (
              <Badge color="red" size="xs" variant="filled">
                {t("new")}
              </Badge>
            )}
            <Text fw={n.read ? 400 : 600}>{t(`kinds.${n.kind}`)}</Text>
          </Group>
          <Text fz="sm">
            <Anchor
              renderRoot={(props) => <Link {...props} to="/bookings" search={{ locator: n.locator }} />}
            >
              {n.locator}
            </Anchor>
            {n.route ? ` · ${n.route}` : ""}
            {detail ? ` · ${detail}` : ""}
          </Text>
          <Text fz="xs" c="dimmed">
            {formatInstant(n.at, language)}
          </Text>
        </Stack>
        {n.read ? null : (
          <Button
            variant="subtle"
            size="compact-sm"
            loading={pending}
            onClick={onRead}
            style={{ flexShrink: 0 }}
          >
            {t("mark_read")}
          </Button>
        )}
      </Group>
    </Paper>
  );
}
