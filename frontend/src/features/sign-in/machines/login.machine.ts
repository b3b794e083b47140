import type { AuthMethod, SignInResponse, StartSignInResponse } from "@skyward/contracts/account";
import { assign, fromPromise, setup } from "xstate";
import { ApiError, notifyingErrors } from "../../../lib/api-client.ts";
import { type Language, setSiteLanguage, siteLanguage } from "../../../lib/i18n.ts";
import { rememberSession } from "../../../lib/session.ts";
import { sendVoiceOtp } from "../api/send-voice-otp.ts";
import { type SignInInput, signIn } from "../api/sign-in.ts";
import { startSignIn } from "../api/start-sign-in.ts";

export interface LoginInput {
  email?: string;
  language: Language;
}

export interface LoginContext {
  email: string;
  /** The language the code e-mail is written in. */
  language: Language;
  /** The visitor picked the language on the form: it stays after signing in instead of the account's. */
  languageChosen: boolean;
  authMethod: AuthMethod | null;
  /** How many codes this visit asked for: the first, then each new e-mail or call. */
  codesSent: number;
  /** The server's reason the last code or password was refused (`code_wrong`, `code_locked`, ...). */
  refusal: string | null;
  /** Refusals so far, so the form can clear and refocus the field after each. */
  refusals: number;
  signedIn: SignInResponse | null;
}

/** The states that wait for the server carry a tag saying what for; the screen shows it and takes no input. */
export const BUSY_TAGS = ["starting", "verifying", "resending", "calling"] as const;
export type LoginBusy = (typeof BUSY_TAGS)[number];

export type LoginEvent =
  | { type: "email.submit"; email: string; language: Language }
  | { type: "language.change"; language: Language }
  | { type: "email.change" }
  | { type: "code.submit"; code: string }
  | { type: "code.resend" }
  | { type: "code.use" }
  | { type: "call.request" }
  | { type: "password.use" }
  | { type: "password.submit"; password: string };

interface SignInActorInput {
  credentials: SignInInput;
  keepSiteLanguage: boolean;
}

/** Codes that no attempt can rescue: only a new code helps. */
const SPENT_CODE_REFUSALS = ["code_locked", "code_expired", "code_missing"];

function refusalOf(error: unknown): string {
  return error instanceof ApiError ? (error.errors[0]?.code ?? "failed") : "failed";
}

/**
 * The login UI (seed spec, section 4): initial (e-mail and language) → otp or password, as start_sign_in says;
 * otp → initial when the e-mail is changed, otp → voice-otp when a call is requested. Every demo account also has
 * a password, so the code screens offer it too.
 */
const login = setup({
  types: {
    input: {} as LoginInput,
    context: {} as LoginContext,
    events: {} as LoginEvent,
    output: {} as SignInResponse,
    tags: {} as LoginBusy,
  },
  actors: {
    startSignIn: fromPromise<StartSignInResponse, { email: string; language: Language }>(({ input }) =>
      notifyingErrors(startSignIn(input)),
    ),
    sendVoiceOtp: fromPromise<StartSignInResponse, { email: string }>(({ input }) =>
      notifyingErrors(sendVoiceOtp(input.email)),
    ),
    signIn: fromPromise<SignInResponse, SignInActorInput>(async ({ input }) => {
      const response = await notifyingErrors(signIn(input.credentials));
      rememberSession();
      // The account's language follows its owner from browser to browser, unless they just picked another.
      if (!input.keepSiteLanguage && response.account.language !== siteLanguage())
        await setSiteLanguage(response.account.language);
      return response;
    }),
  },
  guards: {
    signsInByPassword: (_, params: { authMethod: AuthMethod }) => params.authMethod === "password",
    signsInByCode: ({ context }) => context.authMethod === "otp",
  },
  actions: {
    rememberEmail: assign((_, params: { email: string; language: Language }) => ({
      email: params.email.trim(),
      language: params.language,
    })),
    chooseLanguage: assign((_, params: { language: Language }) => ({
      language: params.language,
      languageChosen: true,
    })),
    rememberAuthMethod: assign((_, params: { authMethod: AuthMethod }) => ({
      authMethod: params.authMethod,
    })),
    countNewCode: assign(({ context }) => ({ codesSent: context.codesSent + 1, refusal: null })),
    forgetCodes: assign({ codesSent: 0, refusal: null, authMethod: null }),
    recordRefusal: assign(({ context }, params: { error: unknown }) => ({
      refusal: refusalOf(params.error),
      refusals: context.refusals + 1,
    })),
    clearRefusal: assign({ refusal: null }),
    recordSignIn: assign((_, params: { response: SignInResponse }) => ({ signedIn: params.response })),
  },
});

