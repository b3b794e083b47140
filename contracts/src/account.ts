import { z } from "zod";
import { Email, Language } from "./ids.ts";
import { UserType } from "./metadata.ts";
import { Position } from "./position.ts";

/** Sign-in, onboarding and the caller's own account: requests, responses and the user-stream events. */

/** The privacy policy and terms a user accepts during onboarding; a new text gets a new version. */
export const TERMS_VERSION = "2026-11";

export { ONE_TIME_CODE } from "./one-time-code.ts";

export const AuthMethod = z.enum(["otp", "password"]);
export type AuthMethod = z.infer<typeof AuthMethod>;

/** initial → privacy once account info is submitted → done once the terms are accepted. */
export const Onboarding = z.enum(["initial", "privacy", "done"]);
export type Onboarding = z.infer<typeof Onboarding>;

/** An e-mail address as a person types it: surrounding blanks and letter case do not matter. */
export const EmailInput = z.string().trim().toLowerCase().pipe(Email);
export const OtpAttempt = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "must be the 6-digit code");
export const Password = z.string().min(1).max(200);
export const PersonName = z.string().trim().min(1).max(100);
/** International format; spaces, dots, dashes and brackets are dropped: "+380 (44) 123-45-67" → "+380441234567". */
export const Phone = z
  .string()
  .trim()
  .transform((value) => value.replace(/[\s().-]/g, ""))
  .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, "must be an international number such as +380441234567"));

// ── Requests ──────────────────────────────────────────────────────────────────────────────────────────────

export const StartSignInRequest = z.object({
  account: z.object({ email: EmailInput, language: Language.optional() }),
});
export type StartSignInRequest = z.infer<typeof StartSignInRequest>;

export const SignInRequest = z.object({
  account: z
    .object({
      email: EmailInput,
      otp_attempt: OtpAttempt.optional(),
      password: Password.optional(),
      language: Language.optional(),
    })
    .refine((a) => (a.otp_attempt === undefined) !== (a.password === undefined), {
      message: "give either otp_attempt or password",
      path: ["otp_attempt"],
    }),
});
export type SignInRequest = z.infer<typeof SignInRequest>;

export const SendVoiceOtpRequest = z.object({ account: z.object({ email: EmailInput }) });

/** Onboarding's first step (`PUT /onboarding`, `POST /account/complete`). */
export const CompleteAccountInfoRequest = z.object({
  account: z.object({
    first_name: PersonName,
    last_name: PersonName,
    phone: Phone.optional(),
    language: Language.optional(),
  }),
});
export type CompleteAccountInfoRequest = z.infer<typeof CompleteAccountInfoRequest>;

export const AcceptTermsRequest = z.object({
  terms: z.object({
    version: z.literal(TERMS_VERSION, { error: `must be the current terms version ${TERMS_VERSION}` }),
  }),
});

export const UpdateAccountDetailsRequest = z.object({
  account: z
    .object({
      first_name: PersonName.optional(),
      last_name: PersonName.optional(),
      phone: Phone.optional(),
      language: Language.optional(),
    })
    .refine((a) => Object.values(a).some((v) => v !== undefined), {
      message: "give at least one of first_name, last_name, phone, language",
    }),
});
export type UpdateAccountDetailsRequest = z.infer<typeof UpdateAccountDetailsRequest>;

export const UpdateLocaleRequest = z.object({ language: Language });
export const SetPhoneRequest = z.object({ phone: Phone });
/** First call `{email}` sends a code to the new address; the second `{email, otp_attempt}` makes the change. */
export const ChangeEmailRequest = z.object({ email: EmailInput, otp_attempt: OtpAttempt.optional() });

// ── Responses ─────────────────────────────────────────────────────────────────────────────────────────────

/** Commands that write nothing (or must not reveal whether they did) answer `position: null`. */
export const CommandPosition = Position.nullable();

export const StartSignInResponse = z.object({
  account: z.object({ auth_method: AuthMethod }),
  position: CommandPosition,
});
export type StartSignInResponse = z.infer<typeof StartSignInResponse>;

export const NamedRef = z.object({ id: z.string(), name: z.string() });
export type NamedRef = z.infer<typeof NamedRef>;

export const AccountInfo = z.object({
  skyward_id: z.string(),
  email: Email,
  first_name: z.string(),
  last_name: z.string(),
  user_type: UserType,
  phone: z.string().nullable(),
  language: Language,
  /** The company the user works for now (the first of `companies`). */
  company: NamedRef.nullable(),
  companies: z.array(NamedRef),
  agencies: z.array(NamedRef),
  demo_user: z.boolean(),
  /** Agency logo URL; agencies have no logo upload yet. */
  logo: z.string().nullable(),
  /** Agent rating; no rating is computed yet. */
  score: z.number().nullable(),
});
export type AccountInfo = z.infer<typeof AccountInfo>;

export const AccountSettings = z.object({
  active: z.boolean(),
  active_by_supervisor: z.boolean(),
  /** Whether an API token exists; the token itself is shown once, when issued. */
  api_token: z.boolean(),
  /** Ticketing channels the user may sell through (shaped by the channels contract). */
  channels: z.array(z.unknown()),
});
export type AccountSettings = z.infer<typeof AccountSettings>;

