import { z } from "zod";
import {
  AccountCommandResponse,
  DevMailboxResponse,
  DevVoiceResponse,
  EmailChangeStartedResponse,
  SignInResponse,
  SignOutResponse,
  StartSignInResponse,
} from "../account.ts";

/*
 * The answers of the routes the public document leaves out on purpose (scripts/src/openapi-coverage.test.ts says why
 * each is left out): a person's sign-in and profile steps, the CSRF token, the development outboxes. They are not
 * published, but their answers are contracts all the same, and the test apps check them like the documented ones
 * (scripts/src/testing/answer-check.ts). The probes (answered before any route) and the document itself have none.
 */

/** An undocumented route and its answer per status, in the OpenAPI path style of the documented ones. */
export interface UnlistedRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  responses: Record<number, z.ZodType>;
}

/** `GET /csrf`: the token a cookie session sends back on each command (X-CSRF-Token). */
export const CsrfResponse = z.object({ token: z.string() });

export const unlistedRoutes: readonly UnlistedRoute[] = [
  { method: "get", path: "/csrf", responses: { 200: CsrfResponse } },
  { method: "post", path: "/start_sign_in", responses: { 200: StartSignInResponse } },
  { method: "post", path: "/send_voice_otp", responses: { 200: StartSignInResponse } },
  { method: "post", path: "/sign_in", responses: { 200: SignInResponse } },
  { method: "delete", path: "/sign_out", responses: { 200: SignOutResponse } },
  { method: "post", path: "/account/complete", responses: { 200: AccountCommandResponse } },
  { method: "put", path: "/onboarding", responses: { 200: AccountCommandResponse } },
  { method: "put", path: "/account/terms", responses: { 200: AccountCommandResponse } },
  {
    method: "put",
    path: "/account/email",
    // Without a code: the change is asked (a code goes to the new address); with it: the change is made.
    responses: { 200: z.union([EmailChangeStartedResponse, AccountCommandResponse]) },
  },
  { method: "put", path: "/account/phone", responses: { 200: AccountCommandResponse } },
  { method: "post", path: "/account/phone", responses: { 200: AccountCommandResponse } },
  { method: "put", path: "/account/details/update_locale", responses: { 200: AccountCommandResponse } },
  { method: "get", path: "/dev/mailbox", responses: { 200: DevMailboxResponse } },
  { method: "get", path: "/dev/voice", responses: { 200: DevVoiceResponse } },
];
