import { AccountCommandResponse, TERMS_VERSION } from "@skyward/contracts/account";
import { api } from "../../../lib/api-client.ts";

/** `PUT /account/terms`: accepts the current privacy policy and terms, which completes onboarding. */
export async function acceptTerms(): Promise<AccountCommandResponse> {
  const { data } = await api.put<unknown>("/account/terms", { terms: { version: TERMS_VERSION } });
  return AccountCommandResponse.parse(data);
}
