import { AccountCommandResponse, EmailChangeStartedResponse } from "@skyward/contracts/account";
import { api } from "../../../lib/api-client.ts";

/** `PUT /account/email {email}`: sends a confirmation code to the new address. */
export async function requestEmailChange(email: string) {
  const { data } = await api.put<unknown>("/account/email", { email: email.trim() });
  return EmailChangeStartedResponse.parse(data);
}

/** `PUT /account/email {email, otp_attempt}`: the code from the new address makes the change. */
export async function confirmEmailChange(input: { email: string; code: string }) {
  const { data } = await api.put<unknown>("/account/email", {
    email: input.email,
    otp_attempt: input.code.trim(),
  });
  return AccountCommandResponse.parse(data);
}
