import { AccountCommandResponse } from "@skyward/contracts/account";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { type Language, setSiteLanguage } from "../../../lib/i18n.ts";
import { SESSION_QUERY_KEY } from "../../../lib/session.ts";

/** `PUT /account/details/update_locale`: the account's language, for the interface and the e-mails it gets. */
export async function updateLocale(language: Language): Promise<AccountCommandResponse> {
  const { data } = await api.put<unknown>("/account/details/update_locale", { language });
  return AccountCommandResponse.parse(data);
}

/** Saves the language on the account and switches the interface to it. */
export function useUpdateLocale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLocale,
    onSuccess: async (response) => {
      await setSiteLanguage(response.data.language);
      await queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    },
  });
}
