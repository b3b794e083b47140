import type { SignInResponse } from "@skyward/contracts/account";
import { api, loadSchemas } from "../../../lib/api-client.ts";

export type SignInInput = { email: string } & ({ otp_attempt: string } | { password: string });

/** `POST /sign_in` with the code or the password; the answer opens the session (an HttpOnly cookie). */
export async function signIn(account: SignInInput): Promise<SignInResponse> {
  const { data } = await api.post<unknown>("/sign_in", { account });
  // The schema (and zod with it) loads with the answer, not with the sign-in page.
  const { SignInResponse } = await loadSchemas();
  return SignInResponse.parse(data);
}
