import { createFileRoute } from "@tanstack/react-router";
import { PENDING } from "../components/page-skeleton.tsx";
import { notificationsQueryOptions } from "../features/agent-notifications/api/notifications.ts";
import { NotificationsPage } from "../features/agent-notifications/components/notifications-page.tsx";
import { requireSession } from "../lib/session.ts";

/** The signed-in user's notifications (the header's bell opens it). */
export const Route = createFileRoute("/notifications")({
  loader: async ({ context: { queryClient }, location }) => {
    await requireSession(queryClient, location);
    await queryClient.ensureQueryData(notificationsQueryOptions());
  },
  ...PENDING,
  component: NotificationsPage,
});