export const SignInResponse = z.object({ account: AccountInfo, onboarding: Onboarding, position: Position });
export type SignInResponse = z.infer<typeof SignInResponse>;

export const AccountDetailsResponse = z.object({
  account: AccountInfo,
  settings: AccountSettings,
  onboarding: Onboarding,
  terms_version: z.string().nullable(),
});
export type AccountDetailsResponse = z.infer<typeof AccountDetailsResponse>;

/** What an account command changed, as the command side sees it right after. */
export const Profile = z.object({
  skyward_id: z.string(),
  email: Email,
  first_name: z.string(),
  last_name: z.string(),
  user_type: UserType,
  phone: z.string().nullable(),
  language: Language,
  onboarding: Onboarding,
  terms_version: z.string().nullable(),
});
export type Profile = z.infer<typeof Profile>;

export const AccountCommandResponse = z.object({ data: Profile, position: CommandPosition });
export type AccountCommandResponse = z.infer<typeof AccountCommandResponse>;

export const EmailChangeStartedResponse = z.object({
  data: z.object({ pending_email: Email }),
  position: CommandPosition,
});

export const ApiTokenResponse = z.object({ data: z.object({ token: z.string() }), position: Position });
/** GET /account/api_token: whether the caller has a token, since when, and when a call last used it (to the minute). */
export const ApiTokenStatusResponse = z.object({
  data: z.object({
    active: z.boolean(),
    created_at: z.iso.datetime().nullable(),
    last_used_at: z.iso.datetime().nullable(),
  }),
});
export type ApiTokenStatusResponse = z.infer<typeof ApiTokenStatusResponse>;
export const SignOutResponse = z.object({ data: z.null(), position: CommandPosition });

/** Development outboxes (`GET /dev/mailbox`, `GET /dev/voice`), newest first. */
export const DevMailboxResponse = z.object({
  data: z.array(
    z.object({
      id: z.number(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      sent_at: z.string(),
      /** Only on the mails that have them (the itinerary, the statement). */
      html: z.string().optional(),
      attachments: z
        .array(
          z.object({ filename: z.string(), content_type: z.string(), size: z.number(), url: z.string() }),
        )
        .optional(),
    }),
  ),
});
export const DevVoiceResponse = z.object({
  data: z.array(
    z.object({ id: z.number(), to: z.string(), email: z.string(), text: z.string(), sent_at: z.string() }),
  ),
});

// ── Events of the user stream (`user-{id}`); never a code, password, token or hash ──────────────────────────

export const SignInMethod = z.enum(["email_code", "voice_code", "password"]);
export type SignInMethod = z.infer<typeof SignInMethod>;

export const UserSignedIn = z.object({
  method: SignInMethod,
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export const UserSignedOut = z.object({});
export const SignInFailureReason = z.enum([
  "wrong_code",
  "code_expired",
  "code_locked",
  "no_code",
  "wrong_password",
]);
export type SignInFailureReason = z.infer<typeof SignInFailureReason>;
export const SignInFailed = z.object({
  method: SignInMethod,
  reason: SignInFailureReason,
  ip: z.string().nullable(),
});
export const AccountInfoCompleted = z.object({
  first_name: PersonName,
  last_name: PersonName,
  phone: z.string().optional(),
  language: Language.optional(),
});
export const AccountDetailsUpdated = z.object({
  first_name: PersonName.optional(),
  last_name: PersonName.optional(),
  phone: z.string().optional(),
  language: Language.optional(),
});
export const TermsAccepted = z.object({ terms_version: z.string() });
export const LocaleChanged = z.object({ language: Language });
export const PhoneChanged = z.object({ phone: z.string() });
export const EmailChangeRequested = z.object({ new_email: Email });
export const EmailChanged = z.object({ email: Email, previous_email: Email });
export const ApiTokenIssued = z.object({ replaced: z.boolean() });
/** The user's API token withdrawn from the account page; calls with it answer 401 from then on. */
export const ApiTokenRevoked = z.object({});

export type UserSignedIn = z.infer<typeof UserSignedIn>;
export type UserSignedOut = z.infer<typeof UserSignedOut>;
export type SignInFailed = z.infer<typeof SignInFailed>;
export type AccountInfoCompleted = z.infer<typeof AccountInfoCompleted>;
export type AccountDetailsUpdated = z.infer<typeof AccountDetailsUpdated>;
export type TermsAccepted = z.infer<typeof TermsAccepted>;
export type LocaleChanged = z.infer<typeof LocaleChanged>;
export type PhoneChanged = z.infer<typeof PhoneChanged>;
export type EmailChangeRequested = z.infer<typeof EmailChangeRequested>;
export type EmailChanged = z.infer<typeof EmailChanged>;
export type ApiTokenIssued = z.infer<typeof ApiTokenIssued>;
export type ApiTokenRevoked = z.infer<typeof ApiTokenRevoked>;
