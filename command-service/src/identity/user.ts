import type { UserRegistered } from "@skyward/contracts/directory";
import type { EventMetadata } from "@skyward/contracts/metadata";
import type { CommandContext } from "@skyward/infra/event-store/command";
import type { StoredEvent, StreamAppend } from "@skyward/infra/event-store/types";
import { Conflict } from "@skyward/infra/http/errors";

export const userStream = (userId: string) => `user-${userId}`;
/** One stream per e-mail address makes addresses unique through the event store's no_stream check. */
export const emailStream = (email: string) => `useremail-${email.trim().toLowerCase()}`;

export type UserState =
  | { status: "none" }
  | ({ status: "active" } & Omit<UserRegistered, "user_id"> & {
        user_id: string;
        onboarding: "initial" | "privacy" | "done";
        terms_version: string | null;
      });

export type EmailClaim = { user_id: string | null };

export function evolveUser(state: UserState, event: StoredEvent): UserState {
  const data = event.data as Record<string, unknown>;
  switch (event.type) {
    case "UserRegistered":
      return { status: "active", ...(data as UserRegistered), onboarding: "initial", terms_version: null };
    default:
      if (state.status === "none") return state;
      return evolveActiveUser(state, event.type, data);
  }
}

function evolveActiveUser(
  state: Extract<UserState, { status: "active" }>,
  type: string,
  data: Record<string, unknown>,
): UserState {
  switch (type) {
    case "AccountInfoCompleted":
    case "AccountDetailsUpdated":
      return {
        ...state,
        ...(data as Partial<UserRegistered>),
        onboarding: type === "AccountInfoCompleted" ? "privacy" : state.onboarding,
      };
    case "TermsAccepted":
      return { ...state, onboarding: "done", terms_version: data.terms_version as string };
    case "LocaleChanged":
      return { ...state, language: data.language as UserRegistered["language"] };
    case "PhoneChanged":
      return { ...state, phone: data.phone as string };
    case "EmailChanged":
      return { ...state, email: data.email as string };
    default:
      return state;
  }
}

export function evolveEmailClaim(state: EmailClaim, event: StoredEvent): EmailClaim {
  if (event.type === "EmailClaimed") return { user_id: (event.data as { user_id: string }).user_id };
  if (event.type === "EmailReleased") return { user_id: null };
  return state;
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
    throw new Conflict("A user with this e-mail already exists", "email_taken");
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
