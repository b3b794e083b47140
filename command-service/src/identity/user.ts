import type {
  AccountDetailsUpdated,
  AccountInfoCompleted,
  ApiTokenIssued,
  ApiTokenRevoked,
  EmailChanged,
  EmailChangeRequested,
  LocaleChanged,
  Onboarding,
  PhoneChanged,
  SignInFailed,
  TermsAccepted,
  UserSignedIn,
  UserSignedOut,
} from "@skyward/contracts/account";
import type {
  SellingCompanyChosen,
  UserActivationSet,
  UserConnectedToCompany,
  UserDisconnectedFromCompany,
  UserRegistered,
  UserRemoved,
} from "@skyward/contracts/directory";
import type { EventMetadata } from "@skyward/contracts/metadata";
import type { CommandContext } from "@skyward/infra/event-store/command";
import type { EventStore } from "@skyward/infra/event-store/event-store";
import type { StreamAppend } from "@skyward/infra/event-store/types";
import { refuse } from "@skyward/infra/refusal";

export const userStream = (userId: string) => `user-${userId}`;
/** One stream per e-mail address makes addresses unique through the event store's no_stream check. */
export const emailStream = (email: string) => `useremail-${email.trim().toLowerCase()}`;

export type ActiveUser = { status: "active" } & UserRegistered & {
    onboarding: Onboarding;
    terms_version: string | null;
    api_token: boolean;
    /** Switched off by an administrator or a supervisor: signs in no more. */
    active: boolean;
  };
export type UserState = { status: "none" } | ActiveUser;
export const noUser: UserState = { status: "none" };

/** Every event of the user stream; the audit ones (sign-in, failures, token issue) leave the profile as is. */
export type UserEvent =
  | { type: "UserRegistered"; data: UserRegistered }
  | { type: "UserSignedIn"; data: UserSignedIn }
  | { type: "UserSignedOut"; data: UserSignedOut }
  | { type: "SignInFailed"; data: SignInFailed }
  | { type: "AccountInfoCompleted"; data: AccountInfoCompleted }
  | { type: "AccountDetailsUpdated"; data: AccountDetailsUpdated }
  | { type: "TermsAccepted"; data: TermsAccepted }
  | { type: "LocaleChanged"; data: LocaleChanged }
  | { type: "PhoneChanged"; data: PhoneChanged }
  | { type: "EmailChangeRequested"; data: EmailChangeRequested }
  | { type: "EmailChanged"; data: EmailChanged }
  | { type: "ApiTokenIssued"; data: ApiTokenIssued }
  | { type: "ApiTokenRevoked"; data: ApiTokenRevoked }
  | { type: "UserConnectedToCompany"; data: UserConnectedToCompany }
  | { type: "UserDisconnectedFromCompany"; data: UserDisconnectedFromCompany }
  | { type: "UserActivationSet"; data: UserActivationSet }
  | { type: "UserRemoved"; data: UserRemoved }
  | { type: "SellingCompanyChosen"; data: SellingCompanyChosen };

export function evolveUser(state: UserState, event: { type: string; data: unknown }): UserState {
  const e = event as UserEvent;
  if (e.type === "UserRegistered") {
    return {
      status: "active",
      ...e.data,
      onboarding: "initial",
      terms_version: null,
      api_token: false,
      active: true,
    };
  }
  if (state.status === "none") return state;
  switch (e.type) {
    case "AccountInfoCompleted":
      return { ...state, ...e.data, onboarding: "privacy" };
    case "AccountDetailsUpdated":
      return { ...state, ...e.data };
    case "TermsAccepted":
      return { ...state, onboarding: "done", terms_version: e.data.terms_version };
    case "LocaleChanged":
      return { ...state, language: e.data.language };
    case "PhoneChanged":
      return { ...state, phone: e.data.phone };
    case "EmailChanged":
      return { ...state, email: e.data.email };
    case "ApiTokenIssued":
      return { ...state, api_token: true };
    case "ApiTokenRevoked":
      return { ...state, api_token: false };
    case "UserConnectedToCompany":
      return {
        ...state,
        agency_id: e.data.agency_id,
        company_ids: state.company_ids.includes(e.data.company_id)
          ? state.company_ids
          : [...state.company_ids, e.data.company_id],
      };
    case "UserDisconnectedFromCompany":
      return { ...state, company_ids: state.company_ids.filter((id) => id !== e.data.company_id) };
    case "UserActivationSet":
      return { ...state, active: e.data.active };
    case "UserRemoved":
      return noUser;
    case "SellingCompanyChosen":
      return { ...state, company_ids: chosenFirst(state, e.data.company_id) };
    case "UserSignedIn":
    case "UserSignedOut":
    case "SignInFailed":
    case "EmailChangeRequested":
      return state;
    default:
      // Types written by later features reach here at run time; they change nothing this fold knows.
      e satisfies never;
      return state;
  }
}

/** The company a user sells for by default goes first; administrators hold only the one they chose. */
export function chosenFirst(
  user: { user_type: string; company_ids: readonly string[] },
  companyId: string,
): string[] {
  if (user.user_type === "Admin" || user.user_type === "Support") return [companyId];
  return [companyId, ...user.company_ids.filter((id) => id !== companyId)];
}

export type EmailClaim = { user_id: string | null };

export function evolveEmailClaim(state: EmailClaim, event: { type: string; data: unknown }): EmailClaim {
  if (event.type === "EmailClaimed") return { user_id: (event.data as { user_id: string }).user_id };
  if (event.type === "EmailReleased") return { user_id: null };
  return state;
}

export async function loadUser(store: EventStore, userId: string): Promise<UserState> {
  let user: UserState = noUser;
  for (const event of await store.readStream(userStream(userId))) user = evolveUser(user, event);
  return user;
}

/** The user an address belongs to now, read from the event store (no projection lag). */
export async function findUserByEmail(store: EventStore, email: string): Promise<ActiveUser | null> {
  let claim: EmailClaim = { user_id: null };
  for (const event of await store.readStream(emailStream(email))) claim = evolveEmailClaim(claim, event);
  if (!claim.user_id) return null;
  const user = await loadUser(store, claim.user_id);
  // A switched-off user is answered as unknown, so sign-in treats it like an address without an account.
  return user.status === "active" && user.active ? user : null;
}

/** Registers a user and claims the e-mail in one atomic append. */
export async function registerUserAppends(
  ctx: CommandContext,
  user: UserRegistered,
  metadata: EventMetadata,
  eventIds?: { user: string; email: string },
): Promise<StreamAppend[]> {
  const claim = await ctx.load(emailStream(user.email), evolveEmailClaim, { user_id: null });
  if (claim.state.user_id && claim.state.user_id !== user.user_id) {
    throw refuse.conflict("A user with this e-mail already exists", "email_taken");
  }
  return [
    {
      streamId: emailStream(user.email),
      expected: claim.version,
      events: [
        { event_id: eventIds?.email, type: "EmailClaimed", data: { user_id: user.user_id }, metadata },
      ],
    },
    {
      streamId: userStream(user.user_id),
      expected: "no_stream",
      events: [
        {
          event_id: eventIds?.user,
          type: "UserRegistered",
          data: { ...user, email: user.email.toLowerCase() },
          metadata,
        },
      ],
    },
  ];
}
