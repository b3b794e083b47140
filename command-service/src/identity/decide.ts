import type {
  AccountDetailsUpdated,
  AccountInfoCompleted,
  Profile,
  SignInFailureReason,
  SignInMethod,
} from "@skyward/contracts/account";
import type { Language } from "@skyward/contracts/ids";
import { refuse } from "@skyward/infra/refusal";
import type { ActiveUser, EmailClaim, UserEvent, UserState } from "./user.ts";

export type AccountCommand =
  | { type: "RecordSignIn"; method: SignInMethod; ip: string | null; userAgent: string | null }
  | { type: "RecordFailedSignIn"; method: SignInMethod; reason: SignInFailureReason; ip: string | null }
  | { type: "RecordSignOut" }
  | { type: "CompleteAccountInfo"; info: AccountInfoCompleted }
  | { type: "AcceptTerms"; version: string }
  | { type: "UpdateAccountDetails"; changes: AccountDetailsUpdated }
  | { type: "ChangeLocale"; language: Language }
  | { type: "ChangePhone"; phone: string }
  | { type: "IssueApiToken" }
  | { type: "RevokeApiToken" };

export function activeUser(state: UserState): ActiveUser {
  if (state.status === "none") throw refuse.missing("The account does not exist", "account_not_found");
  return state;
}

/** Keeps only the fields that differ from the user's current values. */
function changedFields(user: ActiveUser, changes: AccountDetailsUpdated): AccountDetailsUpdated {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value !== undefined && user[key as keyof AccountDetailsUpdated] !== value) changed[key] = value;
  }
  return changed as AccountDetailsUpdated;
}

/** The account decider: what the user's stream records for a command, given the stream so far. */
export function decideAccount(command: AccountCommand, state: UserState): UserEvent[] {
  const user = activeUser(state);
  switch (command.type) {
    case "RecordSignIn":
      return [
        {
          type: "UserSignedIn",
          data: { method: command.method, ip: command.ip, user_agent: command.userAgent },
        },
      ];
    case "RecordFailedSignIn":
      return [
        { type: "SignInFailed", data: { method: command.method, reason: command.reason, ip: command.ip } },
      ];
    case "RecordSignOut":
      return [{ type: "UserSignedOut", data: {} }];
    case "CompleteAccountInfo": {
      if (user.onboarding === "done")
        throw refuse.notAllowed(
          "Onboarding is already complete; edit the account details instead",
          "onboarded",
        );
      const { phone, language, ...names } = command.info;
      return [
        {
          type: "AccountInfoCompleted",
          data: { ...names, ...(phone ? { phone } : {}), ...(language ? { language } : {}) },
        },
      ];
    }
    case "AcceptTerms":
      if (user.onboarding === "initial")
        throw refuse.notAllowed(
          "Complete your account info before accepting the terms",
          "account_info_missing",
        );
      if (user.terms_version === command.version) return [];
      return [{ type: "TermsAccepted", data: { terms_version: command.version } }];
    case "UpdateAccountDetails": {
      const changed = changedFields(user, command.changes);
      return Object.keys(changed).length > 0 ? [{ type: "AccountDetailsUpdated", data: changed }] : [];
    }
    case "ChangeLocale":
      return user.language === command.language
        ? []
        : [{ type: "LocaleChanged", data: { language: command.language } }];
    case "ChangePhone":
      return user.phone === command.phone ? [] : [{ type: "PhoneChanged", data: { phone: command.phone } }];
    case "IssueApiToken":
      return [{ type: "ApiTokenIssued", data: { replaced: user.api_token } }];
    case "RevokeApiToken":
      if (!user.api_token) throw refuse.missing("This account has no API token", "api_token_not_found");
      return [{ type: "ApiTokenRevoked", data: {} }];
    default:
      command satisfies never;
      throw new Error(`unknown account command ${(command as { type: string }).type}`);
  }
}

export type EmailChangeCommand =
  | { type: "RequestEmailChange"; newEmail: string }
  | { type: "ChangeEmail"; newEmail: string };

export interface EmailChangeEvents {
  user: UserEvent[];
  /** For the stream of the address given up. */
  previousAddress: { type: "EmailReleased"; data: { user_id: string } }[];
  /** For the stream of the address taken. */
  newAddress: { type: "EmailClaimed"; data: { user_id: string } }[];
}

/** Changing an address touches three streams: the user's, and the claims of the old and the new address. */
export function decideEmailChange(
  command: EmailChangeCommand,
  state: UserState,
  newAddressClaim: EmailClaim,
): EmailChangeEvents {
  const user = activeUser(state);
  const none: EmailChangeEvents = { user: [], previousAddress: [], newAddress: [] };
  if (command.newEmail === user.email) {
    if (command.type === "ChangeEmail") return none;
    throw refuse.notAllowed("This is already your e-mail address", "email_unchanged");
  }
  switch (command.type) {
    case "RequestEmailChange":
      // Answered alike whoever holds the address (the mail sent to it tells the truth): no enumeration here.
      return { ...none, user: [{ type: "EmailChangeRequested", data: { new_email: command.newEmail } }] };
    case "ChangeEmail":
      if (newAddressClaim.user_id && newAddressClaim.user_id !== user.user_id)
        throw refuse.conflict("Another account uses this e-mail address", "email_taken");
      return {
        user: [{ type: "EmailChanged", data: { email: command.newEmail, previous_email: user.email } }],
        previousAddress: [{ type: "EmailReleased", data: { user_id: user.user_id } }],
        newAddress: [{ type: "EmailClaimed", data: { user_id: user.user_id } }],
      };
    default:
      command satisfies never;
      throw new Error(`unknown e-mail command ${(command as { type: string }).type}`);
  }
}

export function profileOf(user: ActiveUser): Profile {
  return {
    skyward_id: user.user_id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    user_type: user.user_type,
    phone: user.phone,
    language: user.language,
    onboarding: user.onboarding,
    terms_version: user.terms_version,
  };
}
