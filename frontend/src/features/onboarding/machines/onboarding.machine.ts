import type { AccountCommandResponse, Onboarding } from "@skyward/contracts/account";
import { assign, fromPromise, setup } from "xstate";
import { notifyingErrors } from "../../../lib/api-client.ts";
import { fieldErrors } from "../../../lib/field-errors.ts";
import { setSiteLanguage, siteLanguage } from "../../../lib/i18n.ts";
import { acceptTerms } from "../api/accept-terms.ts";
import { type AccountInfo, completeAccountInfo } from "../api/complete-account-info.ts";

export interface OnboardingInput {
  /** Where the account's onboarding stands on the server ("done" never reaches this machine). */
  onboarding: Exclude<Onboarding, "done">;
  info: AccountInfo;
}

export interface OnboardingContext {
  /** Where onboarding stood when this page opened. */
  resumeAt: OnboardingInput["onboarding"];
  info: AccountInfo;
  /** What the server said about each field of the last submitted info. */
  fieldErrors: Partial<Record<keyof AccountInfo, string>>;
}

export type OnboardingEvent = { type: "info.submit"; info: AccountInfo } | { type: "terms.accept" };

/** Onboarding (seed spec, section 4): initial (account info) → privacy once the info is submitted → done. */
export const onboardingMachine = setup({
  types: {
    input: {} as OnboardingInput,
    context: {} as OnboardingContext,
    events: {} as OnboardingEvent,
  },
  actors: {
    completeAccountInfo: fromPromise<AccountCommandResponse, AccountInfo>(async ({ input }) => {
      const response = await notifyingErrors(completeAccountInfo(input));
      // The language the user just chose for their account is the one they want to read.
      if (response.data.language !== siteLanguage()) await setSiteLanguage(response.data.language);
      return response;
    }),
    acceptTerms: fromPromise<AccountCommandResponse>(() => notifyingErrors(acceptTerms())),
  },
  guards: {
    infoSubmitted: ({ context }) => context.resumeAt === "privacy",
  },
  actions: {
    rememberInfo: assign((_, params: { info: AccountInfo }) => ({ info: params.info, fieldErrors: {} })),
    recordFieldErrors: assign((_, params: { error: unknown }) => ({
      fieldErrors: fieldErrors(params.error, "/account"),
    })),
  },
}).createMachine({
  id: "onboarding",
  context: ({ input }) => ({ resumeAt: input.onboarding, info: input.info, fieldErrors: {} }),
  initial: "resuming",
  states: {
    // Onboarding may have been left half-way: it picks up where the server says it stands.
    resuming: {
      always: [{ guard: "infoSubmitted", target: "privacy" }, { target: "initial" }],
    },
    initial: {
      initial: "editing",
      states: {
        editing: {
          on: {
            "info.submit": {
              target: "submitting",
              actions: { type: "rememberInfo", params: ({ event }) => ({ info: event.info }) },
            },
          },
        },
        submitting: {
          invoke: {
            src: "completeAccountInfo",
            input: ({ context }) => context.info,
            onDone: "#onboarding.privacy",
            onError: {
              target: "editing",
              actions: { type: "recordFieldErrors", params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    privacy: {
      initial: "reading",
      states: {
        reading: {
          on: { "terms.accept": "accepting" },
        },
        accepting: {
          invoke: {
            src: "acceptTerms",
            onDone: "#onboarding.done",
            onError: "reading",
          },
        },
      },
    },
    done: {
      type: "final",
    },
  },
});
