import { describe, expect, it } from "@jest/globals";
import * as z from "zod/mini";
import { regexes } from "zod/v4/core";
import { EmailInput, OtpAttempt, Password } from "./account.ts";
import { EMAIL_PATTERN, isSignInCode, isSignInPassword, signInEmail } from "./sign-in-checks.ts";
import { SignInCode, SignInEmail, SignInPassword } from "./sign-in-form.ts";

const accepts = (schema: z.ZodMiniType, value: unknown) => z.safeParse(schema, value).success;

describe("the sign-in form's fields", () => {
  it("given the same samples, when checked, then the form and the server's request schemas agree", () => {
    const emails = [
      "agent@dnipro.test",
      "  Agent@Dnipro.TEST ",
      "agent",
      "agent@",
      "@dnipro.test",
      "",
      `${"a".repeat(250)}@x.io`,
    ];
    for (const email of emails)
      expect([email, accepts(SignInEmail, email)]).toEqual([email, EmailInput.safeParse(email).success]);
    const codes = ["123456", " 123456 ", "12345", "1234567", "12a456", ""];
    for (const code of codes)
      expect([code, accepts(SignInCode, code)]).toEqual([code, OtpAttempt.safeParse(code).success]);
    const passwords = ["skyward-demo-2026", "", "x".repeat(200), "x".repeat(201)];
    for (const password of passwords)
      expect([password.length, accepts(SignInPassword, password)]).toEqual([
        password.length,
        Password.safeParse(password).success,
      ]);
  });

  it("given an address typed with blanks and capitals, when parsed, then it is the address the server keeps", () => {
    expect(z.parse(SignInEmail, "  Agent@Dnipro.TEST ")).toBe("agent@dnipro.test");
  });

  it("given the same samples, when checked without zod (the sign-in page's checks), then they agree with the server", () => {
    const emails = [
      "agent@dnipro.test",
      "  Agent@Dnipro.TEST ",
      "o'brien+tag@sub.dnipro.test",
      "agent",
      "agent@",
      "@dnipro.test",
      "agent..x@dnipro.test",
      ".agent@dnipro.test",
      "agent@dnipro.t",
      "agent@-dnipro.test",
      "",
      `${"a".repeat(244)}@dnipro.io`,
      `${"a".repeat(250)}@x.io`,
    ];
    for (const email of emails) {
      const server = EmailInput.safeParse(email);
      expect([email, signInEmail(email)]).toEqual([email, server.success ? server.data : null]);
    }
    for (const code of ["123456", " 123456 ", "12345", "1234567", "12a456", "", "١٢٣٤٥٦"])
      expect([code, isSignInCode(code)]).toEqual([code, OtpAttempt.safeParse(code).success]);
    for (const password of ["skyward-demo-2026", "", " ", "x".repeat(200), "x".repeat(201)])
      expect([password.length, isSignInPassword(password)]).toEqual([
        password.length,
        Password.safeParse(password).success,
      ]);
  });

  it("given zod's own e-mail pattern, when compared, then the sign-in page's copy is the same", () => {
    // The same pattern: a `-` last in a character class needs no escape (the linter drops it from the copy).
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source.replaceAll("\\-", "-"));
    expect(EMAIL_PATTERN.flags).toBe(regexes.email.flags);
  });
});
