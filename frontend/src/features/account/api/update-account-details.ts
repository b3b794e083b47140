import { AccountCommandResponse } from "@skyward/contracts/account";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { SESSION_QUERY_KEY } from "../../../lib/session.ts";

export interface AccountDetailsChanges {
  first_name: string;
  last_name: string;
  /** Empty keeps the number on file: an account's phone can be changed, not removed. */
  phone: string;
}

/** `PUT /account/details`: names and phone. */
export async function updateAccountDetails(changes: AccountDetailsChanges): Promise<AccountCommandResponse> {
  const phone = changes.phone.trim();
  const { data } = await api.put<unknown>("/account/details", {
    account: {
      first_name: changes.first_name.trim(),
      last_name: changes.last_name.trim(),
      ...(phone ? { phone } : {}),
    },
  });
  return AccountCommandResponse.parse(data);
}

export function useUpdateAccountDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccountDetails,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
  });
}
