import type {
  NotificationSetting,
  NotificationSettingsResponse,
  UpdateNotificationSettingsResponse,
} from "@skyward/contracts/agent-notifications";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";

const SETTINGS_KEY = ["account", "notification_settings"] as const;

/** `GET /notification_settings`: the user's switches per kind of notification (in the app, by e-mail). */
export const notificationSettingsOptions = () =>
  queryOptions({
    queryKey: SETTINGS_KEY,
    queryFn: async () => (await api.get<NotificationSettingsResponse>("/notification_settings")).data.data,
  });

/** `PUT /notification_settings`: one kind's switches; the answer is every kind's, kept as the query's data. */
export function useUpdateNotificationSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (setting: NotificationSetting) =>
      (
        await api.put<UpdateNotificationSettingsResponse>("/notification_settings", {
          settings: [setting],
        })
      ).data,
    onSuccess: (response) => queryClient.setQueryData(SETTINGS_KEY, response.data),
  });
}
