import type { AskResponse, ExecuteResponse } from "@skyward/contracts/assistant";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { siteLanguage } from "../../../lib/i18n.ts";

/** `POST /admin_panel/ask`: a plan, an answer, a question back (clarify) or a refusal; nothing changes. */
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
  /** The amounts typed again (minor units) for the steps above the limit. */
  confirmAmounts?: { step: number; amount: number }[];
}

/** `POST /admin_panel/execute`: runs the confirmed steps of a plan once; every screen's data may have changed. */
export function useExecute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ planId, steps, confirmMoney, confirmAmounts }: ExecuteInput) =>
      (
        await api.post<ExecuteResponse>("/admin_panel/execute", {
          plan_id: planId,
          steps,
          confirm_money: confirmMoney,
          ...(confirmAmounts && confirmAmounts.length > 0 ? { confirm_amounts: confirmAmounts } : {}),
        })
      ).data,
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}
