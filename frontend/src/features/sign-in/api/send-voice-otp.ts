import { StartSignInResponse } from "@skyward/contracts/account";
import { api } from "../../../lib/api-client.ts";

/** `POST /send_voice_otp`: a new code read out by a phone call; it replaces the e-mailed one. */
export async function sendVoiceOtp(email: string): Promise<StartSignInResponse> {
  const { data } = await api.post<unknown>("/send_voice_otp", { account: { email } });
  return StartSignInResponse.parse(data);
}
