import { describe, expect, it } from "@jest/globals";
import * as z from "zod/mini";
import { EmailInput, OtpAttempt, Password } from "./account.ts";
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
});
