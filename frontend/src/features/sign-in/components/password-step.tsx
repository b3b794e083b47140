import { Button, Divider, PasswordInput, Stack } from "@mantine/core";
import { useForm } from "@mantine/form";
import { isSignInPassword } from "@skyward/contracts/sign-in-checks";
import { IconMail } from "@tabler/icons-react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { focusFirstError } from "../../../lib/focus-first-error.ts";
import { EmailBadge } from "./email-badge.tsx";
import { StepHeader } from "./step-header.tsx";

export interface PasswordStepProps {
  email: string;
  busy: boolean;
  refusals: number;
  /** The account signs in by code: the password is the alternative, and the code stays on offer. */
  codeAvailable: boolean;
  onSubmit: (password: string) => void;
  onUseCode: () => void;
  onChangeEmail: () => void;
}

/** The login UI's password state. */
export function PasswordStep(props: PasswordStepProps) {
  const { email, busy, refusals, codeAvailable } = props;
  const { t } = useTranslation("sign-in");
  const { t: tForm } = useTranslation("sign-in-form");
  const form = useForm({
    initialValues: { password: "" },
    validate: { password: (typed) => (isSignInPassword(typed) ? null : "password_required") },
  });
  const input = useRef<HTMLInputElement>(null);

  // A refused password is of no further use: clear the field for the next try.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on each refusal only (the form object is new each render)
  useEffect(() => {
    if (refusals === 0) return;
    form.setFieldValue("password", "");
    input.current?.focus();
  }, [refusals]);

  const password = form.getValues().password;
  return (
    // noValidate: the form's own check says what is missing in the interface language, not the browser's.
    <form noValidate onSubmit={form.onSubmit((values) => props.onSubmit(values.password), focusFirstError)}>
      <Stack gap="lg">
        <StepHeader title={t("password.title")} lead={t("password.lead")} />
        <EmailBadge email={email} onChange={props.onChangeEmail} />
        {/* Lets the browser's password manager pair the password with the address. */}
        <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
        <PasswordInput
          ref={input}
          name="password"
          label={t("password.label")}
          autoComplete="current-password"
          required
          autoFocus
          {...form.getInputProps("password")}
          disabled={busy}
          // Red after a refusal until something new is typed; the reason is in the notification.
          error={form.errors.password ? tForm("password_required") : refusals > 0 && password === ""}
        />
        <Button type="submit" fullWidth loading={busy}>
          {t("submit")}
        </Button>
        {codeAvailable ? (
          <>
            <Divider label={t("or")} labelPosition="center" />
            <Button
              variant="default"
              fullWidth
              onClick={props.onUseCode}
              disabled={busy}
              leftSection={<IconMail size={16} />}
            >
              {t("actions.use_code")}
            </Button>
          </>
        ) : null}
      </Stack>
    </form>
  );
}
