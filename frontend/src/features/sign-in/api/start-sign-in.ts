import type { StartSignInResponse } from "@skyward/contracts/account";
import { api, loadSchemas } from "../../../lib/api-client.ts";
import type { Language } from "../../../lib/i18n.ts";

export interface StartSignInInput {
  email: string;
  /** The language of the e-mail that carries the code. */
  language: Language;
}

/** `POST /start_sign_in`: says how the account signs in, and e-mails a code when that is by code. */
export async function startSignIn(account: StartSignInInput): Promise<StartSignInResponse> {
  const { data } = await api.post<unknown>("/start_sign_in", { account });
  // The schema (and zod with it) loads with the answer, not with the sign-in page.
  const { StartSignInResponse } = await loadSchemas();
  return StartSignInResponse.parse(data);
}
