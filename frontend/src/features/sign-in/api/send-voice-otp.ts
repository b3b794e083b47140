import type { StartSignInResponse } from "@skyward/contracts/account";
import { api, loadSchemas } from "../../../lib/api-client.ts";

/** `POST /send_voice_otp`: a new code read out by a phone call; it replaces the e-mailed one. */
export async function sendVoiceOtp(email: string): Promise<StartSignInResponse> {
  const { data } = await api.post<unknown>("/send_voice_otp", { account: { email } });
  // The schema (and zod with it) loads with the answer, not with the sign-in page.
  const { StartSignInResponse } = await loadSchemas();
  return StartSignInResponse.parse(data);
}
