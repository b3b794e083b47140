import type { AskResponse, ExecuteResponse } from "@skyward/contracts/assistant";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { siteLanguage } from "../../../lib/i18n.ts";

/** `POST /admin_panel/ask`: a plan, an answer or a question back; nothing changes. */
export function useAsk() {
  return useMutation({
    mutationFn: async (text: string) =>
      (await api.post<AskResponse>("/admin_panel/ask", { text, locale: siteLanguage() })).data,
  });
}

export interface ExecuteInput {
  planId: string;
  steps: number[];
  confirmMoney: boolean;
}

/** `POST /admin_panel/execute`: runs the confirmed steps of a plan once; every screen's data may have changed. */
export function useExecute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ planId, steps, confirmMoney }: ExecuteInput) =>
      (
        await api.post<ExecuteResponse>("/admin_panel/execute", {
          plan_id: planId,
          steps,
          confirm_money: confirmMoney,
        })
      ).data,
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}
