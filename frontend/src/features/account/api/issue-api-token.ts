import { ApiTokenResponse } from "@skyward/contracts/account";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { SESSION_QUERY_KEY } from "../../../lib/session.ts";
import { API_TOKEN_KEY } from "./api-token.ts";

/** `PUT /account/api_token`: a new token for the API and the extension; it replaces the previous one. */
export async function issueApiToken(): Promise<string> {
  const { data } = await api.put<unknown>("/account/api_token");
  return ApiTokenResponse.parse(data).data.token;
}

export function useIssueApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueApiToken,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: API_TOKEN_KEY }),
      ]),
  });
}
