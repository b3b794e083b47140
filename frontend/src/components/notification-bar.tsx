import { Anchor, Notification as MantineNotification, Stack } from "@mantine/core";
import { IconAlertTriangle, IconCheck } from "@tabler/icons-react";
import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import {
  dismissNotification,
  FADE_OUT_MS,
  type Notification,
  useNotifications,
} from "../lib/notifications.ts";

function motion(notification: Notification): CSSProperties {
  const visible = notification.start && !notification.finish;
  return {
    opacity: visible ? 1 : 0,
    transform: notification.start ? "translateY(0)" : "translateY(8px)",
    transition: notification.finish
      ? `opacity ${FADE_OUT_MS}ms ease`
      : "opacity 200ms ease, transform 200ms ease",
    pointerEvents: notification.finish ? "none" : undefined,
  };
}

const COLORS = { success: "teal", warning: "orange", error: "red" } as const;

/** The notification bar: the stack of success, warning and error messages in the bottom-left corner. */
export function NotificationBar() {
  const { t } = useTranslation("notifications");
  const notifications = useNotifications();

  return (
    <Stack
      component="section"
      aria-label={t("region")}
      gap="xs"
      style={{
        // Bottom left: never over the page's header, a centred dialog or the booking drawer on the right.
        position: "fixed",
        bottom: 16,
        left: 16,
        width: "min(440px, calc(100vw - 32px))",
        zIndex: 400,
      }}
    >
      {notifications.map((notification) => {
        const isSuccess = notification.type === "success";
        return (
          <MantineNotification
            key={notification.id}
            role={notification.type === "error" ? "alert" : "status"}
            data-type={notification.type}
            data-start={notification.start || undefined}
            data-finish={notification.finish || undefined}
            color={COLORS[notification.type]}
            icon={isSuccess ? <IconCheck size={18} /> : <IconAlertTriangle size={18} />}
            withBorder
            onClose={() => dismissNotification(notification.id)}
            closeButtonProps={{ "aria-label": t("close") }}
            style={motion(notification)}
          >
            {notification.text}
            {notification.link && notification.link_text ? (
              <>
                {" "}
                <Anchor href={notification.link} fz="sm" fw={500}>
                  {notification.link_text}
                </Anchor>
              </>
            ) : null}
          </MantineNotification>
        );
      })}
    </Stack>
  );
}
