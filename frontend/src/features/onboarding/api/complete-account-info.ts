import { AccountCommandResponse } from "@skyward/contracts/account";
import { api } from "../../../lib/api-client.ts";
import type { Language } from "../../../lib/i18n.ts";

export interface AccountInfo {
  first_name: string;
  last_name: string;
  /** Optional: empty means none. */
  phone: string;
  language: Language;
}

/** `PUT /onboarding`: the account info that moves onboarding from initial to privacy. */
export async function completeAccountInfo(info: AccountInfo): Promise<AccountCommandResponse> {
  const phone = info.phone.trim();
  const { data } = await api.put<unknown>("/onboarding", {
    account: {
      first_name: info.first_name.trim(),
      last_name: info.last_name.trim(),
      ...(phone ? { phone } : {}),
      language: info.language,
    },
  });
  return AccountCommandResponse.parse(data);
}
