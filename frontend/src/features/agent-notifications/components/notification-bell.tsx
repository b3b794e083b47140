import { ActionIcon, Indicator } from "@mantine/core";
import { IconBell } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { useSession } from "../../../lib/session.ts";
import { notificationsQueryOptions } from "../api/notifications.ts";

/** The header's bell: the signed-in user's unread notifications counted, opening their list. */
export function NotificationBell() {
  const { t } = useTranslation("notifications");
  const session = useSession();
  const { data } = useQuery({ ...notificationsQueryOptions(), enabled: session !== null });
  if (!session) return null;
  const unread = data?.unread ?? 0;
  return (
    <Indicator label={unread > 99 ? "99+" : unread} disabled={unread === 0} size={16} offset={4} color="red">
      <ActionIcon
        component={Link}
        to="/notifications"
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={t("bell.label", { count: unread })}
        data-unread={unread}
      >
        <IconBell size={20} />
      </ActionIcon>
    </Indicator>
  );
}
