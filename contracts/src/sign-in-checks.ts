import { ONE_TIME_CODE } from "./one-time-code.ts";

/**
 * The sign-in screen's field checks without zod: the sign-in page is a first page, and zod's core alone weighed
 * about a tenth of it. They accept exactly what account.ts's request schemas accept (EmailInput, OtpAttempt,
 * Password); sign-in-form.test.ts holds them to the same samples, and EMAIL_PATTERN to zod's own.
 */

/** zod's e-mail pattern (`z.email()`, which the server's EmailInput uses), copied: importing it brings zod. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** The address the server keeps for what a person typed (blanks and letter case do not matter), or null. */
export function signInEmail(typed: string): string | null {
  const email = typed.trim().toLowerCase();
  return email.length <= 254 && EMAIL_PATTERN.test(email) ? email : null;
}

const CODE = new RegExp(`^\\d{${ONE_TIME_CODE.digits}}$`);

/** The e-mailed or spoken code: its digits only. */
export const isSignInCode = (typed: string): boolean => CODE.test(typed.trim());

export const isSignInPassword = (typed: string): boolean => typed.length >= 1 && typed.length <= 200;