/**
 * One sign-in attempt, shared by the e-mailed code, the voice code and the password screens: the server's answer
 * signs in, a refusal goes back to entering with its reason.
 */
const verifying = (credentials: (context: LoginContext, event: LoginEvent) => SignInInput) =>
  login.createStateConfig({
    tags: ["verifying"],
    invoke: {
      src: "signIn",
      input: ({ context, event }) => ({
        credentials: credentials(context, event),
        keepSiteLanguage: context.languageChosen,
      }),
      onDone: {
        target: "#login.signedIn",
        actions: { type: "recordSignIn", params: ({ event }) => ({ response: event.output }) },
      },
      onError: {
        target: "entering",
        actions: { type: "recordRefusal", params: ({ event }) => ({ error: event.error }) },
      },
    },
  });

const byCode = verifying((context, event) => ({
  email: context.email,
  otp_attempt: event.type === "code.submit" ? event.code.trim() : "",
}));

const byPassword = verifying((context, event) => ({
  email: context.email,
  password: event.type === "password.submit" ? event.password : "",
}));

/** Asks for a new e-mailed code; `done` is where a sent code leads. */
const resending = (done: string) =>
  login.createStateConfig({
    tags: ["resending"],
    invoke: {
      src: "startSignIn",
      input: ({ context }) => ({ email: context.email, language: context.language }),
      onDone: { target: done, actions: "countNewCode" },
      onError: "entering",
    },
  });

export const loginMachine = login.createMachine({
  id: "login",
  context: ({ input }) => ({
    email: input.email ?? "",
    language: input.language,
    languageChosen: false,
    authMethod: null,
    codesSent: 0,
    refusal: null,
    refusals: 0,
    signedIn: null,
  }),
  initial: "initial",
  states: {
    initial: {
      entry: "forgetCodes",
      initial: "editing",
      states: {
        editing: {
          on: {
            "language.change": {
              actions: { type: "chooseLanguage", params: ({ event }) => ({ language: event.language }) },
            },
            "email.submit": {
              target: "starting",
              actions: {
                type: "rememberEmail",
                params: ({ event }) => ({ email: event.email, language: event.language }),
              },
            },
          },
        },
        starting: {
          tags: ["starting"],
          invoke: {
            src: "startSignIn",
            input: ({ context }) => ({ email: context.email, language: context.language }),
            onDone: [
              {
                guard: {
                  type: "signsInByPassword",
                  params: ({ event }) => ({ authMethod: event.output.account.auth_method }),
                },
                target: "#login.password",
                actions: { type: "rememberAuthMethod", params: { authMethod: "password" } },
              },
              {
                target: "#login.otp",
                actions: [{ type: "rememberAuthMethod", params: { authMethod: "otp" } }, "countNewCode"],
              },
            ],
            onError: "editing",
          },
        },
      },
    },
    otp: {
      initial: "entering",
      on: {
        "email.change": "initial",
        "call.request": "voice-otp",
        "password.use": { target: "password", actions: "clearRefusal" },
      },
      states: {
        entering: {
          on: {
            "code.submit": "verifying",
            "code.resend": "resending",
          },
        },
        verifying: byCode,
        resending: resending("entering"),
      },
    },
    "voice-otp": {
      initial: "calling",
      on: {
        "email.change": "initial",
        "code.resend": ".resending",
        "password.use": { target: "password", actions: "clearRefusal" },
      },
      states: {
        calling: {
          tags: ["calling"],
          invoke: {
            src: "sendVoiceOtp",
            input: ({ context }) => ({ email: context.email }),
            onDone: { target: "entering", actions: "countNewCode" },
            // No call was placed, so the e-mailed code still stands.
            onError: "#login.otp",
          },
        },
        entering: {
          on: {
            "code.submit": "verifying",
            "call.request": "calling",
          },
        },
        verifying: byCode,
        // Back to an e-mailed code: a fresh one replaces the code read out on the phone.
        resending: resending("#login.otp"),
      },
    },
    password: {
      initial: "entering",
      on: {
        "email.change": "initial",
        "code.use": { guard: "signsInByCode", target: "otp", actions: "clearRefusal" },
      },
      states: {
        entering: {
          on: { "password.submit": "verifying" },
        },
        verifying: byPassword,
      },
    },
    signedIn: {
      type: "final",
    },
  },
  output: ({ context }) => {
    if (!context.signedIn) throw new Error("the login machine finished without signing in");
    return context.signedIn;
  },
});

export function isCodeSpent(refusal: string | null): boolean {
  return refusal !== null && SPENT_CODE_REFUSALS.includes(refusal);
}
