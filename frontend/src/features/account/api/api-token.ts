import { ApiTokenStatusResponse } from "@skyward/contracts/account";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { SESSION_QUERY_KEY } from "../../../lib/session.ts";

export const API_TOKEN_KEY = ["account", "api_token"] as const;

/** `GET /account/api_token`: whether there is a token, since when, and when a call last used it. */
export const apiTokenStatusOptions = () =>
  queryOptions({
    queryKey: API_TOKEN_KEY,
    queryFn: async () =>
      ApiTokenStatusResponse.parse((await api.get<unknown>("/account/api_token")).data).data,
  });

/** `DELETE /account/api_token`: withdraws the token; calls with it answer 401 from then on. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await api.delete<unknown>("/account/api_token");
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: API_TOKEN_KEY }),
      ]),
  });
}
