import type {
  MarkNotificationsReadRequest,
  MarkNotificationsReadResponse,
  NotificationsResponse,
} from "@skyward/contracts/agent-notifications";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

export const NOTIFICATIONS_KEY = ["notifications"] as const;

/** `GET /notifications`: the caller's own notifications, newest first, and how many are unread. */
export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: async () => (await api.get<NotificationsResponse>("/notifications")).data,
    // Notifications come from the airline and the jobs: the bell follows them without a reload.
    refetchInterval: 30_000,
    staleTime: 10_000,
    // A background count: a failed poll says nothing (the next one tries again); the page shows its own error.
    retry: false,
    meta: { notifyErrors: false },
  });

/** `POST /notifications/read`: these notifications read, or all of them; the list and the count follow. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: MarkNotificationsReadRequest) =>
      (await api.post<MarkNotificationsReadResponse>("/notifications/read", request)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
