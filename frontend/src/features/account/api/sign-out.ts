import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { ApiError, api } from "../../../lib/api-client.ts";
import { notify } from "../../../lib/notifications.ts";
import { endSession } from "../../../lib/session.ts";

/** `DELETE /sign_out`: ends this browser's session. */
export async function signOut(): Promise<void> {
  try {
    await api.delete("/sign_out");
  } catch (error) {
    // The session had already ended (expired, or signed out in another tab): the goal is reached.
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
}

/** Signs out, forgets everything cached for the account and opens the sign-in page. */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation("account");
  return useMutation({
    mutationFn: signOut,
    onSuccess: async () => {
      endSession(queryClient);
      notify({ text: t("signed_out"), type: "success" });
      await navigate({ to: "/sign_in" });
    },
  });
}
