import * as z from "zod/mini";
import { ONE_TIME_CODE } from "./one-time-code.ts";

/**
 * The sign-in screen's fields, in zod/mini: the sign-in page is a first page and loads no classic zod. They accept
 * exactly what account.ts's request schemas accept (EmailInput, OtpAttempt, Password); sign-in-form.test.ts holds
 * the two to the same samples.
 */

/** An e-mail address as a person types it: surrounding blanks and letter case do not matter. */
export const SignInEmail = z.pipe(
  z.string().check(z.trim(), z.toLowerCase()),
  z.email().check(z.maxLength(254)),
);

/** The e-mailed or spoken code: its digits only (the field drops anything else as it is typed). */
export const SignInCode = z.string().check(z.trim(), z.regex(new RegExp(`^\\d{${ONE_TIME_CODE.digits}}$`)));

export const SignInPassword = z.string().check(z.minLength(1), z.maxLength(200));

/** The initial step: the address (the language is a select that cannot hold anything else). */
export const SignInEmailForm = z.object({ email: SignInEmail });
export type SignInEmailForm = z.infer<typeof SignInEmailForm>;

/** The otp and voice-otp steps. */
export const SignInCodeForm = z.object({ code: SignInCode });
export type SignInCodeForm = z.infer<typeof SignInCodeForm>;

/** The password step. */
export const SignInPasswordForm = z.object({ password: SignInPassword });
export type SignInPasswordForm = z.infer<typeof SignInPasswordForm>;
