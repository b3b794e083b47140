import { assign, fromPromise, setup } from "xstate";
import { ApiError, notifyingErrors } from "../../../lib/api-client.ts";
import { confirmEmailChange, requestEmailChange } from "../api/change-email.ts";

export interface EmailChangeContext {
  /** The address being moved to, once a code was sent to it. */
  newEmail: string;
  /** The server's reason the last code was refused (`code_wrong`, `code_locked`, ...). */
  refusal: string | null;
  refusals: number;
  codesSent: number;
}

export type EmailChangeEvent =
  | { type: "change.start" }
  | { type: "change.cancel" }
  | { type: "email.submit"; email: string }
  | { type: "code.submit"; code: string }
  | { type: "code.resend" };

/**
 * Changing the account's e-mail: the new address gets a code, and only its owner can confirm the change
 * (idle → editing → requesting → confirming → changed).
 */
export const emailChangeMachine = setup({
  types: {
    context: {} as EmailChangeContext,
    events: {} as EmailChangeEvent,
  },
  actors: {
    requestCode: fromPromise<unknown, { email: string }>(({ input }) =>
      notifyingErrors(requestEmailChange(input.email)),
    ),
    confirm: fromPromise<unknown, { email: string; code: string }>(({ input }) =>
      notifyingErrors(confirmEmailChange(input)),
    ),
  },
  actions: {
    rememberEmail: assign((_, params: { email: string }) => ({ newEmail: params.email.trim() })),
    countCode: assign(({ context }) => ({ codesSent: context.codesSent + 1, refusal: null })),
    recordRefusal: assign(({ context }, params: { error: unknown }) => ({
      refusal: params.error instanceof ApiError ? (params.error.errors[0]?.code ?? "failed") : "failed",
      refusals: context.refusals + 1,
    })),
    reset: assign({ newEmail: "", refusal: null, refusals: 0, codesSent: 0 }),
  },
}).createMachine({
  id: "emailChange",
  context: { newEmail: "", refusal: null, refusals: 0, codesSent: 0 },
  initial: "idle",
  states: {
    idle: {
      on: { "change.start": { target: "editing", actions: "reset" } },
    },
    editing: {
      on: {
        "change.cancel": "idle",
        "email.submit": {
          target: "requesting",
          actions: { type: "rememberEmail", params: ({ event }) => ({ email: event.email }) },
        },
      },
    },
    requesting: {
      invoke: {
        src: "requestCode",
        input: ({ context }) => ({ email: context.newEmail }),
        onDone: { target: "confirming", actions: "countCode" },
        onError: "editing",
      },
    },
    confirming: {
      initial: "entering",
      on: { "change.cancel": "idle" },
      states: {
        entering: {
          on: {
            "code.submit": "verifying",
            "code.resend": "resending",
          },
        },
        verifying: {
          invoke: {
            src: "confirm",
            input: ({ context, event }) => ({
              email: context.newEmail,
              code: event.type === "code.submit" ? event.code : "",
            }),
            onDone: "#emailChange.changed",
            onError: {
              target: "entering",
              actions: { type: "recordRefusal", params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        resending: {
          invoke: {
            src: "requestCode",
            input: ({ context }) => ({ email: context.newEmail }),
            onDone: { target: "entering", actions: "countCode" },
            onError: "entering",
          },
        },
      },
    },
    changed: {
      on: { "change.start": { target: "editing", actions: "reset" } },
    },
  },
});
